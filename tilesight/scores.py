"""Score capture: a consumer of every table of a tournament that never misses a hand.

It subscribes to ``events/#`` and ``private/events/#`` (the referee-only events: each seq of a
table's stream is on one or the other) of all tables through a shared subscription (several
consumers may run; the broker gives each message to one of them) and to the retained ``state`` of
each table, which says how far each table's stream goes. Events are stored by ``event_id``
(duplicates are harmless). A hole in ``(epoch, seq)`` that stays open for ``gap_grace_s`` is
asked for with ``cmd/resync`` (at most :data:`RESYNC_SPAN` seqs a request); the table replays
the missing events from its outbox to this consumer's own reply topic, so a broker crash or a
restart in between loses nothing. How far each stream is stored: :mod:`tilesight.score_streams`.

The network thread only queues what arrives (a bounded queue); the ``scores-ingest`` thread
parses it within limits (:mod:`tilesight.bounded_json`) and stores only events that pass
:mod:`tilesight.event_checks`, so no message can end a thread or forge a standing. Credentials
the broker refuses are reported (``refused``) and not retried.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from tilesight.bounded_json import BoundedJsonError, loads_bounded
from tilesight.command_inbox import refusal
from tilesight.config import MqttEndpoint, TlsConfig
from tilesight.event_checks import announced_position, event_problem
from tilesight.mqtt import make_client, new_properties, session_properties
from tilesight.score_store import BaseScoreStore, StoreUnavailableError
from tilesight.score_streams import StreamProgress
from tilesight.topics import PREFIX, TableTopics, TopicError, parse_topic, shared, tournament_filter

log = logging.getLogger("tilesight.scores")

#: A table answers a resync of at most this many seqs past ``from_seq``.
RESYNC_SPAN = 10_000
#: An event or a retained state is a few KB; a state of a long hand a few tens.
MAX_MESSAGE_BYTES = 256 * 1024
MAX_MESSAGE_DEPTH = 16
#: Messages waiting for the ingest thread; beyond it they are dropped (the gap repair asks).
MAX_QUEUED = 10_000


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
        self.refused: str | None = None
        self.rejected = 0  # messages refused by the bounds and checks
        self._inbox: queue.Queue[tuple[str, bytes] | None] = queue.Queue(MAX_QUEUED)
        self._ingest_thread: threading.Thread | None = None
        self._streams: dict[tuple[str, int], StreamProgress] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._watch: threading.Thread | None = None
        for table, epoch in store.streams(tournament):
            stream = self._streams.setdefault((table, epoch), StreamProgress())
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
        self._ingest_thread = threading.Thread(
            target=self._ingest_loop, name="scores-ingest", daemon=True
        )
        self._ingest_thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._watch is not None:
            self._watch.join(timeout=5)
        self._client.disconnect()
        self._client.loop_stop()
        self._inbox.put(None)
        if self._ingest_thread is not None:
            self._ingest_thread.join(timeout=5)

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
            why = refusal(rc)
            if why is not None:  # wrong credentials: retrying cannot help
                self.refused = f"broker refused score capture: {why}"
                log.error("%s; not retrying", self.refused)
                client.disconnect()
            else:
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
        """Network thread: queue the bytes, nothing else (a full queue drops: gaps repair it)."""
        try:
            self._inbox.put_nowait((str(msg.topic), bytes(msg.payload)))
        except queue.Full:
            log.warning("ingest queue full; dropped a message on %r", msg.topic)
        except Exception:
            log.exception("could not queue a message")

    # ingest thread ----------------------------------------------------------------------------
    def _ingest_loop(self) -> None:
        while (item := self._inbox.get()) is not None:
            try:
                self._handle(*item)
            except Exception:  # one message must never end capture
                log.exception("message on %r not handled", item[0])

    def _handle(self, topic: str, payload: bytes) -> None:
        try:
            parsed = parse_topic(topic, self.prefix)
            data = loads_bounded(payload, max_bytes=MAX_MESSAGE_BYTES, max_depth=MAX_MESSAGE_DEPTH)
        except (TopicError, BoundedJsonError) as exc:
            self.rejected += 1
            log.warning("ignored unreadable message on %r: %s", topic[:200], exc)
            return
        if not isinstance(data, dict) or parsed.tournament != self.tournament:
            return
        if parsed.kind == "state":
            self._announce(parsed.table, data)
        elif parsed.kind in ("events", "private", "reply") and "event_id" in data:
            problem = event_problem(data, parsed.table)
            if problem is not None:
                self.rejected += 1
                log.warning("refused event on %r: %s", topic[:200], problem)
                return
            self._ingest(data)

    def _announce(self, table: str, state: dict[str, Any]) -> None:
        position = announced_position(state)
        if position is not None:
            epoch, seq = position
            with self._lock:
                stream = self._streams.setdefault((table, epoch), StreamProgress())
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
            self._streams.setdefault(key, StreamProgress()).add(seq)
        if fresh and event.get("type") == "hand_ended" and self.on_hand is not None:
            self.on_hand(event)

    # gaps ---------------------------------------------------------------------------------------
    def _watch_gaps(self) -> None:
        while not self._stop.wait(0.1):
            try:
                self._check_gaps()
            except Exception:  # gap repair must outlive any one failure
                log.exception("gap check failed")

    def _check_gaps(self) -> None:
        now = time.monotonic()
        with self._lock:
            items = list(self._streams.items())
        for (table, epoch), stream in items:
            if stream.contiguous >= stream.end:
                stream.gap_since = None
                continue
            if stream.gap_since is None:
                stream.gap_since = now
            if now - stream.gap_since < self.gap_grace_s or now - stream.asked_at < self.retry_s:
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
                first = stream.contiguous + 1
                self._ask_resync(table, epoch, first, min(stream.end, first + RESYNC_SPAN))

    def _refresh(self, table: str, epoch: int, stream: StreamProgress) -> None:
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
