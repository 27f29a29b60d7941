"""Commands and replies: one dataclass per payload layout, one decode registry keyed by opcode.

Multi-byte integers are big-endian. Receivers ignore payload bytes past the fields they know, so a
newer minor version may append fields (docs/table-protocol.md, "Versioning").
"""

from __future__ import annotations

import dataclasses
import enum
import struct
from typing import ClassVar

from devices.codes import FaultCode, NakReason, Severity, State
from devices.device_events import EventRecord, decode_records, encode_record
from devices.framing import MAX_PAYLOAD, Flag, Frame


class Opcode(enum.IntEnum):
    GET_INFO = 0x01
    GET_STATUS = 0x02
    START_SHUFFLE = 0x03
    RAISE_WALLS = 0x04
    ROLL_DICE = 0x05
    CLEAR_ERROR = 0x06
    RESET = 0x07
    GET_EVENTS = 0x08
    SET_CONFIG = 0x09
    PAUSE = 0x0A
    RESUME = 0x0B
    NAK = 0x7F


class MessageError(ValueError):
    """A frame whose payload does not match its opcode's layout."""


def _unpack(layout: struct.Struct, data: bytes, what: str) -> tuple[int, ...]:
    if len(data) < layout.size:
        raise MessageError(f"{what} payload needs {layout.size} bytes, got {data.hex() or 'none'}")
    return layout.unpack_from(data)


class Message:
    """Base: ``encode()`` gives the payload, ``decode(opcode, payload)`` the reverse."""

    opcode: ClassVar[Opcode]

    @property
    def op(self) -> Opcode:
        return self.opcode

    def encode(self) -> bytes:
        return b""

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> Message:
        return cls()


@dataclasses.dataclass(frozen=True)
class GetInfo(Message):
    opcode: ClassVar[Opcode] = Opcode.GET_INFO


@dataclasses.dataclass(frozen=True)
class GetStatus(Message):
    opcode: ClassVar[Opcode] = Opcode.GET_STATUS


@dataclasses.dataclass(frozen=True)
class RaiseWalls(Message):
    opcode: ClassVar[Opcode] = Opcode.RAISE_WALLS


@dataclasses.dataclass(frozen=True)
class ClearError(Message):
    opcode: ClassVar[Opcode] = Opcode.CLEAR_ERROR


@dataclasses.dataclass(frozen=True)
class Reset(Message):
    opcode: ClassVar[Opcode] = Opcode.RESET


@dataclasses.dataclass(frozen=True)
class Pause(Message):
    opcode: ClassVar[Opcode] = Opcode.PAUSE


@dataclasses.dataclass(frozen=True)
class Resume(Message):
    opcode: ClassVar[Opcode] = Opcode.RESUME


@dataclasses.dataclass(frozen=True)
class StartShuffle(Message):
    opcode: ClassVar[Opcode] = Opcode.START_SHUFFLE
    tile_count: int = 0  # 0: the configured count (pending if set, else active)

    def encode(self) -> bytes:
        return bytes([self.tile_count])

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> StartShuffle:
        return cls(*_unpack(struct.Struct(">B"), payload, "START_SHUFFLE"))


@dataclasses.dataclass(frozen=True)
class RollDice(Message):
    opcode: ClassVar[Opcode] = Opcode.ROLL_DICE
    count: int = 0  # 0: configured dice count

    def encode(self) -> bytes:
        return bytes([self.count])

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> RollDice:
        return cls(*_unpack(struct.Struct(">B"), payload, "ROLL_DICE"))


@dataclasses.dataclass(frozen=True)
class GetEvents(Message):
    opcode: ClassVar[Opcode] = Opcode.GET_EVENTS
    since: int = 0  # last counter the host holds; 0 = everything buffered
    max_events: int = 0  # 0 = as many as fit

    def encode(self) -> bytes:
        return struct.pack(">IB", self.since, self.max_events)

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> GetEvents:
        return cls(*_unpack(struct.Struct(">IB"), payload, "GET_EVENTS"))


@dataclasses.dataclass(frozen=True)
class SetConfig(Message):
    opcode: ClassVar[Opcode] = Opcode.SET_CONFIG
    tile_count: int = 0  # 0 = unchanged
    dice_count: int = 0  # 0 = unchanged

    def encode(self) -> bytes:
        return bytes([self.tile_count, self.dice_count])

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> SetConfig:
        return cls(*_unpack(struct.Struct(">BB"), payload, "SET_CONFIG"))


# ---------------------------------------------------------------- replies


@dataclasses.dataclass(frozen=True)
class Ack(Message):
    """Empty positive reply to an immediate command."""

    command: Opcode = Opcode.CLEAR_ERROR

    @property
    def op(self) -> Opcode:
        return self.command

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> Ack:
        return cls(opcode)


_ACCEPTED = struct.Struct(">II")


@dataclasses.dataclass(frozen=True)
class Accepted(Message):
    """A long action started; its completion arrives as events with counters > event_counter."""

    command: Opcode = Opcode.START_SHUFFLE
    event_counter: int = 0
    duration_ms: int = 0  # the device's estimate, for host timeouts

    @property
    def op(self) -> Opcode:
        return self.command

    def encode(self) -> bytes:
        return _ACCEPTED.pack(self.event_counter, self.duration_ms)

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> Accepted:
        return cls(opcode, *_unpack(_ACCEPTED, payload, opcode.name))


@dataclasses.dataclass(frozen=True)
class Nak(Message):
    opcode: ClassVar[Opcode] = Opcode.NAK
    reason: NakReason = NakReason.UNSUPPORTED
    command: int = 0  # opcode refused, 0 when unknown (CRC)
    state: State = State.IDLE
    detail: int = 0

    def encode(self) -> bytes:
        return bytes([self.reason, self.command, self.state, self.detail])

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> Nak:
        reason, command, state, detail = _unpack(struct.Struct(">BBBB"), payload, "NAK")
        try:
            return cls(NakReason(reason), command, State(state), detail)
        except ValueError as exc:
            raise MessageError(f"NAK payload {payload.hex()}: {exc}") from None


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
        major, minor, fw1, fw2, fw3, caps, max_payload = _unpack(_INFO, payload, "INFO")
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
         side, severity) = _unpack(_STATUS, payload, "STATUS")  # fmt: skip
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
        flags, boot_id, oldest, latest, count = _unpack(_EVENTS_HEAD, payload, "EVENTS")
        try:
            records = decode_records(payload[_EVENTS_HEAD.size :], count)
        except ValueError as exc:
            raise MessageError(str(exc)) from None
        return cls(bool(flags & EVENTS_GAP), boot_id, oldest, latest, records)


EVENTS_HEADER_SIZE = _EVENTS_HEAD.size

#: The one decode registry: (is_reply, opcode) -> payload class.
COMMANDS: dict[Opcode, type[Message]] = {
    Opcode.GET_INFO: GetInfo,
    Opcode.GET_STATUS: GetStatus,
    Opcode.RAISE_WALLS: RaiseWalls,
    Opcode.CLEAR_ERROR: ClearError,
    Opcode.RESET: Reset,
    Opcode.PAUSE: Pause,
    Opcode.RESUME: Resume,
    Opcode.START_SHUFFLE: StartShuffle,
    Opcode.ROLL_DICE: RollDice,
    Opcode.GET_EVENTS: GetEvents,
    Opcode.SET_CONFIG: SetConfig,
}
REPLIES: dict[Opcode, type[Message]] = {
    Opcode.GET_INFO: InfoReply,
    Opcode.GET_STATUS: StatusReply,
    Opcode.START_SHUFFLE: Accepted,
    Opcode.RAISE_WALLS: Accepted,
    Opcode.ROLL_DICE: Accepted,
    Opcode.CLEAR_ERROR: Ack,
    Opcode.RESET: Accepted,
    Opcode.GET_EVENTS: EventsReply,
    Opcode.SET_CONFIG: Ack,
    Opcode.PAUSE: Ack,
    Opcode.RESUME: Ack,
    Opcode.NAK: Nak,
}


class UnknownOpcodeError(MessageError):
    def __init__(self, opcode: int) -> None:
        super().__init__(f"unknown opcode 0x{opcode:02x}")
        self.opcode = opcode


def decode_message(frame: Frame) -> Message:
    """Interpret a frame's payload through the registry (commands or replies by the REPLY flag)."""
    registry = REPLIES if frame.is_reply else COMMANDS
    try:
        opcode = Opcode(frame.type)
        cls = registry[opcode]
    except (ValueError, KeyError):
        raise UnknownOpcodeError(frame.type) from None
    return cls.decode(opcode, frame.payload)


_REPLY_CLASSES = frozenset(REPLIES.values())


def message_frame(message: Message, *, seq: int, ack: int, flags: Flag = Flag.NONE) -> Frame:
    """Wrap a message in a frame; replies get the REPLY flag."""
    payload = message.encode()
    if len(payload) > MAX_PAYLOAD:
        raise MessageError(f"{type(message).__name__} payload of {len(payload)} bytes too long")
    if type(message) in _REPLY_CLASSES:
        flags |= Flag.REPLY
    return Frame(message.op, flags, seq, ack, payload)
