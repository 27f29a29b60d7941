"""MQTT 5 control packets: typed values, ``decode_packet`` and encoders for both directions.

Encoders exist for the client side too (CONNECT, SUBSCRIBE, ...) so the codec round-trips and
can be fuzzed without a network. QoS 2 is refused (the demo never uses it): the CONNACK says
``Maximum QoS 1`` and a QoS 2 PUBLISH closes the connection with reason 0x9B.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from tilesight.demo.minibroker.codec import (
    Properties,
    ProtocolError,
    Reader,
    encode_binary,
    encode_properties,
    encode_string,
    fixed_header,
)

CONNECT, CONNACK, PUBLISH, PUBACK = 1, 2, 3, 4
SUBSCRIBE, SUBACK, UNSUBSCRIBE, UNSUBACK = 8, 9, 10, 11
PINGREQ, PINGRESP, DISCONNECT = 12, 13, 14
NAMES = {
    1: "CONNECT", 2: "CONNACK", 3: "PUBLISH", 4: "PUBACK", 5: "PUBREC", 6: "PUBREL",
    7: "PUBCOMP", 8: "SUBSCRIBE", 9: "SUBACK", 10: "UNSUBSCRIBE", 11: "UNSUBACK",
    12: "PINGREQ", 13: "PINGRESP", 14: "DISCONNECT", 15: "AUTH",
}  # fmt: skip


@dataclass(frozen=True)
class Will:
    topic: str
    payload: bytes
    qos: int = 0
    retain: bool = False
    properties: Properties = ()


@dataclass(frozen=True)
class Connect:
    client_id: str
    clean_start: bool = True
    keepalive: int = 60
    properties: Properties = ()
    will: Will | None = None
    username: str | None = None
    password: bytes | None = None
    protocol_level: int = 5


@dataclass(frozen=True)
class Publish:
    topic: str
    payload: bytes
    qos: int = 0
    retain: bool = False
    dup: bool = False
    packet_id: int | None = None
    properties: Properties = ()


@dataclass(frozen=True)
class Ack:
    """PUBACK, SUBACK, UNSUBACK or CONNACK-like reply: ``codes`` holds the reason code(s)."""

    kind: int
    packet_id: int
    codes: tuple[int, ...] = (0,)
    properties: Properties = ()


@dataclass(frozen=True)
class Subscribe:
    packet_id: int
    entries: tuple[tuple[str, int], ...]  # (filter, options byte)
    properties: Properties = ()


@dataclass(frozen=True)
class Unsubscribe:
    packet_id: int
    filters: tuple[str, ...]
    properties: Properties = ()


@dataclass(frozen=True)
class Simple:
    """PINGREQ, PINGRESP or DISCONNECT (with its reason code)."""

    kind: int
    reason: int = 0
    properties: Properties = field(default=())


Packet = Connect | Publish | Ack | Subscribe | Unsubscribe | Simple


def decode_packet(first_byte: int, body: bytes) -> Packet:
    """One packet from its first byte and body (the remaining-length bytes already removed)."""
    kind, flags = first_byte >> 4, first_byte & 0x0F
    name = NAMES.get(kind, f"packet type {kind}")
    reader = Reader(body, name)
    if kind == PUBLISH:
        packet: Packet = _publish(reader, flags)
    elif kind in (SUBSCRIBE, UNSUBSCRIBE) and flags != 0x02:
        raise ProtocolError(f"{name}: fixed header flags must be 0x2, got 0x{flags:x}")
    elif kind not in (PUBLISH, SUBSCRIBE, UNSUBSCRIBE) and flags:
        raise ProtocolError(f"{name}: fixed header flags must be 0, got 0x{flags:x}")
    if kind == CONNECT:
        packet = _connect(reader)
    elif kind == PUBACK:
        pid = reader.u16()
        code = reader.byte() if reader.remaining() else 0
        packet = Ack(PUBACK, pid, (code,), reader.properties() if reader.remaining() else ())
    elif kind == SUBSCRIBE:
        pid, props = reader.u16(), reader.properties()
        entries = []
        while reader.remaining():
            entries.append((reader.string(), reader.byte()))
        if not entries:
            raise ProtocolError("SUBSCRIBE: no topic filters")
        packet = Subscribe(pid, tuple(entries), props)
    elif kind == UNSUBSCRIBE:
        pid, props = reader.u16(), reader.properties()
        filters = []
        while reader.remaining():
            filters.append(reader.string())
        if not filters:
            raise ProtocolError("UNSUBSCRIBE: no topic filters")
        packet = Unsubscribe(pid, tuple(filters), props)
    elif kind in (SUBACK, UNSUBACK):
        pid, props = reader.u16(), reader.properties()
        packet = Ack(kind, pid, tuple(reader.rest()), props)
    elif kind in (PINGREQ, PINGRESP):
        packet = Simple(kind)
    elif kind == DISCONNECT:
        code = reader.byte() if reader.remaining() else 0
        packet = Simple(DISCONNECT, code, reader.properties() if reader.remaining() else ())
    elif kind != PUBLISH:
        raise ProtocolError(f"{name} is not supported by the embedded broker", 0x82)
    if reader.remaining():
        raise ProtocolError(f"{name}: {reader.remaining()} unexpected trailing bytes")
    return packet


def _publish(reader: Reader, flags: int) -> Publish:
    qos = (flags >> 1) & 0x03
    if qos == 3:
        raise ProtocolError("PUBLISH: QoS 3 is not a QoS")
    if qos == 2:
        raise ProtocolError("PUBLISH: QoS 2 is not supported (Maximum QoS is 1)", 0x9B)
    topic = reader.string()
    if "+" in topic or "#" in topic:
        raise ProtocolError(f"PUBLISH: topic name contains a wildcard: {topic!r}", 0x90)
    pid = reader.u16() if qos else None
    if pid == 0:
        raise ProtocolError("PUBLISH: packet identifier 0")
    props = reader.properties()
    return Publish(topic, reader.rest(), qos, bool(flags & 1), bool(flags & 8), pid, props)


def _connect(reader: Reader) -> Connect:
    name = reader.string()
    level = reader.byte()
    if name != "MQTT" or level != 5:
        raise ProtocolError(f"CONNECT: only MQTT 5 is supported, got {name!r} level {level}", 0x84)
    flags = reader.byte()
    if flags & 0x01:
        raise ProtocolError("CONNECT: reserved flag set")
    keepalive = reader.u16()
    props = reader.properties()
    client_id = reader.string()
    will = None
    if flags & 0x04:
        will_props = reader.properties()
        topic = reader.string()
        will_qos = (flags >> 3) & 0x03
        if will_qos > 1:
            raise ProtocolError(f"CONNECT: will QoS {will_qos} is not supported", 0x9B)
        will = Will(topic, reader.binary(), will_qos, bool(flags & 0x20), will_props)
    elif flags & 0x38:
        raise ProtocolError("CONNECT: will QoS/retain set without a will")
    username = reader.string() if flags & 0x80 else None
    password = reader.binary() if flags & 0x40 else None
    return Connect(client_id, bool(flags & 0x02), keepalive, props, will, username, password)


def encode_packet(packet: Packet) -> bytes:
    if isinstance(packet, Publish):
        flags = packet.qos << 1 | int(packet.retain) | (8 if packet.dup else 0)
        pid = struct.pack(">H", packet.packet_id) if packet.qos else b""
        head = encode_string(packet.topic) + pid + encode_properties(packet.properties)
        return fixed_header(PUBLISH << 4 | flags, head + packet.payload)
    if isinstance(packet, Ack):
        body = struct.pack(">H", packet.packet_id)
        if packet.kind == PUBACK:
            if packet.codes != (0,) or packet.properties:
                body += bytes(packet.codes[:1]) + encode_properties(packet.properties)
        else:
            body += encode_properties(packet.properties) + bytes(packet.codes)
        return fixed_header(packet.kind << 4, body)
    if isinstance(packet, Subscribe):
        body = struct.pack(">H", packet.packet_id) + encode_properties(packet.properties)
        body += b"".join(encode_string(f) + bytes([o]) for f, o in packet.entries)
        return fixed_header(SUBSCRIBE << 4 | 2, body)
    if isinstance(packet, Unsubscribe):
        body = struct.pack(">H", packet.packet_id) + encode_properties(packet.properties)
        return fixed_header(
            UNSUBSCRIBE << 4 | 2, body + b"".join(map(encode_string, packet.filters))
        )
    if isinstance(packet, Simple):
        if packet.kind != DISCONNECT or (not packet.reason and not packet.properties):
            return fixed_header(packet.kind << 4, b"")
        return fixed_header(
            DISCONNECT << 4, bytes([packet.reason]) + encode_properties(packet.properties)
        )
    return _encode_connect(packet)


def _encode_connect(packet: Connect) -> bytes:
    will = packet.will
    flags = (0x02 if packet.clean_start else 0) | (0x80 if packet.username is not None else 0)
    flags |= 0x40 if packet.password is not None else 0
    if will is not None:
        flags |= 0x04 | will.qos << 3 | (0x20 if will.retain else 0)
    body = encode_string("MQTT") + bytes([packet.protocol_level, flags])
    body += struct.pack(">H", packet.keepalive) + encode_properties(packet.properties)
    body += encode_string(packet.client_id)
    if will is not None:
        body += encode_properties(will.properties) + encode_string(will.topic)
        body += encode_binary(will.payload)
    if packet.username is not None:
        body += encode_string(packet.username)
    if packet.password is not None:
        body += encode_binary(packet.password)
    return fixed_header(CONNECT << 4, body)


def encode_connack(session_present: bool, reason: int, props: Properties = ()) -> bytes:
    body = bytes([int(session_present), reason]) + encode_properties(props)
    return fixed_header(CONNACK << 4, body)
