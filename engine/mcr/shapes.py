"""MCR's own winning shapes on top of the common ones: the knitted hands.

* Knitted straight + one set + pair: 147 / 258 / 369 each in a different suit, plus a set (which
  may be a declared meld) and a pair.
* Honours and knitted tiles: 14 singles, the numbered ones from one knitted straight and the
  rest honours; with all seven honours it is Greater Honours and Knitted Tiles, else Lesser.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import permutations

from engine.scoring.decompose import (
    HONOR_BASE,
    STANDARD,
    Arrangement,
    Counts,
    SetKind,
    TileSet,
    has_split,
    near_tiles,
    seven_pairs_arrangement,
    split_sets,
    standard_arrangements,
    thirteen_orphans_arrangement,
)
from engine.scoring.evaluator import Evaluation

PURE_TRIPLE_CHOW, TRIPLE_PUNG = 23, 32
KNITTED_STRAIGHT = "knitted_straight"
GREATER_HONORS_KNITTED = "greater_honors_knitted"
LESSER_HONORS_KNITTED = "lesser_honors_knitted"

#: The six knitted straights, as the first index of each of their three knitted pieces.
KNITTED_STARTS: tuple[tuple[int, int, int], ...] = tuple(
    (9 * a, 9 * b + 1, 9 * c + 2) for a, b, c in permutations(range(3))
)


def _knitted_tiles(starts: tuple[int, int, int]) -> tuple[int, ...]:
    return tuple(s + step for s in starts for step in (0, 3, 6))


KNITTED_TILES = tuple(_knitted_tiles(s) for s in KNITTED_STARTS)
KNITTED_TILE_SETS = tuple(frozenset(tiles) for tiles in KNITTED_TILES)


def knitted_straight_arrangements(concealed: Counts, melds: Sequence[TileSet]) -> list[Arrangement]:
    if len(melds) > 1:
        return []
    for starts, tiles in zip(KNITTED_STARTS, KNITTED_TILES, strict=True):
        if all(concealed[i] for i in tiles):
            rest = list(concealed)
            for i in tiles:
                rest[i] -= 1
            pieces = tuple(TileSet(SetKind.KNITTED, s) for s in starts)
            return [
                Arrangement(KNITTED_STRAIGHT, (*pieces, *melds, *split))
                for split in split_sets(tuple(rest), 1 - len(melds))
            ]
    return []


def honors_and_knitted_arrangement(
    concealed: Counts, melds: Sequence[TileSet]
) -> Arrangement | None:
    if melds or sum(concealed) != 14 or max(concealed) > 1:
        return None
    numbered = frozenset(i for i in range(HONOR_BASE) if concealed[i])
    if not 7 <= len(numbered) <= 9 or not any(numbered <= k for k in KNITTED_TILE_SETS):
        return None
    honors = sum(concealed[HONOR_BASE:])
    shape = GREATER_HONORS_KNITTED if honors == 7 else LESSER_HONORS_KNITTED
    return Arrangement(shape, (), tuple(i for i in range(34) if concealed[i]))


def mcr_arrangements(concealed: Counts, melds: Sequence[TileSet]) -> list[Arrangement]:
    """Every MCR reading of a win, in the reference calculator's order: the special shapes, then
    the standard readings (ties are settled by :func:`prefer_on_tie`)."""
    out = knitted_straight_arrangements(concealed, melds)
    for special in (
        honors_and_knitted_arrangement,
        thirteen_orphans_arrangement,
        seven_pairs_arrangement,
    ):
        found = special(concealed, melds)
        if found is not None:
            out.append(found)
    return out + standard_arrangements(concealed, melds)


def mcr_is_win(concealed: Counts, melds: Sequence[TileSet]) -> bool:
    """Whether the tiles make any MCR shape; what :func:`mcr_arrangements` finds, only faster."""
    if sum(concealed) != 14 - 3 * len(melds):
        return False
    if has_split(concealed, 4 - len(melds)):
        return True
    distinct = 34 - concealed.count(0)
    if len(melds) <= 1 and distinct >= 9:
        for tiles in KNITTED_TILES:
            if all(concealed[i] for i in tiles):
                rest = list(concealed)
                for i in tiles:
                    rest[i] -= 1
                if has_split(tuple(rest), 1 - len(melds)):
                    return True
                break  # one knitted set at most; the nine may still be lesser honours' (below)
    if melds:
        return False
    return all(n % 2 == 0 for n in concealed) or (
        distinct >= 13
        and (
            thirteen_orphans_arrangement(concealed, melds) is not None
            or honors_and_knitted_arrangement(concealed, melds) is not None
        )
    )


def prefer_on_tie(candidate: Evaluation, best: Evaluation) -> bool:
    """Between equal totals a later reading wins when it has Pure Triple Chow or Triple Pung,
    or when it is a standard reading of a hand that is also seven pairs (the reference
    calculator's choice since 2022; the seed is silent on ties)."""
    fans = {f.id for f in candidate.fans}
    if PURE_TRIPLE_CHOW in fans or TRIPLE_PUNG in fans:
        return True
    ctx = candidate.context
    return ctx.shape == STANDARD and seven_pairs_arrangement(ctx.concealed, ctx.melds) is not None


def mcr_wait_candidates(before: Counts, melds: Sequence[TileSet]) -> Iterable[int]:
    """Kinds worth trying as waits: near the concealed tiles, or anything when a knitted shape or
    thirteen orphans is possible (seven or more different kinds with at most one meld)."""
    if len(melds) <= 1 and 34 - before.count(0) >= 7:
        return range(34)
    return near_tiles(before)
