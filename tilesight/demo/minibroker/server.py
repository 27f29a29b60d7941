"""The asyncio side: one task per connection, keepalive, will messages and session expiry.

A malformed packet closes only its own connection (DISCONNECT with the reason code when the
client got as far as CONNECT) and logs one warning naming the peer and the fault.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid

from tilesight.demo.minibroker.codec import (
    ASSIGNED_CLIENT_ID,
    MAXIMUM_QOS,
    RECEIVE_MAXIMUM,
    SESSION_EXPIRY,
    SUBSCRIPTION_ID,
    TOPIC_ALIAS,
    TOPIC_ALIAS_MAXIMUM,
    WILL_DELAY,
    ProtocolError,
    get_property,
)
from tilesight.demo.minibroker.packets import (
    DISCONNECT,
    PINGREQ,
    PINGRESP,
    PUBACK,
    SUBACK,
    UNSUBACK,
    Ack,
    Connect,
    Packet,
    Publish,
    Simple,
    Subscribe,
    Unsubscribe,
    decode_packet,
    encode_connack,
    encode_packet,
)
from tilesight.demo.minibroker.sessions import Delivery, Message, Router, Session, SubOptions
from tilesight.demo.minibroker.topics import check_filter

log = logging.getLogger("tilesight.minibroker")

MAX_PACKET = 16 * 1024 * 1024
TOPIC_ALIASES = 64
NEVER_EXPIRES = 0xFFFFFFFF


class Connection:
    """One client connection: reads packets, applies them to the router, writes replies."""

    def __init__(
        self, server: BrokerServer, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        self.server = server
        self.reader = reader
        self.writer = writer
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if peer else "?"
        self.session: Session | None = None
        self.connect: Connect | None = None
        self.aliases: dict[int, str] = {}
        self.keepalive = 0
        self.clean_exit = False  # DISCONNECT 0x00 seen: no will

    def send(self, data: bytes) -> None:
        if not self.writer.is_closing():
            self.writer.write(data)

    async def run(self) -> None:
        try:
            while True:
                first, body = await self._read_packet()
                packet = decode_packet(first, body)
                if self.connect is None and not isinstance(packet, Connect):
                    raise ProtocolError(
                        f"first packet must be CONNECT, got {type(packet).__name__}"
                    )
                if not self._handle(packet):
                    break
        except ProtocolError as exc:
            who = self.connect.client_id if self.connect else "before CONNECT"
            log.warning("closing connection %s (%s): %s", self.peer, who, exc)
            if self.connect is not None:
                self.send(encode_packet(Simple(DISCONNECT, exc.reason)))
            elif exc.reason == 0x84:
                self.send(encode_connack(False, 0x84))
        except (asyncio.IncompleteReadError, ConnectionError, TimeoutError):
            pass  # the peer went away (or stayed silent past its keepalive): the will applies
        except Exception:  # a broker bug must cost one connection, never the broker
            log.exception("internal error on connection %s; closing it", self.peer)
        finally:
            self.server.detach(self)
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()

    async def _read_packet(self) -> tuple[int, bytes]:
        timeout = self.keepalive * 1.5 if self.keepalive else None
        async with asyncio.timeout(timeout):
            first = (await self.reader.readexactly(1))[0]
            length, shift = 0, 0
            for _ in range(4):
                digit = (await self.reader.readexactly(1))[0]
                length |= (digit & 0x7F) << shift
                if not digit & 0x80:
                    break
                shift += 7
            else:
                raise ProtocolError("remaining length longer than 4 bytes")
            if length > MAX_PACKET:
                raise ProtocolError(f"packet of {length} bytes exceeds {MAX_PACKET}", 0x95)
            return first, await self.reader.readexactly(length)

    def _handle(self, packet: Packet) -> bool:
        """Apply one packet; False ends the connection."""
        if isinstance(packet, Connect):
            if self.connect is not None:
                raise ProtocolError("second CONNECT on one connection")
            self._on_connect(packet)
            return True
        session = self.session
        if session is None:  # taken over by a newer connection with the same client id
            return False
        if isinstance(packet, Publish):
            self._on_publish(packet)
        elif isinstance(packet, Ack):
            session.acknowledged(packet.packet_id)
        elif isinstance(packet, Subscribe):
            self._on_subscribe(session, packet)
        elif isinstance(packet, Unsubscribe):
            codes = tuple(
                0 if self.server.router.unsubscribe(session, f) else 0x11 for f in packet.filters
            )
            self.send(encode_packet(Ack(UNSUBACK, packet.packet_id, codes)))
        elif packet.kind == PINGREQ:
            self.send(encode_packet(Simple(PINGRESP)))
        elif packet.kind == DISCONNECT:
            expiry = get_property(packet.properties, SESSION_EXPIRY)
            if expiry is not None:
                session.expiry_s = int(expiry)  # type: ignore[call-overload]
            self.clean_exit = packet.reason != 0x04  # 0x04: disconnect with will message
            return False
        else:
            raise ProtocolError(f"unexpected packet from a client: {packet}")
        return True

    def _on_connect(self, packet: Connect) -> None:
        self.connect = packet
        self.keepalive = packet.keepalive
        if packet.will is not None:
            check_publish_topic(packet.will.topic)
        assigned = not packet.client_id
        client_id = packet.client_id or f"auto-{uuid.uuid4().hex[:16]}"
        session, present = self.server.attach(self, client_id, packet.clean_start)
        session.expiry_s = int(get_property(packet.properties, SESSION_EXPIRY, 0))  # type: ignore[call-overload]
        session.receive_maximum = int(get_property(packet.properties, RECEIVE_MAXIMUM, 65535))  # type: ignore[call-overload]
        props: list[tuple[int, object]] = [(MAXIMUM_QOS, 1), (TOPIC_ALIAS_MAXIMUM, TOPIC_ALIASES)]
        if assigned:
            props.append((ASSIGNED_CLIENT_ID, client_id))
        self.send(encode_connack(present, 0, tuple(props)))
        session.send = self.send
        if present:
            session.resume()

    def _on_publish(self, packet: Publish) -> None:
        topic = packet.topic
        alias = get_property(packet.properties, TOPIC_ALIAS)
        if alias is not None:
            if not 0 < int(alias) <= TOPIC_ALIASES:  # type: ignore[call-overload]
                raise ProtocolError(f"PUBLISH: topic alias {alias} out of range", 0x94)
            if topic:
                self.aliases[int(alias)] = topic  # type: ignore[call-overload]
            elif (topic := self.aliases.get(int(alias), "")) == "":  # type: ignore[call-overload]
                raise ProtocolError(f"PUBLISH: unknown topic alias {alias}", 0x82)
        check_publish_topic(topic)
        message = Message(topic, packet.payload, packet.qos, packet.retain, packet.properties)
        assert self.session is not None
        self.server.router.publish(message, self.session.client_id)
        if packet.qos == 1 and packet.packet_id is not None:
            self.send(encode_packet(Ack(PUBACK, packet.packet_id)))

    def _on_subscribe(self, session: Session, packet: Subscribe) -> None:
        sub_id = get_property(packet.properties, SUBSCRIPTION_ID)
        codes: list[int] = []
        retained: list[tuple[Message, SubOptions]] = []
        for topic_filter, options in packet.entries:
            try:
                check_filter(topic_filter)
                opts = SubOptions.from_byte(options, sub_id)  # type: ignore[arg-type]
                found = self.server.router.subscribe(session, topic_filter, opts)
            except ProtocolError as exc:
                log.warning("client %r: refused subscription: %s", session.client_id, exc)
                codes.append(exc.reason)
                continue
            codes.append(opts.qos)
            retained += [(m, opts) for m in found]
        self.send(encode_packet(Ack(SUBACK, packet.packet_id, tuple(codes))))

        for message, opts in retained:
            ids = (opts.subscription_id,) if opts.subscription_id else ()
            session.deliver(Delivery(message, min(message.qos, opts.qos), True, ids))


def check_publish_topic(topic: str) -> None:
    if not topic or "+" in topic or "#" in topic:
        raise ProtocolError(f"invalid topic name {topic!r}", 0x90)


class BrokerServer:
    """Owns the router and the timers for wills and session expiry (loop thread only)."""

    def __init__(self) -> None:
        self.router = Router()
        self.connections: dict[str, Connection] = {}
        self._wills: dict[str, tuple[asyncio.TimerHandle, Message]] = {}
        self._expiries: dict[str, asyncio.TimerHandle] = {}

    def attach(self, conn: Connection, client_id: str, clean: bool) -> tuple[Session, bool]:
        old = self.connections.pop(client_id, None)
        if old is not None:  # session takeover: the old connection goes, without its will
            log.info("client %r connected again; closing its previous connection", client_id)
            old.clean_exit = True
            old.session = None
            old.send(encode_packet(Simple(DISCONNECT, 0x8E)))
            old.writer.close()
        self._cancel_timers(client_id)  # back in time: no will, the session is kept
        if clean:
            self.router.drop_session(client_id)
        present = client_id in self.router.sessions
        session = self.router.sessions.setdefault(client_id, Session(client_id))
        self.connections[client_id] = conn
        conn.session = session
        return session, present

    def detach(self, conn: Connection) -> None:
        """The connection ended: schedule its will (after its delay) and the session's end."""
        session = conn.session
        if session is None or self.connections.get(session.client_id) is not conn:
            return
        client_id = session.client_id
        del self.connections[client_id]
        session.send = None
        loop = asyncio.get_running_loop()
        will = conn.connect.will if conn.connect and not conn.clean_exit else None
        expiry = session.expiry_s
        if will is not None:
            delay = int(get_property(will.properties, WILL_DELAY, 0))  # type: ignore[call-overload]
            props = tuple(p for p in will.properties if p[0] != WILL_DELAY)
            message = Message(will.topic, will.payload, will.qos, will.retain, props)
            delay = min(delay, expiry)  # the will goes out at the latest when the session ends
            if delay == 0:
                self._publish_will(client_id, message)
            else:
                handle = loop.call_later(delay, self._will_due, client_id)
                self._wills[client_id] = (handle, message)
        if expiry == 0:
            self.router.drop_session(client_id)
        elif expiry != NEVER_EXPIRES:
            self._expiries[client_id] = loop.call_later(expiry, self._session_ends, client_id)

    def _publish_will(self, client_id: str, message: Message) -> None:
        log.info("client %r went away: publishing its will on %r", client_id, message.topic)
        self.router.publish(Message(**{**message.__dict__, "arrived": time.monotonic()}), None)

    def _will_due(self, client_id: str) -> None:
        _, message = self._wills.pop(client_id)
        self._publish_will(client_id, message)

    def _session_ends(self, client_id: str) -> None:
        self._expiries.pop(client_id, None)
        if client_id in self._wills:
            self._wills[client_id][0].cancel()
            self._will_due(client_id)
        self.router.drop_session(client_id)

    def _cancel_timers(self, client_id: str) -> None:
        will = self._wills.pop(client_id, None)
        if will is not None:
            will[0].cancel()
        expiry = self._expiries.pop(client_id, None)
        if expiry is not None:
            expiry.cancel()

    def close(self) -> None:
        for client_id in list(self._wills) + list(self._expiries):
            self._cancel_timers(client_id)
        for conn in list(self.connections.values()):
            conn.writer.close()
