"""The ``qujing`` table procedure: 136 tiles, whole wall drawn, two face-up tail tiles.

The dice and break are not described by seed 002, so the standard two-roll break with 17-stack
walls is used (digest §1). No tiles are reserved: the whole wall is drawn and the last four tiles
exist as a concept for the must-win rule. Kong replacements come from the tail and, under the
default reading, a kong takes either face-up tail tile (``Wall.draw_replacement(pick=0|1)``);
see :mod:`engine.qujing.tail` for which picks each reading allows. The first winner deals next;
several winners on one discard are settled by the rule set's ``next_dealer`` (the discarder deals).
"""

from __future__ import annotations

from engine.procedures import (
    BreakMethod,
    DealerRotation,
    Procedure,
    procedure_names,
    register_procedure,
)

REVEALED_TAIL_TILES = 2

QUJING_PROCEDURE = Procedure(
    name="qujing",
    tile_count=136,
    stacks_per_side=17,
    reserved_tiles=0,
    break_method=BreakMethod.TWO_ROLLS,
    dealer_rotation=DealerRotation.WINNER_DEALS,
    revealed_tail_tiles=REVEALED_TAIL_TILES,
    aliases=("qj",),
    description="Qujing (seed 002): 136 tiles, whole wall drawn, two face-up tail tiles for kongs",
)

if QUJING_PROCEDURE.name not in procedure_names():
    register_procedure(QUJING_PROCEDURE)
