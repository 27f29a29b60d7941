"""Finishing places, game scores, alliance totals and the match to 12 (digest §9, §10).

Places in finishing order: 头科 +4, 二科 +2, 三科 0, 四科 0, 二落 −2, 大落 −4 (Art. 20). An
alliance's game result is the sum over its three seats (0/2/4 and 1/3/5), so the two totals are
opposite numbers. Only the winning side records its positive total (Art. 20: "only the positive
score is recorded"); the first alliance to accumulate ``match_target`` (12) wins the match.

>>> settle_finish_order([0, 2, 4, 1, 3, 5]).alliances
(6, -6)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.gouji.cards import SEATS

PLACE_SCORES: tuple[int, ...] = (4, 2, 0, 0, -2, -4)
PLACE_NAMES: tuple[str, ...] = ("头科", "二科", "三科", "四科", "二落", "大落")


class FinishOrderError(ValueError):
    """A finishing order that is not the six seats 0-5 once each; the message quotes it."""


def check_finish_order(order: Sequence[object]) -> tuple[int, ...]:
    """The order as seats, or FinishOrderError naming what is wrong with it."""
    if isinstance(order, str | bytes) or not isinstance(order, Sequence):
        raise FinishOrderError(f"finish_order must be a list of six seats, got {order!r}")
    seats: list[int] = []
    for seat in order:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
            raise FinishOrderError(f"seats are whole numbers 0-5, got {seat!r} in {order!r}")
        seats.append(seat)
    if len(seats) != SEATS or len(set(seats)) != SEATS:
        raise FinishOrderError(f"finish_order must name each seat 0-5 once, got {order!r}")
    return tuple(seats)


def is_sweep(order: Sequence[int]) -> bool:
    """三家连: one alliance took 头科, 二科 and 三科."""
    return len(order) >= 3 and len({seat % 2 for seat in order[:3]}) == 1


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game settled: scores by seat, alliance totals, and whether it was a 三家连."""

    finish_order: tuple[int, ...]
    scores: tuple[int, ...]
    alliances: tuple[int, int]
    sweep: bool

    def place_of(self, seat: int) -> int:
        """1 for 头科 … 6 for 大落."""
        return self.finish_order.index(seat) + 1

    @property
    def last(self) -> int:
        """The 大落: he leads the next game after a regular opening (§3)."""
        return self.finish_order[-1]


def settle_finish_order(order: Sequence[object]) -> GameResult:
    """Scores of one game from its finishing order (FinishOrderError for a bad order)."""
    seats = check_finish_order(order)
    scores = [0] * SEATS
    for place, seat in enumerate(seats):
        scores[seat] = PLACE_SCORES[place]
    alliances = (sum(scores[0::2]), sum(scores[1::2]))
    return GameResult(seats, tuple(scores), alliances, is_sweep(seats))


@dataclass(frozen=True, slots=True)
class MatchScore:
    """Points each alliance has accumulated; ``winner`` once one reaches the target."""

    target: int = 12
    points: tuple[int, int] = (0, 0)
    games: int = 0

    @property
    def winner(self) -> int | None:
        for side in (0, 1):
            if self.points[side] >= self.target:
                return side
        return None

    def record(self, result: GameResult) -> MatchScore:
        """The score after one more game: the side with a positive total adds it.

        >>> MatchScore().record(settle_finish_order([0, 1, 2, 3, 4, 5])).points
        (2, 0)
        """
        if self.winner is not None:
            raise ValueError(f"the match is over: alliance {self.winner} reached {self.target}")
        points = list(self.points)
        for side in (0, 1):
            points[side] += max(0, result.alliances[side])
        return replace(self, points=(points[0], points[1]), games=self.games + 1)


def place_revolutionary(finished: Sequence[int], revolutionary: int, place: int) -> list[int]:
    """Finishing order with a revolutionary (革命, §13) put at ``place`` (4: 四科), or at
    三科 when his two allies took 头科 and 二科 (his side then has a 三家连). While fewer
    players are out than his place needs, he is not placed yet.

    >>> place_revolutionary([0, 2], 4, 4)
    [0, 2, 4]
    """
    order = list(finished)
    allies = {revolutionary % 2}
    allies_on_top = len(order) >= 2 and {order[0] % 2, order[1] % 2} == allies
    index = 2 if allies_on_top else place - 1
    if index <= len(order):
        order.insert(index, revolutionary)
    return order
