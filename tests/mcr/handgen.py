"""Random valid MCR winning hands (every shape, every win flag) and their PyMahjongGB form.

Used by the differential test and by bench/bench_scoring.py. Hands are built from sets, so
they are winning by construction; a tile pool per hand (one suit, terminals and honours, ...)
makes the rarer fans show up often enough to be compared.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine.notation import Hand, format_botzone_tile
from engine.rulesets import WinRequest
from engine.tiles import KINDS, Meld, MeldKind, RelativeSeat, Tile, Wind

_POOLS: tuple[tuple[int, ...], ...] = (
    tuple(range(34)),
    tuple(range(34)),
    tuple(range(27)),
    tuple(range(9)) + tuple(range(27, 34)),
    tuple(range(9, 18)),
    (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33),
    tuple(range(27, 34)),
    (10, 11, 12, 14, 16, 32),
    (1, 3, 5, 7, 10, 12, 14, 16, 19, 21, 23, 25),
    (3, 4, 5, 12, 13, 14, 21, 22, 23),
    (0, 1, 2, 3, 9, 10, 11, 12, 18, 19, 20, 21),
    (5, 6, 7, 8, 14, 15, 16, 17, 23, 24, 25, 26),
    (18, 19, 20, 21, 22, 25, 26, 10, 12, 13, 14, 16, 17, 33),
)


@dataclass(frozen=True)
class RandomWin:
    request: WinRequest

    def reference_args(self) -> dict[str, Any]:
        """Keyword arguments for ``MahjongGB.MahjongFanCalculator``."""
        r = self.request
        packs = []
        for m in r.hand.melds:
            code = format_botzone_tile(m.tiles[1] if m.kind is MeldKind.CHOW else m.tiles[0])
            offer = int(m.source) if m.source is not None else 0
            kind = {MeldKind.CHOW: "CHI", MeldKind.PUNG: "PENG"}.get(m.kind, "GANG")
            packs.append((kind, code, offer))
        return {
            "pack": tuple(packs),
            "hand": tuple(format_botzone_tile(t) for t in r.hand.concealed),
            "winTile": format_botzone_tile(r.win_tile),
            "flowerCount": r.flowers,
            "isSelfDrawn": r.self_drawn or r.kong_replacement,
            "is4thTile": r.last_of_kind,
            "isAboutKong": r.kong_replacement or r.robbing_kong,
            "isWallLast": r.last_tile,
            "seatWind": int(r.seat_wind),
            "prevalentWind": int(r.prevalent_wind),
        }


def random_win(rng: random.Random) -> RandomWin:
    """A random winning hand with random, mutually consistent win flags."""
    while True:
        built = _random_shape(rng)
        if built is not None:
            concealed, melds = built
            counts = Counter(concealed) + Counter(t for m in melds for t in m.tiles)
            if max(counts.values()) <= 4:
                return _with_flags(rng, concealed, melds)


def _tile(i: int) -> Tile:
    return KINDS[i]


def _random_shape(rng: random.Random) -> tuple[list[Tile], list[Meld]] | None:
    roll = rng.random()
    if roll < 0.07:
        return _seven_pairs(rng), []
    if roll < 0.09:
        orphans = [0, 8, 9, 17, 18, 26, *range(27, 34)]
        return [_tile(i) for i in [*orphans, rng.choice(orphans)]], []
    if roll < 0.12:
        return _honors_knitted(rng), []
    if roll < 0.16:
        return _knitted_straight(rng)
    return _standard(rng)


def _knitted_tiles(rng: random.Random) -> list[int]:
    suits = rng.sample(range(3), 3)
    return [9 * suits[k] + k + step for k in range(3) for step in (0, 3, 6)]


def _honors_knitted(rng: random.Random) -> list[Tile]:
    numbered = _knitted_tiles(rng)
    n_honors = 7 if rng.random() < 0.4 else rng.randint(5, 7)
    honors = rng.sample(range(27, 34), n_honors)
    return [_tile(i) for i in rng.sample(numbered, 14 - n_honors) + honors]


def _knitted_straight(rng: random.Random) -> tuple[list[Tile], list[Meld]]:
    tiles = [_tile(i) for i in _knitted_tiles(rng)]
    pool = rng.choice(_POOLS)
    melds: list[Meld] = []
    group = _random_group(rng, pool)
    if rng.random() < 0.4:
        melds.append(_as_meld(rng, group))
    else:
        tiles += group
    pair = rng.choice(pool)
    return [*tiles, _tile(pair), _tile(pair)], melds


def _seven_pairs(rng: random.Random) -> list[Tile]:
    pool = rng.choice(_POOLS)
    if rng.random() < 0.15:
        start = rng.choice([0, 1, 2]) + 9 * rng.randrange(3)
        kinds = list(range(start, start + 7))
    else:
        kinds = [rng.choice(pool) for _ in range(7)]
    return [_tile(i) for i in kinds for _ in range(2)]


def _random_group(rng: random.Random, pool: tuple[int, ...]) -> list[Tile]:
    i = rng.choice(pool)
    if i < 27 and i % 9 <= 6 and rng.random() < 0.55:
        return [_tile(i), _tile(i + 1), _tile(i + 2)]
    return [_tile(i)] * 3


def _as_meld(rng: random.Random, group: list[Tile]) -> Meld:
    source = RelativeSeat(rng.randint(1, 3))
    if group[0] != group[1]:
        return Meld(MeldKind.CHOW, tuple(group), RelativeSeat.UPPER)
    roll = rng.random()
    if roll < 0.2:
        return Meld(MeldKind.KONG, (*tuple(group), group[0]), source)
    if roll < 0.35:
        return Meld(MeldKind.CONCEALED_KONG, (*tuple(group), group[0]))
    return Meld(MeldKind.PUNG, tuple(group), source)


def _standard(rng: random.Random) -> tuple[list[Tile], list[Meld]]:
    pool = rng.choice(_POOLS)
    if rng.random() < 0.05:  # nine gates
        suit = 9 * rng.randrange(3)
        ranks = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, rng.randrange(9)]
        return [_tile(suit + r) for r in ranks], []
    if rng.random() < 0.03:  # pure / three-suited terminal chows
        suits = rng.sample(range(3), 3)
        if rng.random() < 0.5:
            runs = [9 * suits[0], 9 * suits[0], 9 * suits[0] + 6, 9 * suits[0] + 6]
            pair = 9 * suits[0] + 4
        else:
            runs = [9 * suits[0], 9 * suits[0] + 6, 9 * suits[1], 9 * suits[1] + 6]
            pair = 9 * suits[2] + 4
        return [_tile(i + k) for i in runs for k in range(3)] + [_tile(pair)] * 2, []
    if rng.random() < 0.02:  # mixed straight, or all terminals
        suits = rng.sample(range(3), 3)
        if rng.random() < 0.5:
            tiles = [_tile(9 * suits[k] + 3 * k + j) for k in range(3) for j in range(3)]
            tiles += _random_group(rng, pool)
        else:
            kinds = rng.sample([0, 8, 9, 17, 18, 26], 5)
            tiles = [_tile(i) for i in kinds[:4] for _ in range(3)]
        pair = rng.choice([0, 8, 9, 17, 18, 26])
        return [*tiles, _tile(pair), _tile(pair)], []
    if rng.random() < 0.02:  # four kongs
        kinds = rng.sample(pool, min(4, len(pool)))
        melds = [
            Meld(MeldKind.CONCEALED_KONG, (_tile(i),) * 4)
            if rng.random() < 0.4
            else Meld(MeldKind.KONG, (_tile(i),) * 4, RelativeSeat(rng.randint(1, 3)))
            for i in kinds
        ]
        pair = rng.choice(pool)
        return [_tile(pair)] * 2, melds if len(melds) == 4 else []
    n_melds = rng.choice([0, 0, 0, 1, 1, 2, 2, 3, 4])
    concealed: list[Tile] = []
    melds: list[Meld] = []
    for k in range(4):
        group = _random_group(rng, pool)
        if k < n_melds:
            melds.append(_as_meld(rng, group))
        else:
            concealed += group
    pair = rng.choice(pool)
    return [*concealed, _tile(pair), _tile(pair)], melds


def _with_flags(rng: random.Random, concealed: list[Tile], melds: list[Meld]) -> RandomWin:
    rng.shuffle(concealed)
    win = concealed.pop(rng.randrange(len(concealed)))
    self_drawn = rng.random() < 0.45
    has_kong = any(m.kind in (MeldKind.KONG, MeldKind.CONCEALED_KONG) for m in melds)
    kong_replacement = self_drawn and has_kong and rng.random() < 0.3
    held = win in concealed or any(win in m.tiles for m in melds)
    robbing = not self_drawn and not held and rng.random() < 0.1
    request = WinRequest(
        hand=Hand(tuple(concealed), tuple(melds)),
        win_tile=win,
        self_drawn=self_drawn,
        seat_wind=Wind(rng.randrange(4)),
        prevalent_wind=Wind(rng.randrange(4)),
        flowers=rng.choice([0, 0, 0, 1, 2, 3]),
        last_of_kind=not held and rng.random() < 0.15,
        last_tile=rng.random() < 0.08,
        kong_replacement=kong_replacement,
        robbing_kong=robbing,
    )
    return RandomWin(request)
