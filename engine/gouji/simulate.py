"""A deterministic simulator of whole Gouji games and matches, for tests and the demo.

``simulate_game(seed=7)`` opens, deals, applies 会三 / 买三 / revolution / tribute as the options
say, and plays to the finishing order through a strict :class:`GoujiGame` (an illegal play would
raise). ``simulate_match(seed=7)`` plays games until an alliance reaches the match target. Same
seed, same games.

>>> game = simulate_game(seed=1)
>>> len(game.result.finish_order), sum(game.result.scores)
(6, 0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.actions import Action
from engine.gouji.cards import SEATS, Card, Rank
from engine.gouji.events import GoujiAction, GoujiEvent, Pass, Play
from engine.gouji.notation import format_cards
from engine.gouji.opening import (
    Hands,
    Purchase,
    buy_rank,
    deal,
    first_opening,
    leader_by_threes,
    may_revolt,
    meet_cards,
    revolution_outcome,
    shuffled_deck,
)
from engine.gouji.options import GoujiOptions
from engine.gouji.responses import alliance
from engine.gouji.scoring import GameResult, MatchScore
from engine.gouji.simulate_strategy import choose_answer, choose_lead
from engine.gouji.table import GoujiGame
from engine.gouji.table_events import GoujiPass, GoujiPlay, GoujiStart
from engine.gouji.tribute import CardGiven, pay_tribute, return_tribute, tribute_due

MAX_ACTIONS = 5000
MAX_REDEALS = 20


@dataclass(frozen=True, slots=True)
class SimulatedGame:
    """One game as plain data: how it opened, the hands at the first lead, every action."""

    seed: int
    first_taker: int
    leader: int
    reopened: bool
    dealt: Hands
    hands: Hands
    set_aside: tuple[Card, ...]
    revolutionary: int | None
    purchases: tuple[Purchase, ...]
    tribute: tuple[CardGiven, ...]
    actions: tuple[GoujiAction, ...]
    events: tuple[GoujiEvent, ...]
    result: GameResult
    point_failures: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SimulatedMatch:
    seed: int
    games: tuple[SimulatedGame, ...]
    score: MatchScore = field(default_factory=MatchScore)


def simulate_game(
    seed: int,
    options: GoujiOptions | None = None,
    *,
    previous: SimulatedGame | None = None,
    revolt_chance: float = 0.5,
) -> SimulatedGame:
    """One game; ``previous`` decides the opening (its 大落 leads) and the tribute owed."""
    options = options or GoujiOptions()
    rng = random.Random(seed)
    reopen = previous is None or (previous.result.sweep and options.sweep_reopens_without_tribute)
    for _ in range(MAX_REDEALS):
        first_taker, leader = _opening(rng, options, previous, reopen)
        dealt = deal(shuffled_deck(rng), first_taker)
        if reopen and not options.bie_san:  # 上班 by showing 3s (§4)
            shown = leader_by_threes(dealt, first_taker)
            leader = shown[-1].seat if shown else first_taker
        outcome = _revolution(dealt, options, rng, revolt_chance)
        if outcome != "redeal":
            break
        reopen = True
    else:
        raise RuntimeError(f"seed {seed}: no deal without a double revolution")
    revolutionary = outcome if isinstance(outcome, int) else None
    if leader == revolutionary:
        leader = (leader + 1) % SEATS
    hands: Hands = dealt
    set_aside: tuple[Card, ...] = ()
    met = [Rank.THREE] * options.meet_threes + [Rank.FOUR] * options.meet_fours
    if met and not options.bie_san:  # 会三 / 会四; not under 憋三 (Art. 26(4))
        hands, set_aside = meet_cards(hands, met, leader, options)
    given: list[CardGiven] = []
    if previous is not None and not reopen:
        dues = tribute_due(previous.result, options, point_failures=previous.point_failures)
        hands, paid = pay_tribute(hands, dues)
        hands, back = return_tribute(hands, paid, options)
        given = paid + back
    purchases: list[Purchase] = []
    if options.bie_san:
        for rank in (Rank.THREE, Rank.FOUR) if options.buy_fours else (Rank.THREE,):
            hands, bought = buy_rank(hands, rank, leader)
            purchases += bought
    game = GoujiGame(hands, leader, options, revolutionary=revolutionary, strict=True)
    actions, events = _play_out(game, options, rng)
    assert game.result is not None
    return SimulatedGame(
        seed=seed,
        first_taker=first_taker,
        leader=leader,
        reopened=reopen,
        dealt=dealt,
        hands=hands,
        set_aside=set_aside,
        revolutionary=revolutionary,
        purchases=tuple(purchases),
        tribute=tuple(given),
        actions=tuple(actions),
        events=tuple(events),
        result=game.result,
        point_failures=tuple(game.point_failures),
    )


def simulate_short_game(
    seed: int, cards_per_seat: int, options: GoujiOptions | None = None
) -> SimulatedGame:
    """A short game for quick looks and tests: ``cards_per_seat`` cards dealt to each seat from
    the shuffled packs, a seeded leader, no opening ceremony, revolution or tribute."""
    if not 1 <= cards_per_seat <= 36:
        raise ValueError(f"cards per seat must be 1..36, got {cards_per_seat}")
    options = options or GoujiOptions()
    rng = random.Random(seed)
    deck = shuffled_deck(rng)
    hands = tuple(
        tuple(deck[seat * cards_per_seat : (seat + 1) * cards_per_seat]) for seat in range(SEATS)
    )
    leader = rng.randrange(SEATS)
    game = GoujiGame(hands, leader, options, strict=True)
    actions, events = _play_out(game, options, rng)
    assert game.result is not None
    return SimulatedGame(
        seed=seed,
        first_taker=leader,
        leader=leader,
        reopened=True,
        dealt=hands,
        hands=hands,
        set_aside=(),
        revolutionary=None,
        purchases=(),
        tribute=(),
        actions=tuple(actions),
        events=tuple(events),
        result=game.result,
        point_failures=tuple(game.point_failures),
    )


def _opening(
    rng: random.Random, options: GoujiOptions, previous: SimulatedGame | None, reopen: bool
) -> tuple[int, int]:
    """(first taker, leader). 憋三 passes the opening on a seat each game (Art. 26(1))."""
    if options.bie_san and previous is not None:
        taker = (previous.first_taker + 1) % SEATS
        return taker, taker
    if reopen or previous is None:
        drawer = rng.randrange(SEATS) if previous is None else (previous.first_taker + 1) % SEATS
        taker = first_opening(rng, drawer, options)
        return taker, taker
    last = previous.result.last
    return last, last


def _revolution(
    hands: Hands, options: GoujiOptions, rng: random.Random, chance: float
) -> int | str | None:
    if not options.revolution or (options.bie_san and not options.revolution_under_bie_san):
        return None
    declarers = [seat for seat in range(SEATS) if may_revolt(hands[seat]) and rng.random() < chance]
    return revolution_outcome(declarers)


def _play_out(
    game: GoujiGame, options: GoujiOptions, rng: random.Random
) -> tuple[list[GoujiAction], list[GoujiEvent]]:
    actions: list[GoujiAction] = []
    events: list[GoujiEvent] = []
    while not game.over:
        if len(actions) >= MAX_ACTIONS:
            raise RuntimeError("the simulated game did not end")
        seat = game.to_act
        assert seat is not None
        hand = game.hands[seat]
        current = game.current
        action: GoujiAction
        if current is None:
            action = Play(seat, choose_lead(hand, options))
        elif alliance(current.seat) == alliance(seat):
            action = Pass(seat)
        else:
            cards = choose_answer(hand, current.shape, options, rng)
            action = Pass(seat) if cards is None else Play(seat, cards)
        actions.append(action)
        events += game.apply(action).events
    return actions, events


def simulate_match(
    seed: int, options: GoujiOptions | None = None, *, max_games: int = 60
) -> SimulatedMatch:
    """Games until an alliance has ``match_target`` points (or ``max_games`` were played)."""
    options = options or GoujiOptions()
    rng = random.Random(seed)
    score = MatchScore(target=options.match_target)
    games: list[SimulatedGame] = []
    previous: SimulatedGame | None = None
    while score.winner is None and len(games) < max_games:
        previous = simulate_game(rng.getrandbits(64), options, previous=previous)
        games.append(previous)
        score = score.record(previous.result)
    return SimulatedMatch(seed, tuple(games), score)


def table_actions(game: SimulatedGame) -> list[Action]:
    """The game as a service's table gets it: a start with the hands, then each play or pass
    (``at`` unset: the service stamps each action as it applies it)."""
    start = GoujiStart(
        hands=tuple(format_cards(hand) for hand in game.hands),
        leader=game.leader,
        revolutionary=game.revolutionary,
    )
    moves: list[Action] = [
        GoujiPlay(seat=a.seat, cards=format_cards(a.cards))
        if isinstance(a, Play)
        else GoujiPass(seat=a.seat)
        for a in game.actions
    ]
    return [start, *moves]
