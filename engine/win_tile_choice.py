"""The winning tile of a win whose last tile no one saw: a self-drawn win's unseen draw, or
a win on a discard the camera never read.

A camera sees such a hand laid down as 14 tiles, not which of them came last. Each kind the
hand holds is tried as the winning tile. A self-drawn win takes the reading that scores the
most (a legal reading first, then the total: the reading most favourable to the winner); a win
on an unseen discard the legal reading that scores the least, since the discarder pays for it
and wait fans (single, closed, edge waits, a pung completed on the discard rather than a pair)
are the less common readings. Either way a referee can correct it: the win is published with
``win_tile_inferred``.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.rulesets import ScoreResult
from engine.tiles import COPIES_PER_KIND, KINDS, Tile


def best_win_tile(
    tiles: tuple[Tile, ...],
    score: Callable[[Tile, tuple[Tile, ...]], ScoreResult | None],
    *,
    least: bool = False,
) -> tuple[Tile, tuple[Tile, ...]]:
    """``tiles``: the whole concealed hand, winning tile included; ``score(win_tile, rest)``
    scores one reading (None: no rule set). Returns the chosen tile and the hand without it.
    ``least``: of the legal readings the one that scores the least (a discard no one saw)."""
    best: tuple[tuple[bool, int], Tile, tuple[Tile, ...]] | None = None
    for kind in dict.fromkeys(tiles):
        rest = list(tiles)
        rest.remove(kind)
        result = score(kind, tuple(rest))
        if result is None:
            rank = (False, 0)
        else:
            rank = (result.valid, -result.total if least else result.total)
        if best is None or rank > best[0]:
            best = (rank, kind, tuple(rest))
    if best is None:
        raise ValueError("a self-drawn win needs at least one concealed tile")
    return best[1], best[2]


def unread_tile(
    rest: tuple[Tile, ...],
    won_on: Tile,
    score: Callable[[tuple[Tile, ...]], ScoreResult | None],
) -> Tile | None:
    """A tile of a hand a camera read one short (``rest``: the hand without ``won_on``, one
    tile missing): the kind that makes ``score(rest + kind)`` a legal win scoring the least
    (the discarder pays; a referee may correct it). None when no kind does, or with no rule
    set to tell."""
    best: tuple[int, Tile] | None = None
    for kind in KINDS:
        if (*rest, won_on).count(kind) >= COPIES_PER_KIND:
            continue
        result = score((*rest, kind))
        if result is None or not result.valid:
            continue
        if best is None or result.total < best[0]:
            best = (result.total, kind)
    return best[1] if best is not None else None
