"""Time limits from action timestamps: per-discard and per-hand overtime as typed records.

WSOM (digest §17.1): 15 s per discard and 3 minutes of playing time per player per hand, each
overtime costing 5 points per 15 s *or part thereof*; both apply at once; the first 15 s of a hand
are not counted. A turn runs from its start (the upper seat's discard, the claimed discard, or a
kong replacement) to the player's own discard or win declaration.

National (§17.2): 30 s for the dealer's first discard, then 15 s; the seed gives no penalty amount,
so overtime is reported with 0 points (an alert for the referee).

The clock is pure: the table feeds it timestamps (seconds, any epoch) and gets records back.

>>> clock = TurnClock(WSOM_LIMITS, hand_start=0.0)
>>> clock.on_turn_start(1, 20.0)
>>> [(o.kind.value, o.units, o.penalty_points) for o in clock.on_discard(1, 50.5)]
[('discard', 2, 10)]
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from engine.procedures import Procedure


class OvertimeKind(enum.Enum):
    DISCARD = "discard"  # one turn longer than the per-discard limit
    HAND = "hand"  # the player's playing time this hand passed the per-hand limit
    FIRST_DISCARD = "first_discard"  # national: the dealer's first discard over its own limit
    PUNG_CLAIM = "pung_claim"  # national: a pung claimed more than 3 s after the discard


@dataclass(frozen=True, slots=True)
class Overtime:
    """One overtime: who, which limit, by how many seconds, and what it costs."""

    seat: int
    kind: OvertimeKind
    seconds_over: float
    units: int
    penalty_points: int


@dataclass(frozen=True, slots=True)
class TimeLimits:
    """The limits of one procedure; ``None`` switches a limit off."""

    per_discard_s: float = 15.0
    per_hand_s: float | None = 180.0
    hand_grace_s: float = 15.0
    first_discard_s: float | None = None
    pung_claim_s: float | None = None
    unit_s: float = 15.0
    points_per_unit: int = 5

    def units_over(self, seconds: float, limit: float) -> int:
        """Started units beyond ``limit`` (exactly at the limit is not over)."""
        over = round(seconds - limit, 3)  # timestamps in ms; avoid 15.000000001
        return math.ceil(over / self.unit_s) if over > 0 else 0


WSOM_LIMITS = TimeLimits()
NATIONAL_LIMITS = TimeLimits(
    per_hand_s=None, hand_grace_s=0.0, first_discard_s=30.0, pung_claim_s=3.0, points_per_unit=0
)
NO_LIMITS = TimeLimits(per_discard_s=math.inf, per_hand_s=None, hand_grace_s=0.0, points_per_unit=0)


def limits_for(procedure: Procedure) -> TimeLimits:
    """WSOM limits for 136-tile reserved-wall procedures, national ones for flower walls."""
    if not procedure.has_wall_model:
        return NO_LIMITS
    return NATIONAL_LIMITS if procedure.flowers else WSOM_LIMITS


class ClockError(ValueError):
    """Timestamps the clock cannot use (a discard by a seat whose turn it is not)."""


class TurnClock:
    """Times the turns of one hand. Call :meth:`on_turn_start` then :meth:`on_discard` or
    :meth:`on_win`; a kong ends a turn without a discard (its time still counts for the hand) and
    the replacement starts a new one."""

    def __init__(self, limits: TimeLimits, hand_start: float, *, dealer: int = 0) -> None:
        self.limits = limits
        self.hand_start = hand_start
        self.dealer = dealer
        self._used = [0.0, 0.0, 0.0, 0.0]
        self._turn: tuple[int, float] | None = None
        self._dealer_discarded = False
        self._hand_units = [0, 0, 0, 0]
        self._points = [0, 0, 0, 0]

    def used(self, seat: int) -> float:
        """Counted playing time of ``seat`` this hand, in seconds."""
        return self._used[seat]

    @property
    def current_turn(self) -> int | None:
        return self._turn[0] if self._turn else None

    def on_turn_start(self, seat: int, t: float) -> None:
        """A turn begins; an unfinished turn (a kong, an interrupted draw) is closed first."""
        if self._turn is not None:
            self._close(t)
        self._turn = (seat, t)

    def on_discard(self, seat: int, t: float) -> list[Overtime]:
        """The seat discarded at ``t``: returns the overtimes this turn incurred."""
        return self._finish(seat, t)

    def penalty_points(self, seat: int) -> int:
        """Time-penalty points ``seat`` has incurred this hand (WSOM: >= 80 in a session is
        serious overtime)."""
        return self._points[seat]

    def on_pung(self, seat: int, discarded_at: float, t: float) -> list[Overtime]:
        """A pung claimed at ``t`` on a tile discarded at ``discarded_at`` (national: 3 s); the
        claimer's turn starts now."""
        self.on_turn_start(seat, t)
        limit = self.limits.pung_claim_s
        if limit is None:
            return []
        units = 1 if round(t - discarded_at - limit, 3) > 0 else 0
        return [self._record(seat, OvertimeKind.PUNG_CLAIM, t - discarded_at - limit, 1)] * units

    def on_win(self, seat: int, t: float) -> list[Overtime]:
        """A win declaration ends the turn like a discard (a win on a discard has no turn)."""
        if self._turn is None or self._turn[0] != seat:
            return []
        return self._finish(seat, t)

    def _finish(self, seat: int, t: float) -> list[Overtime]:
        if self._turn is None or self._turn[0] != seat:
            current = "nobody" if self._turn is None else f"seat {self._turn[0]}"
            raise ClockError(f"seat {seat} ended a turn at {t!r} but the turn is {current}'s")
        counted = self._close(t)
        out: list[Overtime] = []
        first = seat == self.dealer and not self._dealer_discarded
        if first:
            self._dealer_discarded = True
        limits = self.limits
        if first and limits.first_discard_s is not None:
            kind, limit = OvertimeKind.FIRST_DISCARD, limits.first_discard_s
        else:
            kind, limit = OvertimeKind.DISCARD, limits.per_discard_s
        units = limits.units_over(counted, limit)
        if units:
            out.append(self._record(seat, kind, counted - limit, units))
        if limits.per_hand_s is not None:
            total = self._used[seat]
            new_units = limits.units_over(total, limits.per_hand_s) - self._hand_units[seat]
            if new_units > 0:
                self._hand_units[seat] += new_units
                out.append(
                    self._record(seat, OvertimeKind.HAND, total - limits.per_hand_s, new_units)
                )
        return out

    def _close(self, t: float) -> float:
        assert self._turn is not None
        seat, start = self._turn
        self._turn = None
        counted = max(0.0, t - max(start, self.hand_start + self.limits.hand_grace_s))
        self._used[seat] += counted
        return counted

    def _record(self, seat: int, kind: OvertimeKind, over: float, units: int) -> Overtime:
        points = units * self.limits.points_per_unit
        self._points[seat] += points
        return Overtime(seat, kind, round(over, 3), units, points)
