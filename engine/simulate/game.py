"""A deterministic game simulator: complete hands as plain data for the demo, renderer and tests.

``simulate_game(find_procedure("wsom"), seed=7, hands=4)`` plays four hands. Each
:class:`SimulatedHand` carries the dice, the wall break, the whole wall in draw order (a stacked
shuffle: tiles are decided as they are drawn, so that the chosen winner really reaches a target
hand of at least 8 MCR points), the deal, and every play in order with timestamps. Some hands are
washouts by design (every fifth hand, ``washout_every``) and a plan may fail into a washout.

Plays are :class:`SimulatedPlay` records (seat, verb, tile, ...), independent of the table's
action classes; :mod:`engine.simulate.actions` converts them. Same seed, same game.

>>> from engine.procedures import WSOM
>>> from engine.simulate.types import PlayVerb
>>> game = simulate_game(WSOM, seed=1, hands=1)
>>> game.hands[0].plays[-1].verb in (PlayVerb.WIN, PlayVerb.WASHOUT)
True
"""

from __future__ import annotations

import random

from engine.procedures import Procedure
from engine.simulate.play import HandSimulator
from engine.simulate.types import DEFAULT_START, SimulatedGame, SimulatedHand


def simulate_game(
    procedure: Procedure,
    seed: int,
    hands: int,
    *,
    start: float = DEFAULT_START,
    washout_every: int = 5,
    first_dealer: int = 0,
    slow_play: float = 0.0,
) -> SimulatedGame:
    """Play ``hands`` hands; hand ``i`` is a designed washout if ``(i+1) % washout_every == 0``.

    ``slow_play`` is the chance that a discard takes 16-40 s (over WSOM's 15 s limit), so demos
    and overlays can show time alerts; by default everybody plays in time.
    """
    if not procedure.has_wall_model:
        raise ValueError(
            f"procedure {procedure.name!r} has no wall to simulate; use wsom or national"
        )
    rng = random.Random(seed)
    dealer = first_dealer % 4
    out: list[SimulatedHand] = []
    clock = start
    for index in range(hands):
        designed_washout = washout_every > 0 and (index + 1) % washout_every == 0
        hand_rng = random.Random(rng.getrandbits(64))
        sim = HandSimulator(procedure, hand_rng, dealer, index, clock, slow_play=slow_play)
        hand = sim.play(winner=None if designed_washout else rng.randrange(4))
        out.append(hand)
        clock = hand.plays[-1].at + 60.0
        dealer = procedure.next_dealer(dealer, hand.win.seat if hand.win else None)
    return SimulatedGame(procedure.name, seed, tuple(out))
