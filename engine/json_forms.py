"""The one JSON form of a tile, a run of tiles, a meld, a hand and a wind, written and read here.

Actions (table logs, the service's journal, commands), events and snapshots all go through this
module, so what a field holds is the same wherever it is written (docs/table-log.md):

========  ==========================================  ====================================
value     written                                     also read (older table logs, journals)
========  ==========================================  ====================================
tile      ``"5m"`` (notation)                         -
run       ``["1m", "2m", "3m"]`` (a list of tiles)    ``"123m"`` (one string in notation)
meld      ``"[555p<2]"``, ``"{5555p}"`` (notation)    -
hand      ``"123m55p [555p<2]"`` (notation)           -
wind      ``0``-``3`` (E S W N)                       ``"E"``, ``"S"``, ``"W"``, ``"N"``
========  ==========================================  ====================================

Seats are integers 0-3 everywhere. Every reader raises :class:`JsonFormError` naming the field
and quoting the value. Two payload fields keep an older form until their schema's next version,
written here too: the retained ``state`` (``tilesight.state/1``) labels winds by letter
(:func:`wind_letter`) and a fan's sets are labels in notation (:func:`set_label`).

>>> tiles_to_json(tiles_from_json("123m", "chow.tiles"))
['1m', '2m', '3m']
>>> wind_to_json(wind_from_json("S", "hand_start.prevalent_wind"))
1
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from engine.action_bounds import MAX_TEXT
from engine.notation import (
    Hand,
    NotationError,
    format_hand,
    format_meld,
    format_tile,
    format_tiles,
    parse_hand,
    parse_tile,
    parse_tiles,
)
from engine.tiles import Meld, Tile, Wind

#: Tiles in one run read from JSON: more is refused before any is parsed (a wall holds 144).
MAX_RUN = 200
_T = TypeVar("_T")


class JsonFormError(ValueError):
    """A JSON value that is not the form of a tile, run, meld, hand or wind."""


def tile_to_json(tile: Tile) -> str:
    return format_tile(tile)


def tile_from_json(value: Any, where: str = "tile") -> Tile:
    return _parsed(parse_tile, _text(value, where, "a tile such as '5m'"), where)


def tiles_to_json(tiles: Iterable[Tile]) -> list[str]:
    return [format_tile(t) for t in tiles]


def tiles_from_json(value: Any, where: str = "tiles") -> tuple[Tile, ...]:
    """A list of tiles (``["1m", "E"]``), or a run in one string as older logs wrote it."""
    if isinstance(value, str):
        return _parsed(parse_tiles, _text(value, where, "tiles"), where)
    if not isinstance(value, list):
        raise JsonFormError(f"{where}: expected a list of tiles such as ['1m', 'E'], got {value!r}")
    if len(value) > MAX_RUN:
        raise JsonFormError(f"{where}: {len(value)} tiles, over {MAX_RUN}")
    return tuple(tile_from_json(v, f"{where}[{i}]") for i, v in enumerate(value))


def meld_to_json(meld: Meld) -> str:
    return format_meld(meld)


def meld_from_json(value: Any, where: str = "meld") -> Meld:
    """One meld in brackets: ``"[555p<2]"``, ``"[123m]"`` or ``"{5555p}"``."""
    text = _text(value, where, "a meld such as '[555p<2]'")
    hand = _parsed(parse_hand, text, where)
    if hand.concealed or len(hand.melds) != 1:
        raise JsonFormError(f"{where}: expected one meld such as '[555p<2]', got {value!r}")
    return hand.melds[0]


def hand_to_json(hand: Hand) -> str:
    return format_hand(hand)


def hand_from_json(value: Any, where: str = "hand") -> Hand:
    return _parsed(parse_hand, _text(value, where, "a hand such as '123m55p [555s<2]'"), where)


def wind_to_json(wind: Wind) -> int:
    return int(wind)


def wind_from_json(value: Any, where: str = "wind") -> Wind:
    """0-3 (E S W N), or the letter older logs wrote."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value in range(4):
            return Wind(value)
    elif isinstance(value, str):
        return _parsed(Wind.parse, value, where)
    raise JsonFormError(f"{where}: expected a wind 0-3 (E S W N), got {value!r}")


def set_label(tiles: Iterable[Tile]) -> str:
    """A fan's set in ``win_declared.score`` (``"789m"``, ``"CCC"``): notation, not a list, until
    ``tilesight.event/2``."""
    return format_tiles(tiles)


def wind_letter(wind: Wind) -> str:
    """The letter the retained ``state`` (``tilesight.state/1``) shows a wind by."""
    return wind.letter


def _text(value: Any, where: str, expected: str) -> str:
    if not isinstance(value, str):
        raise JsonFormError(f"{where}: expected {expected}, got {value!r}")
    if len(value) > MAX_TEXT:
        raise JsonFormError(f"{where}: {len(value)} characters, over {MAX_TEXT}")
    return value


def _parsed(parse: Callable[[str], _T], text: str, where: str) -> _T:
    try:
        return parse(text)
    except NotationError as exc:
        raise JsonFormError(f"{where}: {exc}") from None
