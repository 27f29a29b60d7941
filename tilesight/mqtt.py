"""The table's MQTT link: outbox rows out with QoS 1, commands in, status and state retained.

paho-mqtt 2.x with ``CallbackAPIVersion.VERSION2``, MQTT 5, ``connect_async`` + ``loop_start``
(paho reconnects on its own). A row is marked sent only when its PUBACK arrives (``on_publish``);
rows published while the broker is away stay in paho's queue and are sent again on reconnect, and
rows left unsent by an earlier process are published at connect. ``status`` is retained ``online``
with a retained ``offline`` last will (delayed, so a quick reconnect does not flap overlays).

The network thread only moves bytes: a command is checked against the tree (this table's
``cmd/<verb>``, a reply topic inside this table's ``reply/``), handed to ``on_command`` (which
journals it) and only then acknowledged; it is parsed on the service's worker. Every callback
is guarded, so no message and no storage error can end the network thread. Credentials the
broker refuses are reported once, as such, and not retried.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from tilesight.command_inbox import MAX_PACKET_BYTES, command_from_message, refusal
from tilesight.command_journal import CommandMessage
from tilesight.config import MqttEndpoint, TlsConfig
from tilesight.delayed_copies import DelayedCopies
from tilesight.mqtt_client import make_client, new_properties, session_properties
from tilesight.outbox import Outbox, OutboxRow
from tilesight.topics import TableTopics

__all__ = ["CommandMessage", "MqttLink", "make_client", "new_properties", "session_properties"]

log = logging.getLogger("tilesight.mqtt")


class MqttLink:
    """One table's connection; thread-safe ``publish_row``/``publish_state``/``reply``.

    ``on_command`` returns True once the command is stored (then it is acknowledged);
    ``on_fault(code, detail)`` hears what went wrong on the network thread; ``refused`` holds
    the broker's refusal of the credentials, after which the link stops trying."""

    def __init__(
        self,
        endpoint: MqttEndpoint,
        topics: TableTopics,
        outbox: Outbox,
        *,
        client_id: str | None = None,
        tls: TlsConfig | None = None,
        keepalive_s: int = 15,
        will_delay_s: int = 5,
        session_expiry_s: int = 3600,
        on_command: Callable[[CommandMessage], bool] | None = None,
        on_fault: Callable[[str, str], None] | None = None,
        broadcast_delay_s: float = 0.0,
    ) -> None:
        self.endpoint = endpoint
        self.topics = topics
        self.outbox = outbox
        self.on_command = on_command
        self.on_fault = on_fault
        self.connected = threading.Event()
        self.refused: str | None = None
        self._keepalive = keepalive_s
        self._session_expiry = session_expiry_s
        self._lock = threading.Lock()
        self._inflight: dict[int, int] = {}  # paho mid -> outbox rowid
        # PUBACKs whose mid is not (yet) in _inflight: a row's ack that beat publish() returning,
        # or the ack of a status/state/reply message. Pruned by age; mids wrap only at 65535.
        self._early_acks: dict[int, float] = {}
        self._retained: dict[str, str] = {}  # latest retained payload per topic
        self._retain_lock = threading.Lock()
        # orders a row's first publication against the replay of unsent rows at connect: a row
        # stored while the link came up was published by both (the same event twice on MQTT)
        self._publish_lock = threading.RLock()
        self._handed: set[int] = set()  # rowids given to the client by this process
        self.acked = 0
        self.connects = 0
        self._stopping = False
        # unique per tournament and table: two T01s of different tournaments must not share one
        default_id = f"tilesight-{topics.tournament}-{topics.table}"
        self._client = make_client(endpoint, client_id or default_id, tls=tls)
        self._client.manual_ack_set(True)  # a command is acknowledged once it is journaled
        will = new_properties(PacketTypes.WILLMESSAGE)
        will.WillDelayInterval = will_delay_s
        self._client.will_set(topics.status, "offline", qos=1, retain=True, properties=will)
        self._client.on_connect = self._guarded(self._on_connect)
        self._client.on_disconnect = self._guarded(self._on_disconnect)
        self._client.on_publish = self._guarded(self._on_publish)
        self._client.on_message = self._guarded(self._on_message)
        self._delayed = (
            DelayedCopies(self._client, broadcast_delay_s) if broadcast_delay_s else None
        )

    # lifecycle -----------------------------------------------------------------------------
    def start(self) -> None:
        self._client.connect_async(
            self.endpoint.host,
            self.endpoint.port,
            keepalive=self._keepalive,
            clean_start=False,
            properties=session_properties(self._session_expiry, MAX_PACKET_BYTES),
        )
        self._client.loop_start()

    def stop(self, drain_timeout: float = 5.0) -> None:
        """Wait for outstanding PUBACKs, publish ``offline``, disconnect cleanly (no will)."""
        if self.refused is None:
            self.wait_drained(drain_timeout)
        self._stopping = True
        if self.connected.is_set():
            info = self._client.publish(self.topics.status, "offline", qos=1, retain=True)
            info.wait_for_publish(timeout=2.0)
        if self._delayed is not None:
            self._delayed.stop()
        self._client.disconnect()
        self._client.loop_stop()

    def wait_drained(self, timeout: float) -> bool:
        """True once every stored row has been acknowledged by the broker."""
        deadline = time.monotonic() + timeout
        while self.outbox.counts()[1]:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    # outgoing ------------------------------------------------------------------------------
    def publish_row(self, row: OutboxRow, *, replay: bool = False) -> None:
        """Publish a stored event; ``replay``: again (at connect, an unsent row), else its
        first publication, skipped when the connect's replay already published it."""
        with self._publish_lock:
            if row.rowid in self._handed and not replay:
                return
            if len(self._handed) > 4096:  # only the latest rows can race a connect
                self._handed = {r for r in self._handed if r > row.rowid - 1024}
            self._handed.add(row.rowid)
            public = not self.topics.is_private(row.topic)
            if self._delayed is not None and not replay and public:  # delayed/ is for viewers
                self._delayed.add(self.topics.delayed(row.topic), row.payload, retain=False)
            info = self._client.publish(row.topic, row.payload, qos=1, retain=False)
            with self._lock:
                if self._early_acks.pop(info.mid, None) is not None:
                    self._acked(row.rowid)
                else:
                    self._inflight[info.mid] = row.rowid

    def publish_state(self, state: dict[str, Any]) -> None:
        """The retained public snapshot. Only the latest matters, so while the broker is away
        it is just remembered (not queued by the thousand) and published on reconnect."""
        self._retain(
            self.topics.state, json.dumps(state, ensure_ascii=False, separators=(",", ":"))
        )

    def publish_private(self, name: str, payload: dict[str, Any]) -> None:
        """A retained referee-only snapshot (``private/<name>``), same rules as the state."""
        self._retain(self.topics.private(name), json.dumps(payload, ensure_ascii=False))

    def _retain(self, topic: str, payload: str) -> None:
        # Snapshots go out with QoS 0: paho re-sends unacknowledged QoS 1 messages *after*
        # on_connect, which would let a snapshot from before a broker crash overwrite the newest
        # one republished here. Nothing is lost: the latest is republished on every connect.
        # _retain_lock orders this against _on_connect; on_publish never takes it.
        with self._retain_lock:
            self._retained[topic] = payload
            if self.connected.is_set():
                self._client.publish(topic, payload, qos=0, retain=True)
        if self._delayed is not None and topic == self.topics.state:
            self._delayed.add(self.topics.delayed(topic), payload, retain=True)

    def reply(self, command: CommandMessage, payload: dict[str, Any] | str) -> None:
        """Send to the command's response topic (with its correlation data), if it gave one;
        only ever inside this table's ``reply/`` (checked when the command arrived)."""
        if not command.response_topic:
            return
        if not command.response_topic.startswith(self.topics.reply("")):
            log.warning("not answering on %r: outside this table's reply/", command.response_topic)
            return
        props = new_properties(PacketTypes.PUBLISH)
        if command.correlation_data is not None:
            props.CorrelationData = command.correlation_data
        body = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
        self._client.publish(command.response_topic, body, qos=1, properties=props)

    # paho callbacks (network thread) --------------------------------------------------------
    def _guarded(self, callback: Callable[..., None]) -> Callable[..., None]:
        """A callback that cannot end the network thread: an error is logged and reported."""

        def run(*args: Any) -> None:
            try:
                callback(*args)
            except Exception as exc:
                name = callback.__name__.strip("_")
                log.error("MQTT %s failed: %s: %s", name, type(exc).__name__, exc, exc_info=exc)
                self._fault("mqtt_callback", f"{name}: {type(exc).__name__}: {exc}")

        return run

    def _fault(self, code: str, detail: str) -> None:
        if self.on_fault is not None:
            try:
                self.on_fault(code, detail)
            except Exception:
                log.exception("reporting fault %s failed", code)

    def _on_connect(
        self, client: mqtt.Client, _u: Any, flags: Any, rc: ReasonCode, _p: Any
    ) -> None:
        where = f"{self.endpoint.host}:{self.endpoint.port}"
        if rc.is_failure:
            why = refusal(rc)
            if why is not None:  # retrying cannot help: say so once and stop
                self.refused = f"broker {where} refused the table: {why}"
                log.error("%s; not retrying", self.refused)
                client.disconnect()
                self._fault("broker_refused", self.refused)
            else:
                log.warning("broker %s refused the connection: %s", where, rc)
            return
        self.connects += 1
        log.info("connected to %s (session present: %s)", where, flags.session_present)
        client.subscribe(self.topics.commands, qos=1)
        client.publish(self.topics.status, "online", qos=1, retain=True)
        with self._retain_lock:
            for topic, payload in self._retained.items():
                client.publish(topic, payload, qos=0, retain=True)
            self.connected.set()
        with self._publish_lock:
            with self._lock:
                pending = set(self._inflight.values())
            for row in self.outbox.unsent():
                if row.rowid not in pending:
                    self.publish_row(row, replay=True)

    def _on_disconnect(self, _c: Any, _u: Any, _f: Any, rc: ReasonCode, _p: Any) -> None:
        if self.connected.is_set() and not self._stopping:
            log.warning("lost the broker (%s); events are kept in the outbox", rc)
        self.connected.clear()

    def _on_publish(self, _c: Any, _u: Any, mid: int, rc: ReasonCode, _p: Any) -> None:
        if rc.is_failure:  # e.g. not authorised: the row stays unsent and is retried on connect
            log.error("broker refused message %s: %s", mid, rc)
            with self._lock:
                self._inflight.pop(mid, None)
            return
        with self._lock:
            rowid = self._inflight.pop(mid, None)
            if rowid is None:
                now = time.monotonic()
                self._early_acks[mid] = now
                if len(self._early_acks) > 256:
                    self._early_acks = {m: t for m, t in self._early_acks.items() if now - t < 5}
                return
        self._acked(rowid)  # a storage error here is reported by the guard; the row stays
        # unsent and is published again later (a duplicate, which consumers drop by event_id)

    def _acked(self, rowid: int) -> None:
        self.outbox.mark_sent(rowid)
        self.acked += 1

    def _on_message(self, client: mqtt.Client, _u: Any, msg: mqtt.MQTTMessage) -> None:
        stored = True
        try:
            command = command_from_message(msg, self.topics)
            if isinstance(command, str):
                log.warning("ignored message on %r: %s", msg.topic, command)
            elif self.on_command is not None:
                stored = False  # until on_command says it is journaled
                stored = self.on_command(command)
        finally:
            if stored:  # else no PUBACK: the broker keeps it and delivers it again
                client.ack(msg.mid, msg.qos)
