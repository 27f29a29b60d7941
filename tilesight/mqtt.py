"""The table's MQTT link: outbox rows out with QoS 1, commands in, status and state retained.

paho-mqtt 2.x with ``CallbackAPIVersion.VERSION2``, MQTT 5, ``connect_async`` + ``loop_start``
(paho reconnects on its own). A row is marked sent only when its PUBACK arrives (``on_publish``);
rows published while the broker is away stay in paho's queue and are sent again on reconnect, and
rows left unsent by an earlier process are published at connect. ``status`` is retained ``online``
with a retained ``offline`` last will (delayed, so a quick reconnect does not flap overlays).
"""

from __future__ import annotations

import contextlib
import heapq
import json
import logging
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from tilesight.config import MqttEndpoint, TlsConfig
from tilesight.outbox import Outbox, OutboxRow
from tilesight.topics import TableTopics, TopicError, parse_topic

log = logging.getLogger("tilesight.mqtt")


def make_client(
    endpoint: MqttEndpoint,
    client_id: str,
    *,
    tls: TlsConfig | None = None,
    max_inflight: int = 100,
) -> mqtt.Client:
    """A configured (not yet connected) MQTT 5 client; shared by the table link and consumers."""
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        protocol=mqtt.MQTTv5,
        transport="websockets" if endpoint.websockets else "tcp",
    )
    if endpoint.websockets:
        client.ws_set_options(path=endpoint.path)
    if endpoint.username:
        client.username_pw_set(endpoint.username, endpoint.password)
    if endpoint.tls or tls is not None:
        tls = tls or TlsConfig()
        client.tls_set(
            ca_certs=str(tls.ca_file) if tls.ca_file else None,
            certfile=str(tls.cert_file) if tls.cert_file else None,
            keyfile=str(tls.key_file) if tls.key_file else None,
        )
        client.tls_insecure_set(tls.insecure)
    client.on_socket_open = _no_delay
    client.reconnect_delay_set(min_delay=1, max_delay=5)
    client.max_inflight_messages_set(max_inflight)
    client.max_queued_messages_set(0)  # unlimited: the outbox bounds nothing, it loses nothing
    return client


def _no_delay(_client: mqtt.Client, _userdata: Any, sock: Any) -> None:
    """Switch Nagle off: small QoS 0 snapshots behind an event would otherwise wait for the
    broker's delayed TCP ACK (tens of ms) before the next event could leave."""
    with contextlib.suppress(OSError, AttributeError, TypeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def new_properties(packet_type: int) -> Properties:
    """paho's Properties constructor is untyped; this is the one typed door to it."""
    return Properties(packet_type)  # type: ignore[no-untyped-call]


def session_properties(expiry_s: int) -> Properties:
    props = new_properties(PacketTypes.CONNECT)
    props.SessionExpiryInterval = expiry_s
    return props


@dataclass(frozen=True)
class CommandMessage:
    """A command as it arrived: the verb from the topic, the raw payload, MQTT 5 reply data."""

    verb: str
    payload: bytes
    response_topic: str | None
    correlation_data: bytes | None
    expires_at: float | None  # monotonic deadline from the message expiry interval
    account: str | None = None  # the sender's ``account`` MQTT 5 user property, if it set one

    def expired(self) -> bool:
        return self.expires_at is not None and time.monotonic() > self.expires_at


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
                self._client.publish(topic, payload, qos=0 if retain else 1, retain=retain)


class TableLink:
    """One table's connection; thread-safe ``publish_row``/``publish_state``/``reply``."""

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
        on_command: Callable[[CommandMessage], None] | None = None,
        broadcast_delay_s: float = 0.0,
    ) -> None:
        self.endpoint = endpoint
        self.topics = topics
        self.outbox = outbox
        self.on_command = on_command
        self.connected = threading.Event()
        self._keepalive = keepalive_s
        self._session_expiry = session_expiry_s
        self._lock = threading.Lock()
        self._inflight: dict[int, int] = {}  # paho mid -> outbox rowid
        # PUBACKs whose mid is not (yet) in _inflight: a row's ack that beat publish() returning,
        # or the ack of a status/state/reply message. Pruned by age; mids wrap only at 65535.
        self._early_acks: dict[int, float] = {}
        self._retained: dict[str, str] = {}  # latest retained payload per topic
        self._retain_lock = threading.Lock()
        self.acked = 0
        self.connects = 0
        self._stopping = False
        self._client = make_client(endpoint, client_id or f"tilesight-{topics.table}", tls=tls)
        will = new_properties(PacketTypes.WILLMESSAGE)
        will.WillDelayInterval = will_delay_s
        self._client.will_set(topics.status, "offline", qos=1, retain=True, properties=will)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
        self._client.on_message = self._on_message
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
            properties=session_properties(self._session_expiry),
        )
        self._client.loop_start()

    def stop(self, drain_timeout: float = 5.0) -> None:
        """Wait for outstanding PUBACKs, publish ``offline``, disconnect cleanly (no will)."""
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
        """Send to the command's response topic (with its correlation data), if it gave one."""
        if not command.response_topic:
            return
        props = new_properties(PacketTypes.PUBLISH)
        if command.correlation_data is not None:
            props.CorrelationData = command.correlation_data
        body = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
        self._client.publish(command.response_topic, body, qos=1, properties=props)

    # paho callbacks (network thread) --------------------------------------------------------
    def _on_connect(
        self, client: mqtt.Client, _u: Any, flags: Any, rc: ReasonCode, _p: Any
    ) -> None:
        if rc.is_failure:
            log.warning(
                "broker %s:%s refused the connection: %s",
                self.endpoint.host,
                self.endpoint.port,
                rc,
            )
            return
        self.connects += 1
        log.info(
            "connected to %s:%s (session present: %s)",
            self.endpoint.host,
            self.endpoint.port,
            flags.session_present,
        )
        client.subscribe(self.topics.commands, qos=1)
        client.publish(self.topics.status, "online", qos=1, retain=True)
        with self._retain_lock:
            for topic, payload in self._retained.items():
                client.publish(topic, payload, qos=0, retain=True)
            self.connected.set()
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
            if rowid is not None:
                self._acked(rowid)
                return
            now = time.monotonic()
            self._early_acks[mid] = now
            if len(self._early_acks) > 256:
                self._early_acks = {m: t for m, t in self._early_acks.items() if now - t < 5}

    def _acked(self, rowid: int) -> None:
        self.outbox.mark_sent(rowid)
        self.acked += 1

    def _on_message(self, _c: Any, _u: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            parsed = parse_topic(msg.topic, self.topics.prefix)
        except TopicError:
            return
        if parsed.kind != "cmd" or self.on_command is None:
            return
        props = msg.properties
        expiry = getattr(props, "MessageExpiryInterval", None) if props else None
        command = CommandMessage(
            verb=parsed.leaf,
            payload=bytes(msg.payload),
            response_topic=getattr(props, "ResponseTopic", None) if props else None,
            correlation_data=getattr(props, "CorrelationData", None) if props else None,
            expires_at=time.monotonic() + expiry if expiry is not None else None,
            account=_user_property(props, "account"),
        )
        self.on_command(command)


def _user_property(props: Properties | None, name: str) -> str | None:
    """The first MQTT 5 user property called ``name`` (paho gives a list of pairs)."""
    for key, value in getattr(props, "UserProperty", None) or []:
        if key == name:
            return str(value)[:200]
    return None
