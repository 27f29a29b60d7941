"""Frames of the table-agent protocol: COBS, CRC-16 and the 6-byte header. Pure: no I/O.

A frame on the wire is ``00 | COBS(header | payload | crc16) | 00``. The 0x00 delimiter never
occurs inside COBS output, so a receiver that lost bytes, or started listening mid-frame, is back
in step at the next 0x00: garbage costs at most the frame it landed in (see docs/table-protocol.md).
"""

from __future__ import annotations

import dataclasses
import enum
import struct

VERSION = 1
DELIMITER = b"\x00"
HEADER = struct.Struct(">BBBBBB")  # version, type, flags, seq, ack, payload length
CRC_SIZE = 2
MAX_PAYLOAD = 240
MAX_BODY = HEADER.size + MAX_PAYLOAD + CRC_SIZE
#: Longest COBS run for a legal body, plus slack; longer runs between delimiters are garbage.
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 2


class Flag(enum.IntFlag):
    """Header flag bits; reserved bits are sent as 0 and ignored on receipt."""

    NONE = 0
    REPLY = 0x01  # device -> host
    RETRY = 0x02  # host: this is a retransmission of the same seq (informational)
    REPLAYED = 0x04  # device: reply replayed from the cache, the command did not run again


class FrameError(ValueError):
    """A run of bytes between delimiters that is not a valid frame; ``reason`` names the check."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        crc &= 0xFFFF
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result contains no 0x00.

    >>> cobs_encode(b"\\x11\\x00\\x22").hex(" ")
    '02 11 02 22'
    """
    out = bytearray(b"\x00")
    code_at, code = 0, 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at, code = len(out), 1
            out.append(0)
            continue
        out.append(byte)
        code += 1
        if code == 0xFF:
            out[code_at] = code
            code_at, code = len(out), 1
            out.append(0)
    out[code_at] = code
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Inverse of :func:`cobs_encode`; raises :class:`FrameError` on a malformed run."""
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        if code == 0:
            raise FrameError("cobs", f"COBS run contains 0x00 at offset {i}")
        end = i + code
        if end > len(data):
            raise FrameError("cobs", f"COBS block at offset {i} runs past the end ({data.hex()})")
        block = data[i + 1 : end]
        if 0 in block:
            raise FrameError("cobs", f"COBS block at offset {i} contains 0x00")
        out += block
        i = end
        if code != 0xFF and i < len(data):
            out.append(0)
    return bytes(out)


@dataclasses.dataclass(frozen=True)
class Frame:
    """One decoded frame: header fields and the raw payload (messages interpret it)."""

    type: int
    flags: Flag
    seq: int
    ack: int
    payload: bytes = b""
    version: int = VERSION

    def __post_init__(self) -> None:
        for name in ("type", "seq", "ack", "version"):
            value = getattr(self, name)
            if not 0 <= value <= 0xFF:
                raise ValueError(f"frame {name} {value!r} does not fit in a byte")
        if len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"payload of {len(self.payload)} bytes exceeds {MAX_PAYLOAD}")

    @property
    def is_reply(self) -> bool:
        return bool(self.flags & Flag.REPLY)


def frame_body(frame: Frame) -> bytes:
    """Header, payload and CRC before COBS: the bytes the CRC protects, plus the CRC."""
    header = HEADER.pack(
        frame.version, frame.type, int(frame.flags), frame.seq, frame.ack, len(frame.payload)
    )
    raw = header + frame.payload
    return raw + crc16(raw).to_bytes(2, "big")


def encode_frame(frame: Frame) -> bytes:
    """The exact bytes to write: leading delimiter, COBS body, trailing delimiter."""
    return DELIMITER + cobs_encode(frame_body(frame)) + DELIMITER


def decode_body(encoded: bytes) -> Frame:
    """Decode one COBS run (without delimiters) into a :class:`Frame`, checking everything."""
    body = cobs_decode(encoded)
    if len(body) < HEADER.size + CRC_SIZE:
        raise FrameError("short", f"frame of {len(body)} bytes is shorter than header + CRC")
    raw, received = body[:-CRC_SIZE], int.from_bytes(body[-CRC_SIZE:], "big")
    computed = crc16(raw)
    if computed != received:
        raise FrameError("crc", f"CRC 0x{received:04x} != computed 0x{computed:04x}")
    version, type_, flags, seq, ack, length = HEADER.unpack_from(raw)
    if length != len(raw) - HEADER.size:
        raise FrameError("length", f"length field {length} != payload {len(raw) - HEADER.size}")
    if version != VERSION:
        raise FrameError("version", f"protocol version {version} is not {VERSION}")
    return Frame(type_, Flag(flags), seq, ack, raw[HEADER.size :], version)


@dataclasses.dataclass(frozen=True)
class BadFrame:
    """A delimited run that failed a check; the device answers it with NAK (crc or version)."""

    reason: str
    message: str
    data: bytes


class FrameDecoder:
    """Incremental decoder: feed any chunks of bytes, get frames and bad runs in order."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overflow = False

    def feed(self, data: bytes) -> list[Frame | BadFrame]:
        out: list[Frame | BadFrame] = []
        for chunk_end, part in _split_keep(data):
            if not self._overflow:
                self._buffer += part
                if len(self._buffer) > MAX_ENCODED:
                    self._buffer.clear()
                    self._overflow = True
            if self._overflow:  # skip to the next delimiter, then report the run once
                if chunk_end:
                    self._overflow = False
                    out.append(BadFrame("overflow", "run longer than any frame", b""))
                continue
            if chunk_end:
                run = bytes(self._buffer)
                self._buffer.clear()
                if run:
                    try:
                        out.append(decode_body(run))
                    except FrameError as exc:
                        out.append(BadFrame(exc.reason, str(exc), run))
        return out

    def reset(self) -> None:
        self._buffer.clear()
        self._overflow = False


def _split_keep(data: bytes) -> list[tuple[bool, bytes]]:
    """Split at 0x00: (ends_with_delimiter, bytes before it) pieces, in order."""
    pieces = data.split(DELIMITER)
    result = [(True, piece) for piece in pieces[:-1]]
    if pieces[-1]:
        result.append((False, pieces[-1]))
    return result
