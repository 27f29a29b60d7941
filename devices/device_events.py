"""Event records the table buffers and the host fetches with GET_EVENTS, and counter arithmetic.

Record layout: counter u32, uptime_ms u32, code u8, length u8, data[length]. Unknown codes decode
to :class:`UnknownEvent` so an older host skips events a newer device adds.
"""

from __future__ import annotations

import dataclasses
import enum
import struct
from typing import ClassVar

from devices.codes import Action, BootReason, EventCode, FaultCode, Recovery, Severity, State

COUNTER_MODULUS = 0xFFFF_FFFF  # counters run 1 .. 0xFFFFFFFF, then wrap to 1 (0 is never used)
_RECORD = struct.Struct(">IIBB")


def next_counter(counter: int) -> int:
    """The counter after ``counter``: skips 0 on wrap, so 0 always means "none yet".

    >>> next_counter(1), next_counter(0xFFFF_FFFF)
    (2, 1)
    """
    return 1 if counter >= COUNTER_MODULUS else counter + 1


def counter_distance(newer: int, older: int) -> int:
    """How many increments lead from ``older`` to ``newer`` on the 1..2^32-1 ring."""
    return (newer - older) % COUNTER_MODULUS


def counter_after(newer: int, older: int) -> bool:
    """True when ``newer`` was issued after ``older`` (serial-number arithmetic, RFC 1982)."""
    return 0 < counter_distance(newer, older) < COUNTER_MODULUS // 2


class EventBody:
    code: ClassVar[EventCode]
    layout: ClassVar[struct.Struct] = struct.Struct(">")

    def encode(self) -> bytes:
        return self.layout.pack(*(int(v) for v in dataclasses.astuple(self)))  # type: ignore[call-overload]

    @classmethod
    def decode(cls, data: bytes) -> EventBody:
        if len(data) < cls.layout.size:
            raise ValueError(f"{cls.code.name} event needs {cls.layout.size} bytes: {data.hex()}")
        values = cls.layout.unpack_from(data)
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]
        converted = [
            _ENUMS[str(f.type)](v) if str(f.type) in _ENUMS else v
            for f, v in zip(fields, values, strict=True)
        ]
        return cls(*converted)


_ENUMS: dict[str, type[int]] = {
    "State": State,
    "Action": Action,
    "BootReason": BootReason,
    "FaultCode": FaultCode,
    "Severity": Severity,
    "Recovery": Recovery,
}


@dataclasses.dataclass(frozen=True)
class Boot(EventBody):
    code: ClassVar[EventCode] = EventCode.BOOT
    layout: ClassVar[struct.Struct] = struct.Struct(">B")
    reason: BootReason = BootReason.POWER_ON


@dataclasses.dataclass(frozen=True)
class StateChanged(EventBody):
    code: ClassVar[EventCode] = EventCode.STATE_CHANGED
    layout: ClassVar[struct.Struct] = struct.Struct(">BB")
    old: State
    new: State


@dataclasses.dataclass(frozen=True)
class Progress(EventBody):
    code: ClassVar[EventCode] = EventCode.PROGRESS
    layout: ClassVar[struct.Struct] = struct.Struct(">BB")
    action: Action
    percent: int


@dataclasses.dataclass(frozen=True)
class ShuffleDone(EventBody):
    code: ClassVar[EventCode] = EventCode.SHUFFLE_DONE
    layout: ClassVar[struct.Struct] = struct.Struct(">BBBBB")
    tile_count: int
    side1: int
    side2: int
    side3: int
    side4: int

    @property
    def side_counts(self) -> tuple[int, int, int, int]:
        return (self.side1, self.side2, self.side3, self.side4)


@dataclasses.dataclass(frozen=True)
class WallsRaised(EventBody):
    code: ClassVar[EventCode] = EventCode.WALLS_RAISED
    layout: ClassVar[struct.Struct] = struct.Struct(">B")
    tile_count: int


@dataclasses.dataclass(frozen=True)
class DiceRolled(EventBody):
    code: ClassVar[EventCode] = EventCode.DICE_ROLLED
    values: tuple[int, ...]

    def encode(self) -> bytes:
        return bytes([len(self.values), *self.values])

    @classmethod
    def decode(cls, data: bytes) -> DiceRolled:
        if not data or len(data) < 1 + data[0]:
            raise ValueError(f"DICE_ROLLED event data {data.hex()} is truncated")
        values = tuple(data[1 : 1 + data[0]])
        if not all(1 <= v <= 6 for v in values):
            raise ValueError(f"DICE_ROLLED values {values} are not 1-6")
        return cls(values)


@dataclasses.dataclass(frozen=True)
class Fault(EventBody):
    code: ClassVar[EventCode] = EventCode.FAULT
    layout: ClassVar[struct.Struct] = struct.Struct(">BBBBBB")
    fault: FaultCode
    side: int  # 1-4, 0 = whole table
    severity: Severity
    recovery: Recovery
    expected: int = 0  # TILE_COUNT_MISMATCH: tiles expected on the side; SENSOR_FAULT: sensor id
    counted: int = 0  # TILE_COUNT_MISMATCH: tiles counted


@dataclasses.dataclass(frozen=True)
class FaultCleared(EventBody):
    code: ClassVar[EventCode] = EventCode.FAULT_CLEARED
    layout: ClassVar[struct.Struct] = struct.Struct(">B")
    fault: FaultCode


@dataclasses.dataclass(frozen=True)
class ConfigApplied(EventBody):
    code: ClassVar[EventCode] = EventCode.CONFIG_APPLIED
    layout: ClassVar[struct.Struct] = struct.Struct(">BB")
    tile_count: int
    dice_count: int


@dataclasses.dataclass(frozen=True)
class UnknownEvent(EventBody):
    """An event code this host does not know (a newer device); kept, not fatal."""

    raw_code: int
    data: bytes

    def encode(self) -> bytes:
        return self.data


EVENT_TYPES: dict[EventCode, type[EventBody]] = {
    cls.code: cls
    for cls in (
        Boot, StateChanged, Progress, ShuffleDone, WallsRaised, DiceRolled, Fault, FaultCleared,
        ConfigApplied,
    )
}  # fmt: skip


@dataclasses.dataclass(frozen=True)
class EventRecord:
    counter: int
    uptime_ms: int
    body: EventBody


def encode_record(record: EventRecord) -> bytes:
    data = record.body.encode()
    code = record.body.raw_code if isinstance(record.body, UnknownEvent) else record.body.code
    return _RECORD.pack(record.counter, record.uptime_ms, code, len(data)) + data


def record_size(record: EventRecord) -> int:
    return _RECORD.size + len(record.body.encode())


def decode_records(data: bytes, count: int) -> tuple[EventRecord, ...]:
    """Decode ``count`` records; raises ValueError (quoting the bytes) when they do not fit."""
    records = []
    at = 0
    for index in range(count):
        if at + _RECORD.size > len(data):
            raise ValueError(f"event record {index} truncated at offset {at}: {data.hex()}")
        counter, uptime, code, length = _RECORD.unpack_from(data, at)
        body_data = data[at + _RECORD.size : at + _RECORD.size + length]
        if len(body_data) != length:
            raise ValueError(f"event record {index} data truncated: {data.hex()}")
        if counter == 0:
            raise ValueError(f"event record {index} has counter 0, which is never issued")
        at += _RECORD.size + length
        try:
            cls = EVENT_TYPES[EventCode(code)]
            body = cls.decode(body_data)
        except ValueError as exc:
            if code in EVENT_TYPES:
                raise ValueError(f"event record {index}: {exc}") from None
            body = UnknownEvent(code, body_data)
        records.append(EventRecord(counter, uptime, body))
    return tuple(records)


def record_to_dict(record: EventRecord) -> dict[str, object]:
    """A JSON-ready view of one record: counter, uptime, event name and its fields."""
    body = record.body
    name = f"unknown_{body.raw_code}" if isinstance(body, UnknownEvent) else body.code.name.lower()
    fields: dict[str, object] = {}
    for field in dataclasses.fields(body):  # type: ignore[arg-type]
        value = getattr(body, field.name)
        if isinstance(value, bytes):
            value = value.hex()
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, enum.Enum):
            value = value.name.lower()
        fields[field.name] = value
    if isinstance(body, ShuffleDone):
        fields = {"tile_count": body.tile_count, "side_counts": list(body.side_counts)}
    return {"counter": record.counter, "uptime_ms": record.uptime_ms, "event": name, **fields}
