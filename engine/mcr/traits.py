"""Tile-level facts about an MCR hand that several fans read (suits, ranks, tile classes)."""

from __future__ import annotations

from engine.scoring.context import WinContext
from engine.scoring.decompose import HONOR_BASE, SetKind, TileSet

WINDS = range(HONOR_BASE, HONOR_BASE + 4)
DRAGONS = range(HONOR_BASE + 4, HONOR_BASE + 7)
GREEN = frozenset({10, 11, 12, 14, 16, 32})  # 2 3 4 6 8 bamboo and the green dragon
REVERSIBLE = frozenset({18, 19, 20, 21, 22, 25, 26, 10, 12, 13, 14, 16, 17, 33})
TERMINALS = frozenset({0, 8, 9, 17, 18, 26})
TERMINALS_AND_HONORS = TERMINALS | frozenset(range(HONOR_BASE, 34))
FIVES = frozenset({4, 13, 22})


def is_terminal_or_honor(index: int) -> bool:
    return index >= HONOR_BASE or index in TERMINALS


def suits(ctx: WinContext) -> frozenset[int]:
    """The numbered suits present (0 characters, 1 bamboo, 2 dots)."""
    return frozenset(i // 9 for i in ctx.kinds if i < HONOR_BASE)


def has_honors(ctx: WinContext) -> bool:
    return any(ctx.counts[HONOR_BASE:])


def ranks(ctx: WinContext) -> frozenset[int] | None:
    """The ranks present when the hand has only numbered tiles, else None."""
    if has_honors(ctx):
        return None
    return frozenset(i % 9 + 1 for i in ctx.kinds)


def all_tiles_in(ctx: WinContext, allowed: frozenset[int] | range) -> bool:
    return all(i in allowed for i in ctx.kinds)


def groups(ctx: WinContext) -> tuple[TileSet, ...]:
    """The four sets and the pair of a standard arrangement (empty for other shapes)."""
    if ctx.shape != "standard":
        return ()
    return ctx.sets


def group_has(group: TileSet, wanted: frozenset[int] | range) -> bool:
    return any(i in wanted for i in group.indices)


def dragon_pungs(ctx: WinContext) -> tuple[TileSet, ...]:
    return tuple(p for p in ctx.pungs if p.first in DRAGONS)


def wind_pungs(ctx: WinContext) -> tuple[TileSet, ...]:
    return tuple(p for p in ctx.pungs if p.first in WINDS)


def non_knitted_sets(ctx: WinContext) -> tuple[TileSet, ...]:
    return tuple(s for s in ctx.sets if s.kind not in (SetKind.KNITTED, SetKind.PAIR))
