"""What Qujing reads from a win beyond the tiles: ``WinRequest.extras`` keys and hand colours.

``WinRequest.extras`` keys Qujing reads (``tilesight score --jsonl`` passes them through):

* ``"own_discards"``: the winner's discards this hand, in order (a list of tiles or notation
  strings, or one notation string such as ``"ESWNCFP"``). Ten winds / seven winds look at them.
  When absent, the table's generic extras are used instead: ``"discards"`` (every discard of
  the hand as ``(seat, tile)``, claimed ones too) filtered by ``"seat"``, else the winner's river
  from ``"rivers"`` (where a discard another player claimed is missing).
* ``"kong_discard"``: true when the winning discard was made by a player right after his kong
  replacement draw (杠上炮).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.json_forms import JsonFormError, tile_to_json, tiles_from_json
from engine.notation import NotationError
from engine.scoring.decompose import HONOR_BASE, Counts
from engine.tiles import Tile

OWN_DISCARDS = "own_discards"
KONG_DISCARD = "kong_discard"
HONOURS = 3  # the colour number of winds and dragons (0-2 are 万, 条, 筒)


def own_discards_from(extras: Mapping[str, Any]) -> tuple[Tile, ...]:
    """The winner's own discards; raises NotationError quoting bad input."""
    if OWN_DISCARDS in extras:
        return _tiles(extras[OWN_DISCARDS], OWN_DISCARDS)
    rivers, seat, log = extras.get("rivers"), extras.get("seat"), extras.get("discards")
    if isinstance(log, Sequence) and isinstance(seat, int):
        pairs = [p for p in log if isinstance(p, Sequence) and len(p) == 2]
        return _tiles([tile for who, tile in pairs if who == seat], "discards")
    if isinstance(rivers, Sequence) and isinstance(seat, int) and 0 <= seat < len(rivers):
        return _tiles(rivers[seat], "rivers")
    return ()


def _tiles(raw: Any, key: str) -> tuple[Tile, ...]:
    """A run of tiles in its JSON form (engine.json_forms), or a sequence of Tile values."""
    if isinstance(raw, Sequence) and not isinstance(raw, str):
        raw = [tile_to_json(item) if isinstance(item, Tile) else item for item in raw]
    try:
        return tiles_from_json(raw, key)
    except JsonFormError as exc:
        raise NotationError(str(exc)) from None


def flag_from(extras: Mapping[str, Any], key: str) -> bool:
    value = extras.get(key, False)
    if not isinstance(value, bool):
        raise NotationError(f"{key} must be true or false, got {value!r}")
    return value


def colours(counts: Counts) -> frozenset[int]:
    """The colours present: 0-2 the numbered suits, 3 (:data:`HONOURS`) every honour."""
    return frozenset(
        min(i // 9, HONOURS) if i < HONOR_BASE else HONOURS for i, n in enumerate(counts) if n
    )
