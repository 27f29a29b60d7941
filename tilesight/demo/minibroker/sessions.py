"""Sessions and routing: subscriptions, ``$share`` round robin, retained store, QoS 1 queues.

Everything here runs on the broker's event-loop thread, so there are no locks. A session
outlives its connection (MQTT 5 session expiry): QoS 1 messages not yet acknowledged are sent
again, with DUP set, when the client comes back with ``clean_start=False``.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from tilesight.demo.minibroker.codec import (
    FORWARDED,
    MESSAGE_EXPIRY,
    SUBSCRIPTION_ID,
    Properties,
    get_property,
)
from tilesight.demo.minibroker.packets import Publish, encode_packet
from tilesight.demo.minibroker.topics import matches, split_shared

log = logging.getLogger("tilesight.minibroker")

MAX_QUEUED = 100_000  # per session; beyond it the oldest queued message is dropped (logged)


@dataclass(frozen=True)
class Message:
    """An application message as published, with its arrival time (for message expiry)."""

    topic: str
    payload: bytes
    qos: int
    retain: bool
    properties: Properties = ()
    arrived: float = field(default_factory=time.monotonic)

    def remaining_expiry(self, now: float) -> int | None:
        """Seconds left of the message expiry interval (None: never expires; <= 0: expired)."""
        interval = get_property(self.properties, MESSAGE_EXPIRY)
        if interval is None:
            return None
        return int(interval) - int(now - self.arrived)  # type: ignore[call-overload, no-any-return]

    def expired(self, now: float) -> bool:
        left = self.remaining_expiry(now)
        return left is not None and left <= 0


@dataclass(frozen=True)
class SubOptions:
    qos: int
    no_local: bool = False
    retain_as_published: bool = False
    retain_handling: int = 0
    subscription_id: int | None = None

    @classmethod
    def from_byte(cls, options: int, subscription_id: int | None) -> SubOptions:
        return cls(
            qos=min(options & 0x03, 1),
            no_local=bool(options & 0x04),
            retain_as_published=bool(options & 0x08),
            retain_handling=(options >> 4) & 0x03,
            subscription_id=subscription_id,
        )


@dataclass
class Delivery:
    message: Message
    qos: int
    retain: bool
    subscription_ids: tuple[int, ...] = ()


def outgoing_packet(delivery: Delivery, packet_id: int | None, dup: bool, now: float) -> bytes:
    """The PUBLISH a subscriber gets: forwarded properties, expiry reduced by time spent."""
    msg = delivery.message
    props: list[tuple[int, object]] = []
    for ident, value in msg.properties:
        if ident == MESSAGE_EXPIRY:
            props.append((ident, max(1, msg.remaining_expiry(now) or 1)))
        elif ident in FORWARDED:
            props.append((ident, value))
    props += [(SUBSCRIPTION_ID, sid) for sid in delivery.subscription_ids]
    publish = Publish(msg.topic, msg.payload, delivery.qos, delivery.retain, dup, packet_id)
    return encode_packet(Publish(**{**publish.__dict__, "properties": tuple(props)}))


class Session:
    """One client id's state; ``send`` is set while a connection is attached."""

    def __init__(self, client_id: str) -> None:
        self.client_id = client_id
        self.subscriptions: dict[str, SubOptions] = {}
        self.shared: set[tuple[str, str]] = set()  # (group, filter)
        self.expiry_s = 0
        self.receive_maximum = 65535
        self.send: Callable[[bytes], None] | None = None
        self.inflight: dict[int, Delivery] = {}
        self.queue: deque[Delivery] = deque()
        self._next_id = 0

    @property
    def connected(self) -> bool:
        return self.send is not None

    def deliver(self, delivery: Delivery) -> None:
        if delivery.qos == 0:
            if self.send is not None:
                self.send(outgoing_packet(delivery, None, False, time.monotonic()))
            return
        if len(self.queue) >= MAX_QUEUED:
            self.queue.popleft()
            log.warning("session %r: queue full, dropped its oldest message", self.client_id)
        self.queue.append(delivery)
        self.pump()

    def pump(self) -> None:
        """Send queued QoS 1 messages while the client's receive maximum allows."""
        now = time.monotonic()
        while self.send is not None and self.queue and len(self.inflight) < self.receive_maximum:
            delivery = self.queue.popleft()
            if delivery.message.expired(now):
                continue
            packet_id = self._packet_id()
            self.inflight[packet_id] = delivery
            self.send(outgoing_packet(delivery, packet_id, False, now))

    def acknowledged(self, packet_id: int) -> None:
        self.inflight.pop(packet_id, None)
        self.pump()

    def resume(self) -> None:
        """After reconnecting to a kept session: unacknowledged messages again, DUP set."""
        now = time.monotonic()
        assert self.send is not None
        for packet_id, delivery in sorted(self.inflight.items()):
            self.send(outgoing_packet(delivery, packet_id, True, now))
        self.pump()

    def _packet_id(self) -> int:
        for _ in range(65535):
            self._next_id = self._next_id % 65535 + 1
            if self._next_id not in self.inflight:
                return self._next_id
        raise RuntimeError("no free packet identifier")  # receive maximum caps inflight first


class Router:
    """Sessions, subscriptions and the retained store of one broker."""

    def __init__(self) -> None:
        self.sessions: dict[str, Session] = {}
        self.retained: dict[str, Message] = {}
        self.shared: dict[tuple[str, str], list[str]] = {}  # (group, filter) -> client ids
        self._turn: dict[tuple[str, str], int] = {}

    def publish(self, message: Message, sender: str | None) -> None:
        if message.retain:
            if message.payload:
                self.retained[message.topic] = message
            else:
                self.retained.pop(message.topic, None)
        for session in self.sessions.values():
            matched = [
                opts
                for filt, opts in session.subscriptions.items()
                if not filt.startswith("$share/")  # shared ones are routed below
                and matches(filt, message.topic)
                and not (opts.no_local and sender == session.client_id)
            ]
            if matched:
                qos = min(message.qos, max(o.qos for o in matched))
                retain = message.retain and any(o.retain_as_published for o in matched)
                ids = tuple(o.subscription_id for o in matched if o.subscription_id)
                session.deliver(Delivery(message, qos, retain, ids))
        for (group, filt), members in self.shared.items():
            if members and matches(filt, message.topic):
                target = self._next_member((group, filt), members)
                opts = target.subscriptions.get(f"$share/{group}/{filt}", SubOptions(1))
                ids = (opts.subscription_id,) if opts.subscription_id else ()
                target.deliver(Delivery(message, min(message.qos, opts.qos), False, ids))

    def _next_member(self, key: tuple[str, str], members: list[str]) -> Session:
        """Round robin over connected members; a group with none online queues for one."""
        start = self._turn.get(key, 0)
        order = [members[(start + i) % len(members)] for i in range(len(members))]
        chosen = next((c for c in order if self.sessions[c].connected), order[0])
        self._turn[key] = (members.index(chosen) + 1) % len(members)
        return self.sessions[chosen]

    def subscribe(self, session: Session, topic_filter: str, opts: SubOptions) -> list[Message]:
        """Add the subscription; returns the retained messages to send for it."""
        group, filt = split_shared(topic_filter)
        existed = topic_filter in session.subscriptions
        session.subscriptions[topic_filter] = opts
        if group is not None:
            members = self.shared.setdefault((group, filt), [])
            if session.client_id not in members:
                members.append(session.client_id)
            session.shared.add((group, filt))
            return []  # shared subscriptions never get retained messages (MQTT 5 §4.8.2)
        if opts.retain_handling == 2 or (opts.retain_handling == 1 and existed):
            return []
        now = time.monotonic()
        return [m for t, m in self.retained.items() if matches(filt, t) and not m.expired(now)]

    def unsubscribe(self, session: Session, topic_filter: str) -> bool:
        if session.subscriptions.pop(topic_filter, None) is None:
            return False
        group, filt = split_shared(topic_filter)
        if group is not None:
            self._leave(session.client_id, (group, filt))
            session.shared.discard((group, filt))
        return True

    def drop_session(self, client_id: str) -> None:
        session = self.sessions.pop(client_id, None)
        if session is None:
            return
        for key in session.shared:
            self._leave(client_id, key)
        if session.queue or session.inflight:
            log.info("session %r ended with %d undelivered messages", client_id,
                     len(session.queue) + len(session.inflight))  # fmt: skip

    def _leave(self, client_id: str, key: tuple[str, str]) -> None:
        members = self.shared.get(key, [])
        if client_id in members:
            members.remove(client_id)
        if not members:
            self.shared.pop(key, None)
            self._turn.pop(key, None)
