"""Time limits at the table: feeds :class:`engine.timing.TurnClock` from action timestamps.

Timing runs only for hands whose start carries a timestamp (``at``); actions without one are not
timed. A turn starts at the upper seat's discard (or the claimed discard, or a kong replacement)
and ends with the seat's discard or self-drawn win; overtimes become ``Overtime`` events and
penalty points deducted at the end of the hand.
"""

from __future__ import annotations

from engine.procedures import Procedure
from engine.timing import ClockError, Overtime, TurnClock, limits_for


class TableTimer:
    def __init__(self, procedure: Procedure, start: float | None, dealer: int) -> None:
        self.clock: TurnClock | None = None
        self.last_discard_at: float | None = None
        if start is not None:
            self.clock = TurnClock(limits_for(procedure), hand_start=start, dealer=dealer)
            self.clock.on_turn_start(dealer, start)

    def turn_starts(self, seat: int, at: float | None) -> None:
        if self.clock is not None and at is not None:
            self.clock.on_turn_start(seat, at)

    def claimed(self, seat: int, at: float | None) -> None:
        """A claim: the claimer's turn began when the claimed tile was discarded."""
        start = self.last_discard_at if self.last_discard_at is not None else at
        self.turn_starts(seat, start)

    def discarded(self, seat: int, at: float | None) -> list[Overtime]:
        if at is not None:
            self.last_discard_at = at
        return self._end(seat, at, win=False)

    def won(self, seat: int, at: float | None) -> list[Overtime]:
        return self._end(seat, at, win=True)

    def _end(self, seat: int, at: float | None, *, win: bool) -> list[Overtime]:
        if self.clock is None or at is None:
            return []
        try:
            done = self.clock.on_win(seat, at) if win else self.clock.on_discard(seat, at)
        except ClockError:  # out of turn: already a violation of its own
            return []
        if not win:
            self.clock.on_turn_start((seat + 1) % 4, at)
        return done
