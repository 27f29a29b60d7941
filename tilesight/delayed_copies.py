"""Broadcast delay: public messages published again, some seconds later, under ``delayed/``."""

from __future__ import annotations

import heapq
import logging
import threading
import time

import paho.mqtt.client as mqtt

log = logging.getLogger("tilesight.mqtt")


class DelayedCopies:
    """Publishes public messages again, ``delay_s`` later, under ``delayed/`` (broadcast delay).

    Best effort (QoS 1, not in the outbox): the live topics carry the guarantee; a stream that
    must lag the table reads these, and the broker ACL can restrict an overlay account to them.
    """

    def __init__(self, client: mqtt.Client, delay_s: float) -> None:
        self._client = client
        self.delay_s = delay_s
        self._due: list[tuple[float, int, str, str, bool]] = []
        self._count = 0
        self._cond = threading.Condition()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="delayed-copies", daemon=True)
        self._thread.start()

    def add(self, topic: str, payload: str, retain: bool) -> None:
        with self._cond:
            self._count += 1
            heapq.heappush(
                self._due, (time.monotonic() + self.delay_s, self._count, topic, payload, retain)
            )
            self._cond.notify()

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        with self._cond:
            while not self._stopped:
                if not self._due:
                    self._cond.wait()
                    continue
                wait = self._due[0][0] - time.monotonic()
                if wait > 0:
                    self._cond.wait(wait)
                    continue
                _, _, topic, payload, retain = heapq.heappop(self._due)
                try:  # best effort: one copy that cannot be sent must not end the thread
                    self._client.publish(topic, payload, qos=0 if retain else 1, retain=retain)
                except Exception:
                    log.exception("delayed copy to %s not sent", topic)
