"""What the table's collaborators share: one :class:`TableContext` per table.

:class:`engine.table.Table` is composed of collaborators (turns, claims, face-down kongs, wins,
deal, history, hooks, scoreboard). None of them holds another's state; the hand, the wall, the
rules and the clock, and the two outputs every rule needs (emitting an event, raising a
violation), are reached through the context, so what each part may touch is written down here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.actions import Action, action_to_dict
from engine.events import Event, make_event_id
from engine.procedures import Procedure
from engine.rulesets import RuleSet
from engine.table.events import Overtime, ViolationRaised
from engine.table.seats import HandState, Phase
from engine.table.timing import TableTimer
from engine.table.wall import WallTracker
from engine.tiles import Tile
from engine.timing import Overtime as OvertimeRecord
from engine.violations import IllegalActionError, Violation, ViolationKind

IdFactory = Callable[[float], str]


def seeded_id_factory(seed: int = 0) -> IdFactory:
    """UUIDv7 ids from the event timestamp and a seeded generator: replays give the same ids."""
    rng = random.Random(seed)

    def make(timestamp: float) -> str:
        return make_event_id(max(0, int(timestamp * 1000)), rng.randbytes(10))

    return make


class TableContext:
    """The configuration, the shared game state and the event output of one table."""

    #: What a strict-mode refusal rolls back and a correction adopts (``seq`` only rolls back).
    STATE_FIELDS = ("procedure", "hand", "wall", "timer", "seq")

    def __init__(
        self,
        procedure: Procedure,
        rules: RuleSet | None,
        *,
        table_id: str,
        strict: bool,
        epoch: int,
        id_factory: IdFactory,
    ) -> None:
        self.procedure, self.rules = procedure, rules
        self.table_id, self.strict, self.epoch, self.seq = table_id, strict, epoch, 0
        self.hand: HandState | None = None
        self.wall = WallTracker(procedure)
        self.timer = TableTimer(procedure, None, 0)
        self.events: list[Event] = []
        self.violations: list[Violation] = []
        self.action: Action | None = None
        self.timestamp = 0.0
        self._id_factory = id_factory

    def begin(self, action: Action, timestamp: float) -> None:
        """A new action: its events start a fresh list."""
        self.events, self.action, self.timestamp = [], action, timestamp

    def state(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.STATE_FIELDS)

    def restore(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(self.STATE_FIELDS, state, strict=True):
            setattr(self, name, value)

    def adopt(self, other: TableContext) -> None:
        """Take the game state of a table that replayed a corrected history."""
        self.procedure, self.hand, self.wall, self.timer = (
            other.procedure,
            other.hand,
            other.wall,
            other.timer,
        )

    def action_at(self) -> float | None:
        return self.action.at if self.action is not None else None

    # -- output -------------------------------------------------------------------------------
    def emit(self, cls: type[Event], **fields: Any) -> Event:
        self.seq += 1
        event = cls(
            event_id=self._id_factory(self.timestamp),
            table=self.table_id,
            epoch=self.epoch,
            seq=self.seq,
            timestamp=self.timestamp,
            **fields,
        )
        self.events.append(event)
        return event

    def violate(
        self, kind: ViolationKind, seat: int | None, detail: str, penalty: int = 0
    ) -> Violation:
        violation = Violation.of(kind, seat, detail, penalty)
        if self.strict:
            raise IllegalActionError(self.action, violation)
        self.violations.append(violation)
        self.emit(
            ViolationRaised,
            kind=kind.value,
            seat=seat,
            detail=detail,
            severity=violation.severity.value,
            penalty=penalty,
            action=action_to_dict(self.action) if self.action is not None else None,
        )
        return violation

    def overtimes(self, hand: HandState, records: list[OvertimeRecord]) -> None:
        """Overtime events; the penalty points are deducted when the hand ends."""
        for record in records:
            hand.penalties[record.seat] += record.penalty_points
            detail = f"{record.kind.value} time over by {record.seconds_over:g} s"
            self.violations.append(
                Violation.of(ViolationKind.OVERTIME, record.seat, detail, record.penalty_points)
            )
            self.emit(
                Overtime,
                seat=record.seat,
                scope=record.kind.value,
                seconds=record.seconds_over,
                penalty=record.penalty_points,
            )

    # -- checks -------------------------------------------------------------------------------
    def live_hand(self, seat: int | None = None, *, ended_ok: bool = False) -> HandState | None:
        """The hand in progress (or just ended, with ``ended_ok``), or None after a
        NO_HAND_IN_PROGRESS violation."""
        hand = self.hand
        if hand is None or hand.phase is Phase.IDLE or (hand.phase is Phase.ENDED and not ended_ok):
            self.violate(ViolationKind.NO_HAND_IN_PROGRESS, seat, "no hand is in progress")
            return None
        if seat is not None and seat not in range(4):
            self.violate(ViolationKind.BAD_ACTION, None, f"seat {seat!r} is not 0-3")
            return None
        return hand

    def check_size(self, hand: HandState, seat: int, expected: int) -> None:
        """Xianggong: a short hand loses the right to win, a long hand also the right to claim."""
        state = hand.seats[seat]
        size = state.size
        if size == expected or state.xianggong == "big":
            return
        if size > expected:
            state.xianggong = "big"
            self.violate(
                ViolationKind.BIG_XIANGGONG, seat, f"holds {size} tiles where {expected} are due"
            )
        elif state.xianggong is None:
            state.xianggong = "small"
            self.violate(
                ViolationKind.SMALL_XIANGGONG, seat, f"holds {size} tiles where {expected} are due"
            )

    def check_copies(self, hand: HandState, tiles: tuple[Tile | None, ...]) -> None:
        for tile in set(tiles):
            if tile is None:
                continue
            limit = 1 if tile.is_flower else 4
            seen = hand.seen_count(tile)
            if seen > limit:
                self.violate(
                    ViolationKind.FIFTH_COPY,
                    None,
                    f"{seen} copies of {tile} on the table (a set has {limit})",
                )
