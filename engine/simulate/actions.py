"""Simulated plays as table actions, so a simulated game replays through engine.table.Table.

>>> from engine.procedures import WSOM
>>> from engine.simulate import simulate_game
>>> actions = to_actions(simulate_game(WSOM, seed=2, hands=1).hands[0])
>>> actions[0].name, actions[1].name
('hand_start', 'deal')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine import actions as act
from engine.notation import Hand
from engine.procedures import find_procedure
from engine.simulate.game import simulate_game
from engine.simulate.types import PlayVerb, SimulatedGame, SimulatedHand, SimulatedPlay


@dataclass(frozen=True)
class DemoHand:
    """One simulated hand as table actions, with what the demo's live log announces before it."""

    number: int
    dice: tuple[int, ...]
    dealer: int
    actions: tuple[act.Action, ...]


def demo_hands(procedure: str, seed: int, hands: int) -> Iterator[DemoHand]:
    """The simulator's deterministic ``hands`` hands under ``procedure``, as table actions: what
    the demo plays, and the tests, benchmarks and camera evaluations replay."""
    game = simulate_game(find_procedure(procedure), seed=seed, hands=hands)
    for hand in game.hands:
        yield DemoHand(hand.index + 1, hand.dice, hand.dealer, tuple(to_actions(hand)))


def to_actions(
    hand: SimulatedHand, *, with_wall: bool = True, reveal: bool = False
) -> list[act.Action]:
    """The actions of one hand. ``with_wall`` passes the wall order and dice (full information:
    the table checks every draw against it); ``reveal`` adds the winner's concealed hand to the
    win, as a camera-only table needs it."""
    out: list[act.Action] = [
        act.HandStart(
            at=hand.start,
            procedure=hand.procedure,
            dealer=hand.dealer,
            prevalent_wind=hand.prevailing_wind,
            dice=hand.dice if with_wall else (),
            wall=hand.wall if with_wall else None,
            hand_number=hand.index + 1,
        )
    ]
    for play in hand.plays:
        out.append(_action(hand, play, reveal))
    return out


def game_to_actions(game: SimulatedGame, **options: bool) -> Iterator[act.Action]:
    for hand in game.hands:
        yield from to_actions(hand, **options)


def _action(hand: SimulatedHand, play: SimulatedPlay, reveal: bool) -> act.Action:
    at, seat, tile = play.at, play.seat, play.tile
    verb = play.verb
    if verb is PlayVerb.WASHOUT:
        return act.Washout(at=at)
    assert seat is not None, play
    if verb is PlayVerb.DEAL:
        return act.Deal(at=at, seat=seat, tiles=play.tiles)
    if verb is PlayVerb.DRAW:
        return act.Draw(at=at, seat=seat, tile=tile, replacement=play.replacement)
    if verb is PlayVerb.WIN:
        declared = None
        if reveal and hand.win is not None:
            declared = Hand(hand.win.hand.concealed, hand.win.hand.melds)
        return act.Win(at=at, seat=seat, tile=tile, hand=declared)
    if verb is PlayVerb.CHOW:
        return act.Chow(at=at, seat=seat, tiles=play.tiles, tile=tile)
    assert tile is not None, play
    simple: dict[PlayVerb, type[act.Action]] = {
        PlayVerb.DISCARD: act.Discard,
        PlayVerb.PUNG: act.Pung,
        PlayVerb.KONG: act.Kong,
        PlayVerb.CONCEALED_KONG: act.ConcealedKong,
        PlayVerb.ADDED_KONG: act.AddedKong,
        PlayVerb.FLOWER: act.Flower,
    }
    return simple[verb](at=at, seat=seat, tile=tile)  # type: ignore[call-arg]
