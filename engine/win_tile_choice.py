"""The winning tile of a self-drawn win whose draw no one saw.

A camera sees a self-drawn hand laid down as 14 tiles, not which of them was drawn. Each kind
the hand holds is tried as the winning tile and the one that scores the most is taken (a legal
reading first, then the total): the reading most favourable to the winner, which a referee can
correct. The win is published with ``win_tile_inferred``.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.rulesets import ScoreResult
from engine.tiles import Tile


def best_win_tile(
    tiles: tuple[Tile, ...], score: Callable[[Tile, tuple[Tile, ...]], ScoreResult | None]
) -> tuple[Tile, tuple[Tile, ...]]:
    """``tiles``: the whole concealed hand, winning tile included; ``score(win_tile, rest)``
    scores one reading (None: no rule set). Returns the chosen tile and the hand without it."""
    best: tuple[tuple[bool, int], Tile, tuple[Tile, ...]] | None = None
    for kind in dict.fromkeys(tiles):
        rest = list(tiles)
        rest.remove(kind)
        result = score(kind, tuple(rest))
        rank = (result.valid, result.total) if result is not None else (False, 0)
        if best is None or rank > best[0]:
            best = (rank, kind, tuple(rest))
    if best is None:
        raise ValueError("a self-drawn win needs at least one concealed tile")
    return best[1], best[2]
