"""Commands and short replies, and the one decode registry keyed by opcode.

Every payload layout is a dataclass; ``decode_message`` picks the class from the frame's opcode
and REPLY flag. Layouts: docs/table-protocol.md §4-6.
"""

from __future__ import annotations

import dataclasses
import struct
from typing import ClassVar

from devices.codes import NakReason, State
from devices.framing import MAX_PAYLOAD, Flag, Frame
from devices.message_base import Message, MessageError, Opcode, unpack
from devices.replies import (
    EVENTS_HEADER_SIZE,
    STATUS_DICE_ROLLING,
    STATUS_PENDING_CONFIG,
    EventsReply,
    InfoReply,
    StatusReply,
)  # fmt: skip

__all__ = [
    "COMMANDS",
    "EVENTS_HEADER_SIZE",
    "REPLIES",
    "STATUS_DICE_ROLLING",
    "STATUS_PENDING_CONFIG",
    "Accepted",
    "Ack",
    "ClearError",
    "EventsReply",
    "GetEvents",
    "GetInfo",
    "GetStatus",
    "InfoReply",
    "Message",
    "MessageError",
    "Nak",
    "Opcode",
    "OpenSession",
    "Pause",
    "RaiseWalls",
    "Reset",
    "Resume",
    "RollDice",
    "SetConfig",
    "StartShuffle",
    "StatusReply",
    "UnknownOpcodeError",
    "decode_message",
    "message_frame",
]  # fmt: skip


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
class OpenSession(Message):
    """First command of a host session: the device forgets its replay cache, so a restarted
    host whose sequence numbers happen to repeat the last session's never gets a stale reply."""

    opcode: ClassVar[Opcode] = Opcode.OPEN_SESSION
    nonce: int = 0  # random per session, so this command itself is never replayed

    def encode(self) -> bytes:
        return struct.pack(">I", self.nonce)

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> OpenSession:
        return cls(*unpack(struct.Struct(">I"), payload, "OPEN_SESSION"))


@dataclasses.dataclass(frozen=True)
class StartShuffle(Message):
    opcode: ClassVar[Opcode] = Opcode.START_SHUFFLE
    tile_count: int = 0  # 0: the configured count (pending if set, else active)

    def encode(self) -> bytes:
        return bytes([self.tile_count])

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> StartShuffle:
        return cls(*unpack(struct.Struct(">B"), payload, "START_SHUFFLE"))


@dataclasses.dataclass(frozen=True)
class RollDice(Message):
    opcode: ClassVar[Opcode] = Opcode.ROLL_DICE
    count: int = 0  # 0: configured dice count

    def encode(self) -> bytes:
        return bytes([self.count])

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> RollDice:
        return cls(*unpack(struct.Struct(">B"), payload, "ROLL_DICE"))


@dataclasses.dataclass(frozen=True)
class GetEvents(Message):
    opcode: ClassVar[Opcode] = Opcode.GET_EVENTS
    since: int = 0  # last counter the host holds; 0 = everything buffered
    max_events: int = 0  # 0 = as many as fit

    def encode(self) -> bytes:
        return struct.pack(">IB", self.since, self.max_events)

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> GetEvents:
        return cls(*unpack(struct.Struct(">IB"), payload, "GET_EVENTS"))


@dataclasses.dataclass(frozen=True)
class SetConfig(Message):
    opcode: ClassVar[Opcode] = Opcode.SET_CONFIG
    tile_count: int = 0  # 0 = unchanged
    dice_count: int = 0  # 0 = unchanged

    def encode(self) -> bytes:
        return bytes([self.tile_count, self.dice_count])

    @classmethod
    def decode(cls, opcode: Opcode, payload: bytes) -> SetConfig:
        return cls(*unpack(struct.Struct(">BB"), payload, "SET_CONFIG"))


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
        return cls(opcode, *unpack(_ACCEPTED, payload, opcode.name))


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
        reason, command, state, detail = unpack(struct.Struct(">BBBB"), payload, "NAK")
        try:
            return cls(NakReason(reason), command, State(state), detail)
        except ValueError as exc:
            raise MessageError(f"NAK payload {payload.hex()}: {exc}") from None


#: The one decode registry, keyed by opcode: COMMANDS for host frames, REPLIES for REPLY-flagged.
COMMANDS: dict[Opcode, type[Message]] = {
    Opcode.GET_INFO: GetInfo,
    Opcode.GET_STATUS: GetStatus,
    Opcode.RAISE_WALLS: RaiseWalls,
    Opcode.CLEAR_ERROR: ClearError,
    Opcode.RESET: Reset,
    Opcode.PAUSE: Pause,
    Opcode.RESUME: Resume,
    Opcode.OPEN_SESSION: OpenSession,
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
    Opcode.OPEN_SESSION: Ack,
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
