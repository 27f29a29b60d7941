"""Tilesight's rules engine: pure, synchronous, no I/O and no heavy imports."""

from engine.notation import Hand, NotationError, format_hand, parse_hand, parse_tile, parse_tiles
from engine.tiles import ALL_TILES, FLOWERS, KINDS, Meld, MeldKind, RelativeSeat, Suit, Tile, Wind

__all__ = [
    "ALL_TILES",
    "FLOWERS",
    "KINDS",
    "Hand",
    "Meld",
    "MeldKind",
    "NotationError",
    "RelativeSeat",
    "Suit",
    "Tile",
    "Wind",
    "format_hand",
    "parse_hand",
    "parse_tile",
    "parse_tiles",
]
