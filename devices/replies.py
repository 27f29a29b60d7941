"""Data-carrying replies: INFO, STATUS and EVENTS (layouts in docs/table-protocol.md §5-6)."""

from __future__ import annotations

import dataclasses
import struct
from typing import ClassVar

from devices.codes import FaultCode, Severity, State
from devices.device_events import EventRecord, decode_records, encode_record
from devices.message_base import Message, MessageError, Opcode, unpack

_INFO = struct.Struct(">BBBBBHB")


@dataclasses.dataclass(frozen=True)
class InfoReply(Message):
    opcode: ClassVar[Opcode] = Opcode.GET_INFO
    protocol_major: int
    protocol_minor: int
    firmware: tuple[int, int, int]
    capabilities: int
    max_payload: int
    model: str
    serial_number: str

    def encode(self) -> bytes:
        head = _INFO.pack(
            self.protocol_major, self.protocol_minor, *self.firmware,
            self.capabilities, self.max_payload,
        )  # fmt: skip
        return head + _pack_str(self.model) + _pack_str(self.serial_number)

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> InfoReply:
        major, minor, fw1, fw2, fw3, caps, max_payload = unpack(_INFO, payload, "INFO")
        model, at = _unpack_str(payload, _INFO.size)
        serial, _ = _unpack_str(payload, at)
        return cls(major, minor, (fw1, fw2, fw3), caps, max_payload, model, serial)


def _pack_str(text: str) -> bytes:
    raw = text.encode()[:64]
    return bytes([len(raw)]) + raw


def _unpack_str(payload: bytes, at: int) -> tuple[str, int]:
    if at >= len(payload) or at + 1 + payload[at] > len(payload):
        raise MessageError(f"string at offset {at} runs past the payload {payload.hex()}")
    end = at + 1 + payload[at]
    try:
        return payload[at + 1 : end].decode(), end
    except UnicodeDecodeError:
        raise MessageError(f"string {payload[at + 1 : end]!r} is not UTF-8") from None


_STATUS = struct.Struct(">BBBBBBHIIBBBB")
STATUS_PENDING_CONFIG = 0x01
STATUS_DICE_ROLLING = 0x02


@dataclasses.dataclass(frozen=True)
class StatusReply(Message):
    opcode: ClassVar[Opcode] = Opcode.GET_STATUS
    state: State
    flags: int
    active_tiles: int
    active_dice: int
    pending_tiles: int  # 0 = no pending change
    pending_dice: int
    boot_id: int
    event_counter: int
    uptime_ms: int
    progress: int  # percent of the running action
    fault: FaultCode = FaultCode.NONE
    fault_side: int = 0
    severity: int = 0  # Severity, 0 when no fault

    def encode(self) -> bytes:
        return _STATUS.pack(*(int(v) for v in dataclasses.astuple(self)))

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> StatusReply:
        (state, flags, tiles, dice, p_tiles, p_dice, boot_id, counter, uptime, progress, fault,
         side, severity) = unpack(_STATUS, payload, "STATUS")  # fmt: skip
        try:
            return cls(
                State(state), flags, tiles, dice, p_tiles, p_dice, boot_id, counter, uptime,
                progress, FaultCode(fault), side, Severity(severity) if severity else 0,
            )  # fmt: skip
        except ValueError as exc:
            raise MessageError(f"STATUS payload {payload.hex()}: {exc}") from None


_EVENTS_HEAD = struct.Struct(">BHIIB")
EVENTS_GAP = 0x01


@dataclasses.dataclass(frozen=True)
class EventsReply(Message):
    opcode: ClassVar[Opcode] = Opcode.GET_EVENTS
    gap: bool  # ``since`` was not in the buffer: events were lost, or the device reset
    boot_id: int
    oldest: int  # oldest counter still buffered (0 if none)
    latest: int  # newest counter issued
    records: tuple[EventRecord, ...] = ()

    def encode(self) -> bytes:
        flags = EVENTS_GAP if self.gap else 0
        head = _EVENTS_HEAD.pack(flags, self.boot_id, self.oldest, self.latest, len(self.records))
        return head + b"".join(encode_record(r) for r in self.records)

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> EventsReply:
        flags, boot_id, oldest, latest, count = unpack(_EVENTS_HEAD, payload, "EVENTS")
        try:
            records = decode_records(payload[_EVENTS_HEAD.size :], count)
        except ValueError as exc:
            raise MessageError(str(exc)) from None
        return cls(bool(flags & EVENTS_GAP), boot_id, oldest, latest, records)


EVENTS_HEADER_SIZE = _EVENTS_HEAD.size
