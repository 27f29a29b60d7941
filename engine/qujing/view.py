"""The facts Qujing hand types look at, for one arrangement of a declared win.

Qujing's patterns are few and shallow (no wait, seat or set-position fans), so one small frozen
view per arrangement is all they need: the shape, whether every set is a triplet, the colours of
the tiles, the win flags and the winner's own discards (for ten winds / seven winds).

``WinRequest.extras`` keys Qujing reads (the table fills them; ``tilesight score`` passes them
through from JSON):

* ``"own_discards"``: the winner's discards this hand, in order (tiles or notation strings,
  or one notation string such as ``"ESWNCFP"``). Ten winds / seven winds look at them.
* ``"kong_discard"``: true when the winning discard was made by a player right after his kong
  replacement draw (杠上炮).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.notation import NotationError, parse_tile, parse_tiles
from engine.qujing.options import QujingOptions
from engine.tiles import Suit, Tile

OWN_DISCARDS = "own_discards"
KONG_DISCARD = "kong_discard"


class Shape(enum.Enum):
    """How the hand wins: four sets and a pair, seven pairs, or the discard-streak hands."""

    REGULAR = "regular"
    SEVEN_PAIRS = "seven_pairs"
    DISCARD_STREAK = "discard_streak"


@dataclass(frozen=True, slots=True)
class QjView:
    """One arrangement of a win, as Qujing's hand types see it."""

    shape: Shape
    tiles: tuple[Tile, ...]  # all tiles of the hand, winning tile included
    all_triplets: bool  # REGULAR: all four sets are pungs or kongs
    quads_in_pairs: int  # SEVEN_PAIRS: kinds held four times (two equal pairs)
    has_melds: bool  # any pung or kong made (exposed or concealed)
    self_drawn: bool
    kong_replacement: bool
    robbing_kong: bool
    kong_discard: bool
    own_discards: tuple[Tile, ...]
    options: QujingOptions

    @property
    def colours(self) -> frozenset[Suit | None]:
        """The colours present: 万, 条, 筒 by suit, and every honour as one colour (None)."""
        return frozenset(None if t.is_honor else t.suit for t in self.tiles)


def own_discards_from(extras: Mapping[str, Any]) -> tuple[Tile, ...]:
    """The winner's own discards from ``extras``; raises NotationError quoting bad input."""
    raw = extras.get(OWN_DISCARDS, ())
    if isinstance(raw, str):
        return parse_tiles(raw)
    if not isinstance(raw, Sequence):
        raise NotationError(f"{OWN_DISCARDS} must be a list of tiles, got {raw!r}")
    out: list[Tile] = []
    for item in raw:
        if isinstance(item, Tile):
            out.append(item)
        elif isinstance(item, str):
            out.append(parse_tile(item))
        else:
            raise NotationError(f"{OWN_DISCARDS} holds {item!r}, which is not a tile")
    return tuple(out)


def flag_from(extras: Mapping[str, Any], key: str) -> bool:
    value = extras.get(key, False)
    if not isinstance(value, bool):
        raise NotationError(f"{key} must be true or false, got {value!r}")
    return value
