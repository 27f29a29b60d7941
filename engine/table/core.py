"""The shared core of the table state machine: configuration, events, violations, checks.

:class:`engine.table.Table` is assembled from this core and the claim and win mixins
(:mod:`engine.table.claims`, :mod:`engine.table.wins`) so each stays a readable size.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.actions import Action, action_to_dict
from engine.events import Event, make_event_id
from engine.procedures import Procedure
from engine.rulesets import RuleSet
from engine.table.events import HandEnded, Overtime, ViolationRaised
from engine.table.rules_api import table_rules_of
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


class TableCore:
    """State and helpers shared by the table's modules (not used on its own)."""

    procedure: Procedure
    rules: RuleSet | None
    table_id: str
    strict: bool
    epoch: int
    seq: int
    scores: list[int]
    hand: HandState | None
    wall: WallTracker
    hands_played: int
    next_dealer: int
    _id_factory: IdFactory
    _events: list[Event]
    _violations: list[Violation]
    _action: Action | None
    _timestamp: float
    timer: TableTimer

    # -- output -------------------------------------------------------------------------------
    def _emit(self, cls: type[Event], **fields: Any) -> Event:
        self.seq += 1
        event = cls(
            event_id=self._id_factory(self._timestamp),
            table=self.table_id,
            epoch=self.epoch,
            seq=self.seq,
            timestamp=self._timestamp,
            **fields,
        )
        self._events.append(event)
        return event

    def _violate(
        self, kind: ViolationKind, seat: int | None, detail: str, penalty: int = 0
    ) -> Violation:
        violation = Violation.of(kind, seat, detail, penalty)
        if self.strict:
            raise IllegalActionError(self._action, violation)
        self._violations.append(violation)
        self._emit(
            ViolationRaised,
            kind=kind.value,
            seat=seat,
            detail=detail,
            severity=violation.severity.value,
            penalty=penalty,
            action=action_to_dict(self._action) if self._action is not None else None,
        )
        return violation

    def _overtimes(self, hand: HandState, records: list[OvertimeRecord]) -> None:
        """Overtime events; the penalty points are deducted when the hand ends."""
        for record in records:
            hand.penalties[record.seat] += record.penalty_points
            detail = f"{record.kind.value} time over by {record.seconds_over:g} s"
            self._violations.append(
                Violation.of(ViolationKind.OVERTIME, record.seat, detail, record.penalty_points)
            )
            self._emit(
                Overtime,
                seat=record.seat,
                scope=record.kind.value,
                seconds=record.seconds_over,
                penalty=record.penalty_points,
            )

    # -- checks -------------------------------------------------------------------------------
    def _live_hand(self, seat: int | None = None, *, ended_ok: bool = False) -> HandState | None:
        """The hand in progress (or just ended, with ``ended_ok``), or None after a
        NO_HAND_IN_PROGRESS violation."""
        hand = self.hand
        if hand is None or hand.phase is Phase.IDLE or (hand.phase is Phase.ENDED and not ended_ok):
            self._violate(ViolationKind.NO_HAND_IN_PROGRESS, seat, "no hand is in progress")
            return None
        if seat is not None and seat not in range(4):
            self._violate(ViolationKind.BAD_ACTION, None, f"seat {seat!r} is not 0-3")
            return None
        return hand

    def _check_size(self, hand: HandState, seat: int, expected: int) -> None:
        """Xianggong: a short hand loses the right to win, a long hand also the right to claim."""
        state = hand.seats[seat]
        size = state.size
        if size == expected or state.xianggong == "big":
            return
        if size > expected:
            state.xianggong = "big"
            self._violate(
                ViolationKind.BIG_XIANGGONG, seat, f"holds {size} tiles where {expected} are due"
            )
        elif state.xianggong is None:
            state.xianggong = "small"
            self._violate(
                ViolationKind.SMALL_XIANGGONG, seat, f"holds {size} tiles where {expected} are due"
            )

    def _check_copies(self, hand: HandState, tiles: tuple[Tile | None, ...]) -> None:
        for tile in set(tiles):
            if tile is None:
                continue
            limit = 1 if tile.is_flower else 4
            seen = hand.seen_count(tile)
            if seen > limit:
                self._violate(
                    ViolationKind.FIFTH_COPY,
                    None,
                    f"{seen} copies of {tile} on the table (a set has {limit})",
                )

    # -- hand end -----------------------------------------------------------------------------
    def _end_hand(self, hand: HandState, result: str) -> None:
        deltas = [d - p for d, p in zip(hand.deltas, hand.penalties, strict=True)]
        self.scores = [s + d for s, d in zip(self.scores, deltas, strict=True)]
        hand.phase = Phase.ENDED
        self.hands_played += 1
        winner = hand.winners[0] if hand.winners else None
        several = len(hand.winners) > 1 and hand.last_discard_win is not None
        discarder = hand.last_discard_win[0] if several and hand.last_discard_win else None
        ruled = table_rules_of(self.rules).next_dealer(
            hand.dealer, list(hand.winners), discarder=discarder
        )
        self.next_dealer = (
            ruled if ruled is not None else self.procedure.next_dealer(hand.dealer, winner)
        )
        self._emit(
            HandEnded,
            hand_number=hand.number,
            result=result,
            winners=tuple(hand.winners),
            deltas=tuple(deltas),
            penalties=tuple(hand.penalties),
            scores=tuple(self.scores),
        )
