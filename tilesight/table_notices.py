"""Turns shuffling-table driver notices into plain records the service feeds to the engine.

devices/ reports dice values, tile counts and faults; this is the one place that says what they
mean at a mahjong table: dice set the wall break, a jam or a short side needs the referee, and
state changes and link troubles become table-state records. Physical sides (1-4, counter-clockwise
from the control panel) map to seat winds through ``east_side``, the side where East sits.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from devices import device_events as ev
from devices.codes import FaultCode, Severity
from devices.driver import DeviceResetDetected, EventsMissed, LinkLost, LinkRestored, Notice
from engine.tiles import Wind


@dataclasses.dataclass(frozen=True)
class WallBreak:
    """The dice the table rolled. ``break_offset``: seats counter-clockwise from the dealer
    (0 = dealer's own wall) whose wall is broken; ``total`` also counts the stacks."""

    kind = "wall_break"
    dice: tuple[int, ...]
    total: int
    break_offset: int


@dataclasses.dataclass(frozen=True)
class WallsBuilt:
    kind = "walls_built"
    tile_count: int
    side_counts: tuple[int, int, int, int]


@dataclasses.dataclass(frozen=True)
class RefereeAlert:
    """Something a referee must see now (jam, short side, reset, table offline)."""

    kind: str
    message: str
    severity: str  # info, warning, recoverable, fatal
    recovery: str = "none"
    side: int | None = None
    seat: Wind | None = None
    expected: int | None = None
    counted: int | None = None


@dataclasses.dataclass(frozen=True)
class TableState:
    kind = "table_state"
    state: str
    previous: str | None = None


LinkRecord = WallBreak | WallsBuilt | RefereeAlert | TableState

_ALERT_KINDS = {FaultCode.PUSH_JAM: "jam", FaultCode.TILE_COUNT_MISMATCH: "tile_count_mismatch"}


def record_to_dict(record: LinkRecord) -> dict[str, Any]:
    """JSON-ready form: ``kind`` plus the fields (winds by name)."""
    data = dataclasses.asdict(record)
    for key, value in data.items():
        if isinstance(value, Wind):
            data[key] = value.name.lower()
        elif isinstance(value, tuple):
            data[key] = list(value)
    return {"kind": record.kind, **data}


class NoticeTranslator:
    """Stateless apart from the seating: ``records(notice)`` for each driver notice."""

    def __init__(self, *, east_side: int = 1) -> None:
        if east_side not in (1, 2, 3, 4):
            raise ValueError(f"east_side must be a side 1-4, got {east_side!r}")
        self.east_side = east_side

    def seat_of(self, side: int) -> Wind | None:
        """Seat wind at a physical side; seats and sides both run counter-clockwise."""
        return Wind((side - self.east_side) % 4) if side in (1, 2, 3, 4) else None

    def records(self, notice: Notice) -> list[LinkRecord]:
        if isinstance(notice, LinkLost):
            return [RefereeAlert("table_offline", f"table link lost: {notice.reason}", "warning",
                                 "reconnecting")]  # fmt: skip
        if isinstance(notice, LinkRestored):
            return [RefereeAlert("table_online", "table link restored", "info")]
        if isinstance(notice, DeviceResetDetected):
            return [
                RefereeAlert("table_reset", f"table reset ({notice.reason}); any action in "
                             "progress was lost", "warning", "check the walls"),
                TableState("boot"),
            ]  # fmt: skip
        if isinstance(notice, EventsMissed):
            return [RefereeAlert("events_missed", f"table events after {notice.after} up to "
                                 f"{notice.resumed_at} were lost", "warning")]  # fmt: skip
        return self._event(notice.body)

    def _event(self, body: ev.EventBody) -> list[LinkRecord]:
        if isinstance(body, ev.DiceRolled):
            total = sum(body.values)
            return [WallBreak(body.values, total, (total - 1) % 4)]
        if isinstance(body, ev.ShuffleDone):
            return [WallsBuilt(body.tile_count, body.side_counts)]
        if isinstance(body, ev.StateChanged):
            return [TableState(body.new.name.lower(), body.old.name.lower())]
        if isinstance(body, ev.Fault):
            return [self._fault_alert(body)]
        if isinstance(body, ev.FaultCleared):
            return [RefereeAlert("fault_cleared", f"{body.fault.name.lower()} cleared", "info")]
        return []

    def _fault_alert(self, fault: ev.Fault) -> RefereeAlert:
        kind = _ALERT_KINDS.get(fault.fault, fault.fault.name.lower())
        seat = self.seat_of(fault.side)
        where = f" at side {fault.side} ({seat.name.lower()})" if seat is not None else ""
        counts = None
        if fault.fault == FaultCode.TILE_COUNT_MISMATCH:
            counts = (fault.expected, fault.counted)
            where += f": expected {fault.expected} tiles, counted {fault.counted}"
        return RefereeAlert(
            kind, f"table {fault.fault.name.lower().replace('_', ' ')}{where}",
            Severity(fault.severity).name.lower(), fault.recovery.name.lower(),
            fault.side or None, seat, counts[0] if counts else None, counts[1] if counts else None,
        )  # fmt: skip
