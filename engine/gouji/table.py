"""The Gouji game state machine: one game from the first lead to the finishing order.

Feed it :class:`~engine.gouji.events.Play` and :class:`~engine.gouji.events.Pass` actions as they
happen; each :meth:`GoujiGame.apply` returns the events it caused and the violations it saw. An
illegal play never raises (unless the table is strict): it is recorded and, as Art. 8(1) and
Art. 30 say, costs the offender his right to play this turn. Cards nobody holds are recorded and
ignored (most likely a misread). Turn order is seat + 1 (counter-clockwise at the table).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.gouji.cards import SEATS, Card
from engine.gouji.events import (
    CardsPlayed,
    GameOver,
    GoujiAction,
    GoujiEvent,
    Pass,
    Passed,
    Play,
    PlayerOut,
    PointFailed,
    PointOpened,
    TrickWon,
)
from engine.gouji.options import GoujiOptions
from engine.gouji.plays import PlayShape, beat_problem, is_gouji, rank_rule_problem, shape_of
from engine.gouji.responses import Duel, opposite, playing_order_after, response_order
from engine.gouji.scoring import GameResult, is_sweep, place_revolutionary, settle_finish_order
from engine.gouji.violations import GoujiViolation, IllegalPlayError
from engine.gouji.violations import GoujiViolationKind as Kind

#: 报牌 (§8): a player with this many cards or fewer must say how many when asked.
REPORT_AT = 10


@dataclass(frozen=True, slots=True)
class CurrentPlay:
    seat: int
    cards: tuple[Card, ...]
    shape: PlayShape
    gouji: bool
    tongpai: bool


@dataclass(frozen=True, slots=True)
class Step:
    """What one action did: the events it caused and the violations it raised."""

    events: tuple[GoujiEvent, ...] = ()
    violations: tuple[GoujiViolation, ...] = ()


def take_cards(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card] | None:
    """``hand`` less ``cards`` (an unsuited card matches any suit), or None if some are missing."""
    left = list(hand)
    for card in cards:
        if card in left:
            left.remove(card)
            continue
        same_rank = [c for c in left if c.rank is card.rank and None in (c.suit, card.suit)]
        if not same_rank:
            return None
        left.remove(same_rank[0])
    return left


class GoujiGame:
    """One game between six seats; ``revolutionary`` sits out (革命, §13)."""

    def __init__(
        self,
        hands: Sequence[Sequence[Card]],
        leader: int,
        options: GoujiOptions | None = None,
        *,
        revolutionary: int | None = None,
        strict: bool = False,
    ) -> None:
        if len(hands) != SEATS:
            raise ValueError(f"Gouji needs six hands, got {len(hands)}")
        if leader == revolutionary or not 0 <= leader < SEATS:
            raise ValueError(f"leader must be a playing seat 0-5, got {leader!r}")
        self.options = options or GoujiOptions()
        self.hands: list[list[Card]] = [list(hand) for hand in hands]
        self.revolutionary = revolutionary
        self.strict = strict
        self.finished: list[int] = []
        self.opened: set[int] = set()
        self.point_failures: list[int] = []
        self.current: CurrentPlay | None = None
        self.duel: Duel | None = None
        self.passed: set[int] = set()
        self.queue: list[int] = [leader]
        self.result: GameResult | None = None

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still holding cards and playing."""
        gone = {*self.finished, self.revolutionary}
        return tuple(seat for seat in range(SEATS) if seat not in gone)

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def to_act(self) -> int | None:
        return None if self.over or not self.queue else self.queue[0]

    def report(self, seat: int) -> int | None:
        """报牌: the card count ``seat`` must give when asked (None above ten or under 憋三)."""
        left = len(self.hands[seat])
        return left if left <= REPORT_AT and not self.options.bie_san else None

    def apply(self, action: GoujiAction) -> Step:
        problem = self._turn_problem(action)
        if problem is not None:
            return self._reject(action, problem)
        if isinstance(action, Pass):
            return Step(self._pass(action.seat))
        return self._play(action)

    def _turn_problem(self, action: GoujiAction) -> GoujiViolation | None:
        seat = getattr(action, "seat", None)
        if not isinstance(action, Play | Pass) or not isinstance(seat, int):
            return GoujiViolation.of(Kind.BAD_ACTION, None, f"not a Gouji action: {action!r}")
        if self.over:
            return GoujiViolation.of(Kind.GAME_OVER, seat, "the game is over")
        if seat not in self.active:
            return GoujiViolation.of(Kind.PLAYER_OUT, seat, f"seat {seat} is not playing")
        current = self.current
        if seat != self.to_act:
            if current is not None and current.tongpai and seat != opposite(current.seat):
                detail = f"only seat {opposite(current.seat)} may answer a 通牌"
                return GoujiViolation.of(Kind.TONGPAI_ANSWER, seat, detail)
            burner = current is not None and seat != current.seat and seat not in self.queue
            if self.duel is not None and burner and isinstance(action, Play):
                detail = "a burn after passing, or before opening (开点), is not allowed"
                return GoujiViolation.of(Kind.BURN_NOT_ALLOWED, seat, detail)
            return GoujiViolation.of(Kind.OUT_OF_TURN, seat, f"seat {self.to_act} is to act")
        if isinstance(action, Pass) and current is None:
            return GoujiViolation.of(Kind.PASS_ON_LEAD, seat, "the leader must play")
        return None

    def _reject(
        self, action: GoujiAction, problem: GoujiViolation, *, forfeit: bool = False
    ) -> Step:
        seat = getattr(action, "seat", None)
        violation = replace(problem, seat=seat) if problem.seat is None else problem
        if self.strict:
            raise IllegalPlayError(action, violation)
        events: tuple[GoujiEvent, ...] = ()
        if forfeit and isinstance(seat, int):
            events = self._forfeit(seat)
        return Step(events, (violation,))

    def _forfeit(self, seat: int) -> tuple[GoujiEvent, ...]:
        """A wrong play: the right to play passes to the 下手 (Art. 8(1))."""
        if self.current is not None:
            return self._pass(seat)
        following = playing_order_after(seat, self.active)
        self.queue = [following[0]] if following else [seat]
        return (Passed(seat),)

    def _play(self, action: Play) -> Step:
        seat, cards = action.seat, tuple(action.cards)
        hand = self.hands[seat]
        remaining = take_cards(hand, cards)
        if remaining is None:
            detail = f"seat {seat} does not hold all of {' '.join(map(str, cards))}"
            return self._reject(action, GoujiViolation.of(Kind.CARDS_NOT_IN_HAND, seat, detail))
        shape = shape_of(cards)
        if isinstance(shape, GoujiViolation):
            return self._reject(action, shape, forfeit=True)
        problem = beat_problem(shape, self.current.shape) if self.current is not None else None
        problem = problem or rank_rule_problem(shape, hand, self.options)
        if problem is not None:
            return self._reject(action, problem, forfeit=True)
        gouji = is_gouji(shape, self.options)
        self.hands[seat] = remaining
        events: list[GoujiEvent] = [
            CardsPlayed(seat, cards, self._role(seat), gouji, not remaining, len(remaining))
        ]
        self.current = CurrentPlay(seat, cards, shape, gouji, not remaining)
        if not remaining:
            events += self._finish(seat)
            if self.over:
                return Step(tuple(events))
        responses = response_order(
            seat,
            gouji=gouji,
            tongpai=not remaining,
            duel=self.duel,
            active=self.active,
            finished=self.finished,
            passed=self.passed,
            opened=self.opened,
            options=self.options,
        )
        self.duel = responses.duel
        self.queue = list(responses.order)
        if not self.queue:
            events += self._end_trick()
        return Step(tuple(events))

    def _role(self, seat: int) -> str:
        if self.current is None:
            return "lead"
        duel = self.duel
        if duel is None:
            return "follow"
        if seat == duel.target:
            return "answer" if self.current.seat == duel.aggressor else "unburn"
        return "burn"

    def _pass(self, seat: int) -> tuple[GoujiEvent, ...]:
        self.passed.add(seat)
        if seat in self.queue:
            self.queue.remove(seat)
        if self.queue:
            return (Passed(seat),)
        return (Passed(seat), *self._end_trick())

    def _end_trick(self) -> list[GoujiEvent]:
        assert self.current is not None
        winner = self.current.seat
        events: list[GoujiEvent] = []
        if self.current.gouji and winner not in self.opened:
            self.opened.add(winner)
            if self.options.kaidian and winner not in self.point_failures:
                events.append(PointOpened(winner))
        leader = winner if winner in self.active else self._next_leader(winner)
        self.current, self.duel = None, None
        self.passed.clear()
        self.queue = [leader] if leader is not None else []
        events.append(TrickWon(winner, leader))
        return events

    def _next_leader(self, winner: int) -> int | None:
        following = playing_order_after(winner, self.active)
        if self.options.lead_after_out == "next-ally":
            following.sort(key=lambda seat: seat % 2 != winner % 2)
        return following[0] if following else None

    def _placed(self, finished: Sequence[int]) -> list[int]:
        if self.revolutionary is None:
            return list(finished)
        return place_revolutionary(finished, self.revolutionary, self.options.revolutionary_place)

    def _finish(self, seat: int) -> list[GoujiEvent]:
        self.finished.append(seat)
        placed = self._placed(self.finished)
        events: list[GoujiEvent] = [PlayerOut(seat, placed.index(seat) + 1)]
        if self.options.kaidian:
            events += self._point_failures(seat)
        sweep = self.options.sweep_ends_game and len(placed) >= 3 and is_sweep(placed)
        if len(self.active) <= 1 or sweep:
            events.append(self._game_over())
        return events

    def _point_failures(self, out: int) -> list[GoujiEvent]:
        """不开点 (§11): the 对头 of a finisher who never opened; at the 二科, all but 头科."""
        failing: list[tuple[int, str]] = []
        target = opposite(out)
        if target in self.active and target not in self.opened:
            failing.append((target, f"his 对头 (seat {out}) went out before he opened"))
        if len(self.finished) == 2:
            first = self.finished[0]
            for seat in range(SEATS):
                if seat not in (first, self.revolutionary) and seat not in self.opened:
                    failing.append((seat, "not opened when the 二科 went out"))
        events: list[GoujiEvent] = []
        for seat, reason in failing:
            if seat not in self.point_failures:
                self.point_failures.append(seat)
                events.append(PointFailed(seat, reason))
        return events

    def _game_over(self) -> GameOver:
        last = self.finished[-1]
        rank_after = {seat: i for i, seat in enumerate(playing_order_after(last, range(SEATS)))}
        remaining = sorted(self.active, key=lambda seat: (len(self.hands[seat]), rank_after[seat]))
        self.result = settle_finish_order(self._placed([*self.finished, *remaining]))
        self.queue = []
        return GameOver(self.result.finish_order, self.result.scores, self.result.sweep)
