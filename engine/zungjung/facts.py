"""Zung Jung's reading of one shared :class:`~engine.scoring.context.WinContext`.

The patterns need a few derived facts (the four sets without the pair, the suits present, which
triplets count as concealed, Nine Gates, the blessings); :func:`facts` computes them once per
context and keeps them in ``ctx.cache`` so the 44 predicates share the work.

Extras read from :class:`~engine.rulesets.WinRequest` (all optional, default False):
``"blessing_of_heaven"`` (East won on the dealt 14 tiles) and ``"blessing_of_earth"`` (a non-East
player won on East's first discard). Both are void when East declared a concealed kong; the table
is expected to pass False then.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.scoring.context import WinContext
from engine.scoring.decompose import SEVEN_PAIRS, STANDARD, THIRTEEN_ORPHANS, SetKind, TileSet
from engine.tiles import KINDS, Suit, Tile

HEAVEN_KEY = "blessing_of_heaven"
EARTH_KEY = "blessing_of_earth"
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@dataclass(frozen=True, slots=True)
class ZjFacts:
    """What the Zung Jung patterns read, derived from one context."""

    shape: str
    tiles: tuple[Tile, ...]  # one entry per kind present
    sets: tuple[TileSet, ...]  # the four sets of a regular hand (no pair); () otherwise
    pair: Tile | None
    pair_set: TileSet | None
    suits: frozenset[Suit]
    has_honor: bool
    concealed_hand: bool
    nine_gates: bool
    seat_wind: Tile
    heaven: bool
    earth: bool

    @property
    def regular(self) -> bool:
        return self.shape == STANDARD

    @property
    def seven_pairs(self) -> bool:
        return self.shape == SEVEN_PAIRS

    @property
    def thirteen_terminals(self) -> bool:
        return self.shape == THIRTEEN_ORPHANS

    @property
    def chows(self) -> tuple[TileSet, ...]:
        return tuple(s for s in self.sets if s.kind is SetKind.CHOW)

    @property
    def triplets(self) -> tuple[TileSet, ...]:
        """Triplets and kongs: Zung Jung treats both alike outside series 4.3."""
        return tuple(s for s in self.sets if s.is_pung)

    @property
    def chow_counts(self) -> Counter[int]:
        return Counter(s.first for s in self.chows)

    def triplet_ranks(self, suit: Suit) -> frozenset[int]:
        return frozenset(s.rank for s in self.triplets if s.tiles[0].suit is suit)

    def chow_ranks(self, suit: Suit) -> frozenset[int]:
        return frozenset(s.rank for s in self.chows if s.tiles[0].suit is suit)

    def honor_triplets(self, suit: Suit) -> int:
        return sum(1 for s in self.triplets if s.tiles[0].suit is suit)


def facts(ctx: WinContext) -> ZjFacts:
    """The Zung Jung facts of ``ctx``, computed once and cached on the context."""
    cached = ctx.cache.get("zungjung")
    if isinstance(cached, ZjFacts):
        return cached
    tiles = tuple(KINDS[i] for i in ctx.kinds)
    regular = ctx.shape == STANDARD
    pair = ctx.pair if regular else None
    found = ZjFacts(
        shape=ctx.shape,
        tiles=tiles,
        sets=tuple(s for s in ctx.sets if s.kind is not SetKind.PAIR) if regular else (),
        pair=pair.tiles[0] if pair is not None else None,
        pair_set=pair,
        suits=frozenset(t.suit for t in tiles if t.is_numbered),
        has_honor=any(t.is_honor for t in tiles),
        concealed_hand=ctx.fully_concealed,
        nine_gates=_nine_gates(ctx),
        seat_wind=Tile(Suit.WIND, int(ctx.seat_wind) + 1),
        heaven=bool(ctx.extras.get(HEAVEN_KEY, False)),
        earth=bool(ctx.extras.get(EARTH_KEY, False)),
    )
    ctx.cache["zungjung"] = found
    return found


def _nine_gates(ctx: WinContext) -> bool:
    """1112345678999 of one suit held concealed (no melds at all), winning on that suit."""
    if ctx.melds or ctx.win_tile >= 27:
        return False
    before = list(ctx.concealed)
    before[ctx.win_tile] -= 1
    base = ctx.win_tile - ctx.win_tile % 9
    return tuple(before[base : base + 9]) == _NINE_GATES and sum(before) == 13
