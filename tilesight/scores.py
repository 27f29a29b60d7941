"""Score capture: a consumer of every table of a tournament that never misses a hand.

It subscribes to ``events/#`` and ``private/events/#`` (the referee-only events: each seq of a
table's stream is on one or the other) of all tables through a shared subscription (several
consumers may run; the broker gives each message to one of them) and to the retained ``state`` of
each table, which says how far each table's stream goes. Events are stored by ``event_id``
(duplicates are harmless). A hole in ``(epoch, seq)`` that stays open for ``gap_grace_s`` is
asked for with ``cmd/resync``; the table replays the missing events from its outbox to this
consumer's own reply topic, so a broker crash or a restart in between loses nothing.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from tilesight.config import MqttEndpoint, TlsConfig
from tilesight.mqtt import make_client, new_properties, session_properties
from tilesight.score_store import BaseScoreStore, StoreUnavailableError
from tilesight.topics import PREFIX, TableTopics, TopicError, parse_topic, shared, tournament_filter

log = logging.getLogger("tilesight.scores")


@dataclass
class _Stream:
    """What one consumer knows of one table's ``(epoch, seq)`` stream."""

    seen: set[int] = field(default_factory=set)
    contiguous: int = 0  # every seq 1..contiguous is stored
    announced: int = 0  # the table's retained state says it reached this seq
    gap_since: float | None = None
    asked_at: float = 0.0

    def add(self, seq: int) -> None:
        if seq <= self.contiguous:
            return  # a duplicate or a replay of something already stored
        self.seen.add(seq)
        while self.contiguous + 1 in self.seen:
            self.contiguous += 1
            self.seen.discard(self.contiguous)

    @property
    def end(self) -> int:
        return max([self.announced, self.contiguous, *self.seen])


class ScoreConsumer:
    def __init__(
        self,
        endpoint: MqttEndpoint,
        tournament: str,
        store: BaseScoreStore,
        *,
        name: str = "scores",
        group: str | None = "tilesight-scores",
        tls: TlsConfig | None = None,
        gap_grace_s: float = 0.5,
        retry_s: float = 2.0,
        on_hand: Callable[[dict[str, Any]], None] | None = None,
        prefix: str = PREFIX,
    ) -> None:
        self.tournament = tournament
        self.store = store
        self.group = group
        self.prefix = prefix
        self.on_hand = on_hand
        self.gap_grace_s = gap_grace_s
        self.retry_s = retry_s
        self.client_id = f"tilesight-{name}"
        self.endpoint = endpoint
        self.received = 0
        self.duplicates = 0
        self.resyncs = 0
        self.connected = threading.Event()
        self._streams: dict[tuple[str, int], _Stream] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._watch: threading.Thread | None = None
        for table, epoch in store.streams(tournament):
            stream = self._streams.setdefault((table, epoch), _Stream())
            for seq in store.seqs(tournament, table, epoch):
                stream.add(seq)
        self._client = make_client(endpoint, self.client_id, tls=tls)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message

    def start(self) -> None:
        self._client.connect_async(
            self.endpoint.host,
            self.endpoint.port,
            keepalive=15,
            clean_start=False,
            properties=session_properties(3600),
        )
        self._client.loop_start()
        self._watch = threading.Thread(target=self._watch_gaps, name="scores-gaps", daemon=True)
        self._watch.start()

    def stop(self) -> None:
        self._stop.set()
        if self._watch is not None:
            self._watch.join(timeout=5)
        self._client.disconnect()
        self._client.loop_stop()

    # progress ---------------------------------------------------------------------------------
    def positions(self) -> dict[tuple[str, int], tuple[int, int]]:
        """``(table, epoch) -> (contiguous seq stored, seq the table announced)``."""
        with self._lock:
            return {k: (s.contiguous, s.announced) for k, s in self._streams.items()}

    def caught_up(self, table: str | None = None, target: tuple[int, int] | None = None) -> bool:
        """Every announced stream (of ``table``) is stored without holes up to its end; with
        ``target`` ``(epoch, seq)``, also that ``table``'s stream reached it."""
        with self._lock:
            streams = {k: s for k, s in self._streams.items() if table in (None, k[0])}
            if target is not None and table is not None:
                reached = streams.get((table, target[0]))
                if reached is None or reached.contiguous < target[1]:
                    return False
            return bool(streams) and all(
                s.announced > 0 and s.contiguous >= s.end for s in streams.values()
            )

    def wait_caught_up(
        self, timeout: float, table: str | None = None, target: tuple[int, int] | None = None
    ) -> bool:
        deadline = time.monotonic() + timeout
        while not self.caught_up(table, target):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    # network thread ---------------------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, rc: ReasonCode, _p: Any) -> None:
        if rc.is_failure:
            log.warning("broker refused the connection: %s", rc)
            return
        for leaf in ("events/#", "private/events/#"):
            events = tournament_filter(self.tournament, leaf, self.prefix)
            client.subscribe(shared(self.group, events) if self.group else events, qos=1)
        client.subscribe(tournament_filter(self.tournament, "state", self.prefix), qos=1)
        client.subscribe(
            tournament_filter(self.tournament, f"reply/{self.client_id}", self.prefix), qos=1
        )
        self.connected.set()

    def _on_disconnect(self, *_args: Any) -> None:
        self.connected.clear()

    def _on_message(self, _c: Any, _u: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            parsed = parse_topic(msg.topic, self.prefix)
            data = json.loads(msg.payload)
        except (TopicError, ValueError):
            log.warning("ignored unreadable message on %r", msg.topic)
            return
        if not isinstance(data, dict):
            return
        if parsed.kind == "state":
            self._announce(parsed.table, data)
        elif parsed.kind in ("events", "private", "reply") and "event_id" in data:
            self._ingest(data)

    def _announce(self, table: str, state: dict[str, Any]) -> None:
        epoch, seq = state.get("epoch"), state.get("seq")
        if isinstance(epoch, int) and isinstance(seq, int) and seq > 0:
            with self._lock:
                stream = self._streams.setdefault((table, epoch), _Stream())
                stream.announced = max(stream.announced, seq)

    def _ingest(self, event: dict[str, Any]) -> None:
        try:
            fresh = self.store.store(self.tournament, event)
            key = (str(event["table"]), int(event["epoch"]))
            seq = int(event["seq"])
        except (KeyError, TypeError, ValueError):
            log.warning("ignored malformed event %.120r", event)
            return
        except StoreUnavailableError as exc:  # not stored, not counted: the gap repair asks again
            log.warning("score database unavailable, will ask for this event again: %s", exc)
            return
        with self._lock:
            self.received += 1
            self.duplicates += not fresh
            self._streams.setdefault(key, _Stream()).add(seq)
        if fresh and event.get("type") == "hand_ended" and self.on_hand is not None:
            self.on_hand(event)

    # gaps ---------------------------------------------------------------------------------------
    def _watch_gaps(self) -> None:
        while not self._stop.wait(0.1):
            now = time.monotonic()
            with self._lock:
                items = list(self._streams.items())
            for (table, epoch), stream in items:
                if stream.contiguous >= stream.end:
                    stream.gap_since = None
                    continue
                if stream.gap_since is None:
                    stream.gap_since = now
                if (
                    now - stream.gap_since < self.gap_grace_s
                    or now - stream.asked_at < self.retry_s
                ):
                    continue
                if not self.connected.is_set():
                    continue
                try:
                    self._refresh(table, epoch, stream)  # a peer consumer may have stored them
                except StoreUnavailableError as exc:
                    log.warning("score database unavailable: %s", exc)
                    continue
                if stream.contiguous < stream.end:
                    stream.asked_at = now
                    self._ask_resync(table, epoch, stream.contiguous + 1, stream.end)

    def _refresh(self, table: str, epoch: int, stream: _Stream) -> None:
        seqs = self.store.seqs(self.tournament, table, epoch)
        with self._lock:
            for seq in seqs:
                stream.add(seq)

    def _ask_resync(self, table: str, epoch: int, first: int, last: int) -> None:
        topics = TableTopics(self.tournament, table, self.prefix)
        props = new_properties(PacketTypes.PUBLISH)
        props.ResponseTopic = topics.reply(self.client_id)
        props.CorrelationData = uuid.uuid4().bytes
        props.MessageExpiryInterval = 30
        body = json.dumps({"epoch": epoch, "from_seq": first, "to_seq": last})
        self._client.publish(topics.cmd("resync"), body, qos=1, properties=props)
        self.resyncs += 1
        log.info("table %s: asked to resync seq %d..%d (epoch %d)", table, first, last, epoch)
