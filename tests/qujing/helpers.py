"""Helpers for Qujing tests: build a WinRequest from notation and score it."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine.notation import parse_hand, parse_tile, parse_tiles
from engine.procedures import find_procedure
from engine.qujing import QujingRuleSet
from engine.rulesets import ScoreResult, WinRequest
from engine.tiles import Tile
from engine.wall import DEAL_POSITIONS, procedure_tiles


def request(hand: str, win: str, **flags: Any) -> WinRequest:
    extras = {k: flags.pop(k) for k in ("own_discards", "kong_discard") if k in flags}
    return WinRequest(hand=parse_hand(hand), win_tile=parse_tile(win), extras=extras, **flags)


def score(hand: str, win: str, rules: QujingRuleSet | None = None, **flags: Any) -> ScoreResult:
    return (rules or QujingRuleSet()).score(request(hand, win, **flags))


def fan_ids(result: ScoreResult) -> list[str]:
    return sorted(str(f.id) for f in result.fans)


def wall_with(dealt: list[str], last_live: str) -> tuple[Tile, ...]:
    """A full Qujing wall: the dealt hands by seat, the given last live tiles, fillers between."""
    procedure = find_procedure("qujing")
    order: list[Tile | None] = [None] * procedure.tile_count
    for seat, tiles in enumerate(dealt):
        for position, tile in zip(DEAL_POSITIONS[seat], parse_tiles(tiles), strict=True):
            order[position] = tile
    tail = parse_tiles(last_live)
    for offset, tile in enumerate(tail):
        order[procedure.tile_count - len(tail) + offset] = tile
    left = Counter(procedure_tiles(procedure)) - Counter(t for t in order if t is not None)
    fillers = sorted(left.elements())
    random.Random(7).shuffle(fillers)
    for position, tile in enumerate(order):
        if tile is None:
            order[position] = fillers.pop()
    return tuple(t for t in order if t is not None)
