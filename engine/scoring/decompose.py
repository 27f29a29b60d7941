"""Every arrangement of a winning hand: 4 sets + pair, seven pairs, thirteen orphans.

Hands are 34-entry count tuples (dense tile index, see :data:`engine.tiles.KINDS`); declared melds
stay fixed and only the concealed tiles (winning tile included) are split. Splitting is memoised
on the count tuple, so trying all 34 candidate tiles to find a hand's waits stays cheap.
Rule-set-specific shapes (MCR's knitted hands) are built by the rule set from the same pieces.

>>> from engine.notation import parse_tiles
>>> counts = counts_of(parse_tiles("111222333m789pEE"))
>>> sorted(len(a.sets) for a in standard_arrangements(counts, ()))
[5, 5]
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.notation import format_tiles
from engine.tiles import KINDS, Meld, MeldKind, Tile

Counts = tuple[int, ...]
HONOR_BASE = 27  # dense index of East; 0-26 are numbered tiles
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


class SetKind(enum.Enum):
    """The groups a hand is split into; KNITTED is one third of a knitted straight (147m)."""

    PAIR = "pair"
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    KNITTED = "knitted"


_STEP = {SetKind.PAIR: (0, 0), SetKind.CHOW: (0, 1, 2), SetKind.PUNG: (0, 0, 0)}
_STEP |= {SetKind.KONG: (0, 0, 0, 0), SetKind.KNITTED: (0, 3, 6)}


@dataclass(frozen=True, slots=True)
class TileSet:
    """One group of an arrangement. ``first`` is the dense index of its lowest tile.

    ``declared`` marks a meld laid on the table (concealed kongs included); ``concealed`` is False
    for exposed melds and for a pung the winning discard completed.
    """

    kind: SetKind
    first: int
    declared: bool = False
    concealed: bool = True

    @property
    def indices(self) -> tuple[int, ...]:
        return tuple(self.first + step for step in _STEP[self.kind])

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(KINDS[i] for i in self.indices)

    @property
    def is_pung(self) -> bool:
        """A pung or a kong (rules say "pung" for both wherever a set of identical tiles counts)."""
        return self.kind in (SetKind.PUNG, SetKind.KONG)

    @property
    def suit(self) -> int:
        """0-2 for the numbered suits, 3 for honours."""
        return min(self.first // 9, 3)

    @property
    def rank(self) -> int:
        """Rank of the lowest tile (1-9; honours 1-7 counted from East)."""
        return self.first % 9 + 1 if self.first < HONOR_BASE else self.first - HONOR_BASE + 1

    def __str__(self) -> str:
        return format_tiles(self.tiles)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One way to read a winning hand: its shape name, its sets and any loose single tiles."""

    shape: str
    sets: tuple[TileSet, ...]
    singles: tuple[int, ...] = ()


STANDARD = "standard"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"


def counts_of(tiles: Iterable[Tile]) -> Counts:
    """34 counts by dense index; flowers are ignored (they are never part of a shape)."""
    counts = [0] * 34
    for tile in tiles:
        if tile.index < 34:
            counts[tile.index] += 1
    return tuple(counts)


def meld_set(meld: Meld) -> TileSet:
    kind = {MeldKind.CHOW: SetKind.CHOW, MeldKind.PUNG: SetKind.PUNG}.get(meld.kind, SetKind.KONG)
    first = min(t.index for t in meld.tiles)
    return TileSet(kind, first, declared=True, concealed=meld.kind is MeldKind.CONCEALED_KONG)


def standard_arrangements(concealed: Counts, melds: Sequence[TileSet]) -> list[Arrangement]:
    """Every split of the concealed tiles into ``4 - len(melds)`` chows/pungs plus one pair."""
    sets_needed = 4 - len(melds)
    if sets_needed < 0 or sum(concealed) != 3 * sets_needed + 2:
        return []
    unique = {
        tuple(sorted(split, key=_group_key)): None for split in _split(concealed, sets_needed, True)
    }
    splits = sorted(unique, key=_tie_order)
    return [
        Arrangement(STANDARD, (*melds, *(TileSet(kind, first) for kind, first in split)))
        for split in splits
    ]


def _group_key(group: tuple[SetKind, int]) -> tuple[int, str]:
    return group[1], group[0].value


def _tie_order(split: tuple[tuple[SetKind, int], ...]) -> tuple[tuple[int, int], ...]:
    """Arrangements in the order of their sets (lowest tile first, pung before chow); this
    settles ties between equal totals the way the reference calculator does."""
    return tuple(
        sorted(
            (first, kind is not SetKind.PUNG) for kind, first in split if kind is not SetKind.PAIR
        )
    )


def seven_pairs_arrangement(concealed: Counts, melds: Sequence[TileSet]) -> Arrangement | None:
    """Seven pairs (two identical pairs allowed: four of a kind split as two pairs)."""
    if melds or sum(concealed) != 14 or any(n % 2 for n in concealed):
        return None
    pairs = [TileSet(SetKind.PAIR, i) for i, n in enumerate(concealed) for _ in range(n // 2)]
    return Arrangement(SEVEN_PAIRS, tuple(pairs))


def thirteen_orphans_arrangement(concealed: Counts, melds: Sequence[TileSet]) -> Arrangement | None:
    """One of each terminal and honour, one of them paired."""
    if melds or sum(concealed) != 14 or any(concealed[i] == 0 for i in ORPHANS):
        return None
    paired = [i for i in ORPHANS if concealed[i] == 2]
    if len(paired) != 1:
        return None
    singles = tuple(i for i in ORPHANS if i != paired[0])
    return Arrangement(THIRTEEN_ORPHANS, (TileSet(SetKind.PAIR, paired[0]),), singles)


def common_arrangements(concealed: Counts, melds: Sequence[TileSet]) -> list[Arrangement]:
    """The shapes most rule sets share: standard, seven pairs, thirteen orphans."""
    out = standard_arrangements(concealed, melds)
    for special in (seven_pairs_arrangement, thirteen_orphans_arrangement):
        found = special(concealed, melds)
        if found is not None:
            out.append(found)
    return out


def near_tiles(concealed: Counts) -> frozenset[int]:
    """Kinds that could join a set or pair with the concealed tiles: the same kind, or a numbered
    tile of the same suit at most two ranks away (the only possible waits of a standard or
    seven-pairs hand)."""
    near: set[int] = set()
    for i, n in enumerate(concealed):
        if not n:
            continue
        near.add(i)
        if i < HONOR_BASE:
            base = i - i % 9
            near.update(range(max(base, i - 2), min(base + 9, i + 3)))
    return frozenset(near)


def has_split(concealed: Counts, sets_needed: int, with_pair: bool = True) -> bool:
    """Whether the concealed tiles split into ``sets_needed`` sets (and a pair): a fast win test."""
    return _feasible(concealed, with_pair) and bool(_split(concealed, sets_needed, with_pair))


def _feasible(counts: Counts, with_pair: bool) -> bool:
    """Cheap necessary condition: each suit's tiles number 0 or 2 modulo 3 (2 for the pair's
    suit only), and each honour appears 0, 2 or 3 times."""
    pairs = 0
    for base in (0, 9, 18):
        rest = sum(counts[base : base + 9]) % 3
        if rest == 1:
            return False
        pairs += rest == 2
    for n in counts[HONOR_BASE:]:
        if n in (1, 4):
            return False
        pairs += n == 2
    return pairs == (1 if with_pair else 0)


def split_sets(
    concealed: Counts, sets_needed: int, with_pair: bool = True
) -> list[tuple[TileSet, ...]]:
    """Public form of the memoised splitter, for rule sets that build their own shapes."""
    if sum(concealed) != 3 * sets_needed + (2 if with_pair else 0):
        return []
    return [
        tuple(TileSet(kind, first) for kind, first in split)
        for split in _split(concealed, sets_needed, with_pair)
    ]


@lru_cache(maxsize=1 << 16)
def _split(
    counts: Counts, sets_left: int, need_pair: bool
) -> tuple[tuple[tuple[SetKind, int], ...], ...]:
    """All ways to cover ``counts`` exactly; the lowest remaining tile always starts a group,
    so each arrangement is produced once. Sets come before the pair, pungs before chows: the
    order in which ties between equal totals are settled."""
    if sum(counts) != 3 * sets_left + (2 if need_pair else 0):
        return ()
    i = next((k for k, n in enumerate(counts) if n), -1)
    if i < 0:
        return ((),)
    found: list[tuple[tuple[SetKind, int], ...]] = []
    work = list(counts)
    if sets_left and work[i] >= 3:
        work[i] -= 3
        found += [
            ((SetKind.PUNG, i), *rest) for rest in _split(tuple(work), sets_left - 1, need_pair)
        ]
        work[i] += 3
    if sets_left and i < HONOR_BASE and i % 9 <= 6 and work[i + 1] and work[i + 2]:
        for k in (i, i + 1, i + 2):
            work[k] -= 1
        found += [
            ((SetKind.CHOW, i), *rest) for rest in _split(tuple(work), sets_left - 1, need_pair)
        ]
        for k in (i, i + 1, i + 2):
            work[k] += 1
    if need_pair and work[i] >= 2:
        work[i] -= 2
        found += [((SetKind.PAIR, i), *rest) for rest in _split(tuple(work), sets_left, False)]
    return tuple(found)
