"""MQTT 5 wire primitives: variable byte integers, strings, binary data and properties.

Pure and synchronous (no sockets): the broker hands it bytes and gets values or a
``ProtocolError`` whose message says what was wrong, so a malformed packet closes one
connection with a clear log line and never reaches the routing code.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from typing import cast

#: A property as parsed: ``(identifier, value)``; user properties repeat, so a tuple, not a dict.
Property = tuple[int, object]
Properties = tuple[Property, ...]

PAYLOAD_FORMAT = 0x01
MESSAGE_EXPIRY = 0x02
CONTENT_TYPE = 0x03
RESPONSE_TOPIC = 0x08
CORRELATION_DATA = 0x09
SUBSCRIPTION_ID = 0x0B
SESSION_EXPIRY = 0x11
ASSIGNED_CLIENT_ID = 0x12
SERVER_KEEP_ALIVE = 0x13
REASON_STRING = 0x1F
RECEIVE_MAXIMUM = 0x21
TOPIC_ALIAS_MAXIMUM = 0x22
TOPIC_ALIAS = 0x23
MAXIMUM_QOS = 0x24
RETAIN_AVAILABLE = 0x25
USER_PROPERTY = 0x26
WILL_DELAY = 0x18

_BYTE, _U16, _U32, _VBI, _STR, _BIN, _PAIR = range(7)
PROPERTY_TYPES: dict[int, int] = {
    0x01: _BYTE, 0x02: _U32, 0x03: _STR, 0x08: _STR, 0x09: _BIN, 0x0B: _VBI, 0x11: _U32,
    0x12: _STR, 0x13: _U16, 0x15: _STR, 0x16: _BIN, 0x17: _BYTE, 0x18: _U32, 0x19: _BYTE,
    0x1A: _STR, 0x1C: _STR, 0x1F: _STR, 0x21: _U16, 0x22: _U16, 0x23: _U16, 0x24: _BYTE,
    0x25: _BYTE, 0x26: _PAIR, 0x27: _U32, 0x28: _BYTE, 0x29: _BYTE, 0x2A: _BYTE,
}  # fmt: skip

#: Application properties a broker passes from publisher to subscribers (MQTT 5 §3.3.2.3).
FORWARDED = frozenset(
    {PAYLOAD_FORMAT, MESSAGE_EXPIRY, CONTENT_TYPE, RESPONSE_TOPIC, CORRELATION_DATA, USER_PROPERTY}
)
MAX_VBI = 268_435_455


class ProtocolError(ValueError):
    """A malformed or unsupported packet; ``reason`` is the MQTT 5 reason code to answer with."""

    def __init__(self, message: str, reason: int = 0x81) -> None:
        super().__init__(message)
        self.reason = reason


class Reader:
    """Reads MQTT primitives from one packet body, failing on truncation with a clear message."""

    def __init__(self, data: bytes, what: str) -> None:
        self.data = data
        self.pos = 0
        self.what = what

    def take(self, count: int) -> bytes:
        end = self.pos + count
        if end > len(self.data):
            raise ProtocolError(f"{self.what}: truncated at byte {self.pos} (wanted {count} more)")
        chunk = self.data[self.pos : end]
        self.pos = end
        return chunk

    def remaining(self) -> int:
        return len(self.data) - self.pos

    def rest(self) -> bytes:
        return self.take(self.remaining())

    def byte(self) -> int:
        return self.take(1)[0]

    def u16(self) -> int:
        return int(struct.unpack(">H", self.take(2))[0])

    def u32(self) -> int:
        return int(struct.unpack(">I", self.take(4))[0])

    def vbi(self) -> int:
        value, shift = 0, 0
        for _ in range(4):
            digit = self.byte()
            value |= (digit & 0x7F) << shift
            if not digit & 0x80:
                return value
            shift += 7
        raise ProtocolError(f"{self.what}: variable byte integer longer than 4 bytes")

    def binary(self) -> bytes:
        return self.take(self.u16())

    def string(self) -> str:
        raw = self.binary()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ProtocolError(f"{self.what}: string is not UTF-8: {raw[:40]!r}") from exc
        if "\x00" in text:
            raise ProtocolError(f"{self.what}: string contains U+0000: {text[:40]!r}")
        return text

    def properties(self) -> Properties:
        length = self.vbi()
        inner = Reader(self.take(length), f"{self.what} properties")
        found: list[Property] = []
        seen: set[int] = set()
        while inner.remaining():
            ident = inner.vbi()
            kind = PROPERTY_TYPES.get(ident)
            if kind is None:
                raise ProtocolError(f"{self.what}: unknown property 0x{ident:02x}")
            if ident in seen and ident not in (USER_PROPERTY, SUBSCRIPTION_ID):
                raise ProtocolError(f"{self.what}: property 0x{ident:02x} given twice", 0x82)
            seen.add(ident)
            found.append((ident, inner.value(kind)))
        return tuple(found)

    def value(self, kind: int) -> object:
        if kind == _BYTE:
            return self.byte()
        if kind == _U16:
            return self.u16()
        if kind == _U32:
            return self.u32()
        if kind == _VBI:
            return self.vbi()
        if kind == _STR:
            return self.string()
        if kind == _BIN:
            return self.binary()
        return (self.string(), self.string())


def encode_vbi(value: int) -> bytes:
    if not 0 <= value <= MAX_VBI:
        raise ValueError(f"variable byte integer out of range: {value}")
    out = bytearray()
    while True:
        digit, value = value & 0x7F, value >> 7
        out.append(digit | (0x80 if value else 0))
        if not value:
            return bytes(out)


def encode_binary(data: bytes) -> bytes:
    if len(data) > 0xFFFF:
        raise ValueError(f"binary field longer than 65535 bytes ({len(data)})")
    return struct.pack(">H", len(data)) + data


def encode_string(text: str) -> bytes:
    return encode_binary(text.encode("utf-8"))


def _encode_value(kind: int, value: object) -> bytes:
    if kind == _BYTE:
        return bytes([int(value)])  # type: ignore[call-overload]
    if kind == _U16:
        return struct.pack(">H", value)
    if kind == _U32:
        return struct.pack(">I", value)
    if kind == _VBI:
        return encode_vbi(int(value))  # type: ignore[call-overload]
    if kind == _STR:
        return encode_string(str(value))
    if kind == _BIN:
        return encode_binary(bytes(value))  # type: ignore[call-overload]
    key, val = cast(tuple[str, str], value)
    return encode_string(key) + encode_string(val)


def encode_properties(props: Iterable[Property]) -> bytes:
    body = b"".join(
        encode_vbi(ident) + _encode_value(PROPERTY_TYPES[ident], value) for ident, value in props
    )
    return encode_vbi(len(body)) + body


def get_property(props: Properties, ident: int, default: object = None) -> object:
    return next((value for key, value in props if key == ident), default)


def fixed_header(first_byte: int, body: bytes) -> bytes:
    return bytes([first_byte]) + encode_vbi(len(body)) + body
