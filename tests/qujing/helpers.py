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


def random_winning_request(rng: random.Random) -> WinRequest:
    """A random Qujing winning hand: four sets (pungs, concealed chows, declared pungs/kongs)
    and a pair, or seven pairs; random win flags; at most four copies of any kind."""
    from engine.notation import Hand
    from engine.tiles import KINDS, Meld, MeldKind

    while True:
        left = Counter(dict.fromkeys(KINDS, 4))
        tiles: list[Tile] = []
        melds: list[Meld] = []

        def take(group: list[Tile], left: Counter[Tile] = left) -> bool:
            need = Counter(group)
            if any(left[t] < n for t, n in need.items()):
                return False
            left.subtract(need)
            return True

        if rng.random() < 0.2:
            for kind in rng.sample(KINDS, 7):
                if take([kind, kind]):
                    tiles += [kind, kind]
        else:
            while len(melds) * 3 + len(tiles) < 12:
                kind = rng.choice(KINDS)
                run = [kind.shifted(i) for i in range(3)]
                roll = rng.random()
                if roll < 0.4 and all(run) and take([t for t in run if t is not None]):
                    tiles += [t for t in run if t is not None]
                elif roll < 0.7 and take([kind] * 3):
                    tiles += [kind] * 3
                elif roll < 0.85 and take([kind] * 3):
                    melds.append(Meld(MeldKind.PUNG, (kind,) * 3))
                elif take([kind] * 4):
                    kong = rng.choice([MeldKind.KONG, MeldKind.CONCEALED_KONG])
                    melds.append(Meld(kong, (kind,) * 4))
            pair = rng.choice(KINDS)
            if take([pair, pair]):
                tiles += [pair, pair]
        if len(tiles) + 3 * len(melds) != 14:
            continue
        win = tiles.pop(rng.randrange(len(tiles)))
        rng.shuffle(tiles)
        self_drawn = rng.random() < 0.5
        has_kong = any(m.is_kong for m in melds)
        return WinRequest(
            hand=Hand(tuple(tiles), tuple(melds)),
            win_tile=win,
            self_drawn=self_drawn,
            kong_replacement=self_drawn and has_kong and rng.random() < 0.3,
            extras={"kong_discard": not self_drawn and rng.random() < 0.1},
        )
