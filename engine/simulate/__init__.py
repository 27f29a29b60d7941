"""The deterministic game simulator: complete hands as plain data for the demo, renderer and tests.

:func:`simulate_game` (:mod:`engine.simulate.game`) plays the hands; :mod:`~engine.simulate.play`
runs one hand over a stacked wall (:mod:`~engine.simulate.supply`) towards the winner's target
(:mod:`~engine.simulate.targets`, claims and kongs in :mod:`~engine.simulate.melds`); the records
are in :mod:`~engine.simulate.types`; :mod:`~engine.simulate.actions` turns them into table
actions (``demo_hands``).
"""

from engine.simulate.game import simulate_game
from engine.simulate.types import (
    DEFAULT_START,
    PlayVerb,
    SimulatedGame,
    SimulatedHand,
    SimulatedPlay,
    SimulatedWin,
    winning_shape_problem,
)

__all__ = [
    "DEFAULT_START",
    "PlayVerb",
    "SimulatedGame",
    "SimulatedHand",
    "SimulatedPlay",
    "SimulatedWin",
    "simulate_game",
    "winning_shape_problem",
]
