"""Tiles, suits, winds and melds: small immutable values shared by every part of Tilesight.

Text forms (``str(tile) == "5m"``) come from :mod:`engine.notation`, the only parser and printer.

>>> Tile.parse("5m").suit is Suit.CHARACTERS
True
>>> str(Tile(Suit.DRAGON, 1))
'C'
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field


class Suit(enum.Enum):
    """The six classes of tile; the value is the suffix used in the notation."""

    CHARACTERS = "m"
    BAMBOO = "s"
    DOTS = "p"
    WIND = "w"
    DRAGON = "d"
    FLOWER = "f"

    @property
    def is_numbered(self) -> bool:
        return self in NUMBERED_SUITS

    @property
    def is_honor(self) -> bool:
        return self in (Suit.WIND, Suit.DRAGON)

    @property
    def ranks(self) -> range:
        return range(1, {Suit.WIND: 4, Suit.DRAGON: 3, Suit.FLOWER: 8}.get(self, 9) + 1)


NUMBERED_SUITS = (Suit.CHARACTERS, Suit.BAMBOO, Suit.DOTS)


class Wind(enum.IntEnum):
    """Seat and prevalent winds; the value is the seat index counted from the dealer."""

    EAST = 0
    SOUTH = 1
    WEST = 2
    NORTH = 3

    @property
    def letter(self) -> str:
        return "ESWN"[self.value]

    @classmethod
    def parse(cls, text: str) -> Wind:
        from engine.notation import NotationError  # noqa: PLC0415 (notation imports tiles)

        letter = text.strip().upper()[:1]
        if len(text.strip()) not in (1, 4, 5) or letter not in "ESWN":
            raise NotationError(f"not a wind: {text!r} (expected E, S, W or N)")
        return cls("ESWN".index(letter))


FLOWER_NAMES = ("plum", "orchid", "chrysanthemum", "bamboo", "spring", "summer", "autumn", "winter")


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One tile design: a suit and a rank (winds E=1..N=4, dragons red=1 green=2 white=3)."""

    suit: Suit = field(compare=False)
    rank: int = field(compare=False)
    index: int = field(init=False, repr=False, compare=True)

    def __post_init__(self) -> None:
        if self.rank not in self.suit.ranks:
            raise ValueError(f"rank {self.rank} is not valid for {self.suit.name.lower()}")
        object.__setattr__(self, "index", _SUIT_BASE[self.suit] + self.rank - 1)

    @classmethod
    def parse(cls, text: str) -> Tile:
        from engine.notation import parse_tile  # noqa: PLC0415 (notation imports tiles)

        return parse_tile(text)

    @classmethod
    def from_index(cls, index: int) -> Tile:
        """The tile with a dense index: 0-33 the 34 kinds, 34-41 the flowers."""
        return ALL_TILES[index]

    def __str__(self) -> str:
        from engine.notation import format_tile  # noqa: PLC0415 (notation imports tiles)

        return format_tile(self)

    def __repr__(self) -> str:
        return f"Tile({str(self)!r})"

    @property
    def is_flower(self) -> bool:
        return self.suit is Suit.FLOWER

    @property
    def is_honor(self) -> bool:
        return self.suit.is_honor

    @property
    def is_numbered(self) -> bool:
        return self.suit.is_numbered

    @property
    def is_terminal(self) -> bool:
        return self.is_numbered and self.rank in (1, 9)

    @property
    def is_terminal_or_honor(self) -> bool:
        return self.is_terminal or self.is_honor

    def shifted(self, delta: int) -> Tile | None:
        """The numbered tile ``delta`` ranks away in the same suit, or None off the end."""
        rank = self.rank + delta
        if not self.is_numbered or not 1 <= rank <= 9:
            return None
        return Tile(self.suit, rank)


_SUIT_BASE = {
    Suit.CHARACTERS: 0,
    Suit.BAMBOO: 9,
    Suit.DOTS: 18,
    Suit.WIND: 27,
    Suit.DRAGON: 31,
    Suit.FLOWER: 34,
}

#: The 42 designs in index order: 1m..9m, 1s..9s, 1p..9p, E S W N, C F P, 1f..8f.
ALL_TILES: tuple[Tile, ...] = tuple(Tile(suit, rank) for suit in Suit for rank in suit.ranks)
#: The 34 kinds that make hands (no flowers).
KINDS: tuple[Tile, ...] = ALL_TILES[:34]
FLOWERS: tuple[Tile, ...] = ALL_TILES[34:]
COPIES_PER_KIND = 4


class MeldKind(enum.Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"  # exposed kong (claimed or added)
    CONCEALED_KONG = "concealed_kong"

    @property
    def size(self) -> int:
        return 4 if self in (MeldKind.KONG, MeldKind.CONCEALED_KONG) else 3


class RelativeSeat(enum.IntEnum):
    """Where a claimed tile came from, seen from the claimer: 1 lower, 2 opposite, 3 upper."""

    LOWER = 1
    OPPOSITE = 2
    UPPER = 3

    @classmethod
    def between(cls, claimer: int, discarder: int) -> RelativeSeat:
        return cls((discarder - claimer) % 4)


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set: chow, pung, exposed kong or concealed kong.

    ``source`` is the relative seat the claimed tile came from (None for a concealed kong or
    when unknown); ``claimed`` is the tile taken from the discard, when known.
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    source: RelativeSeat | None = None
    claimed: Tile | None = None

    def __post_init__(self) -> None:
        problem = meld_shape_problem(self.kind, self.tiles)
        if problem:
            raise ValueError(problem)
        if self.kind is MeldKind.CONCEALED_KONG and self.source is not None:
            raise ValueError("a concealed kong has no source seat")
        if self.claimed is not None and self.claimed not in self.tiles:
            raise ValueError(f"claimed tile {self.claimed} is not part of the meld")

    @property
    def first(self) -> Tile:
        return self.tiles[0]

    @property
    def is_concealed(self) -> bool:
        return self.kind is MeldKind.CONCEALED_KONG

    @property
    def is_kong(self) -> bool:
        return self.kind.size == 4

    def __str__(self) -> str:
        from engine.notation import format_meld  # noqa: PLC0415 (notation imports tiles)

        return format_meld(self)


def meld_shape_problem(kind: MeldKind, tiles: tuple[Tile, ...]) -> str | None:
    """Why ``tiles`` cannot form a meld of ``kind`` (None when they can)."""
    text = "".join(str(t) for t in tiles)
    if len(tiles) != kind.size:
        return f"a {kind.value} needs {kind.size} tiles, got {len(tiles)} ({text})"
    if any(t.is_flower for t in tiles):
        return f"flowers cannot form a meld ({text})"
    if kind is MeldKind.CHOW:
        ordered = sorted(tiles)
        suits = {t.suit for t in ordered}
        if len(suits) != 1 or not ordered[0].is_numbered:
            return f"a chow needs three tiles of one numbered suit ({text})"
        if [t.rank for t in ordered] != list(range(ordered[0].rank, ordered[0].rank + 3)):
            return f"a chow needs three consecutive ranks ({text})"
        return None
    if len(set(tiles)) != 1:
        return f"a {kind.value} needs identical tiles ({text})"
    return None


def count_tiles(tiles: Iterable[Tile]) -> Counter[Tile]:
    return Counter(tiles)


def excess_copies(tiles: Iterable[Tile]) -> dict[Tile, int]:
    """Kinds seen more often than a set holds (4 per kind, 1 per flower) with their counts."""
    counts = Counter(tiles)
    return {t: n for t, n in counts.items() if n > (1 if t.is_flower else COPIES_PER_KIND)}
