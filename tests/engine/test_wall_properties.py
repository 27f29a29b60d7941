"""Hypothesis: tiles are conserved and counts stay consistent under any draw sequence."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.procedures import LOG, NATIONAL, WSOM
from engine.tiles import Tile
from engine.wall import Wall, WallExhaustedError, procedure_tiles

PROCEDURES = st.sampled_from([WSOM, NATIONAL, LOG])


@settings(max_examples=150, deadline=None)
@given(
    procedure=PROCEDURES,
    seed=st.integers(0, 2**32 - 1),
    moves=st.lists(st.booleans(), max_size=160),
)
def test_tiles_are_conserved(procedure: object, seed: int, moves: list[bool]) -> None:
    assert procedure in (WSOM, NATIONAL, LOG)
    wall = Wall.shuffled(procedure, random.Random(seed))  # type: ignore[arg-type]
    taken: list[Tile | None] = [t for hand in wall.deal() for t in hand]
    for replacement in moves:
        before = wall.live
        if before == 0:
            try:
                wall.draw_replacement() if replacement else wall.draw()
            except WallExhaustedError:
                pass
            else:  # pragma: no cover - reported by the assertion below
                raise AssertionError("drew past the live wall")
            continue
        was_last = wall.next_is_last
        taken.append(wall.draw_replacement() if replacement else wall.draw())
        assert wall.live == before - 1
        assert was_last == wall.exhausted
        counts = wall.counts()
        assert counts.dealt + counts.drawn + counts.replacements + counts.remaining == counts.total
        assert counts.reserved == min(wall.procedure.reserved_tiles, counts.remaining)
        assert len(wall.reserved_indices()) == counts.reserved
    left = [wall.order()[i] for i in wall.remaining_indices()]
    assert Counter(taken) + Counter(left) == Counter(procedure_tiles(wall.procedure))
    assert wall.dealt + wall.drawn + wall.replacements <= wall.procedure.live_tiles
