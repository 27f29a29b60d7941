"""What the reader sees happen on the table: typed, frozen observations, tiles as engine tiles.

:class:`vision.reader.TableReader` returns them frame by frame; :class:`vision.engine_bridge.
ActionBridge` turns them into engine actions. Their one JSON form (``tilesight watch``, logs,
tests that print) is :func:`to_json`, e.g.
``{"type": "discard", "seat": 1, "tile": "5m", "index": 3, "row": 0, "column": 3, "frame": 42}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.json_forms import tile_to_json, tiles_to_json
from engine.tiles import MeldKind, RelativeSeat, Tile


@dataclass(frozen=True)
class DiscardSeen:
    """A tile new at the end of a river; ``inferred``: shown only by the claim that took it
    (the meld's turned tile), before the camera confirmed it in the river."""

    TYPE: ClassVar[str] = "discard"
    seat: int
    tile: Tile
    index: int = 0  # its place in the river, six to a row
    frame: int = 0
    inferred: bool = False


@dataclass(frozen=True)
class RiverTaken:
    """A river's last tile gone (claimed, most often)."""

    TYPE: ClassVar[str] = "river_taken"
    seat: int
    tile: Tile
    frame: int = 0


@dataclass(frozen=True)
class RiverCorrected:
    """A river read again other than it was (a tile misread before, or put back)."""

    TYPE: ClassVar[str] = "river_corrected"
    seat: int
    river: tuple[Tile, ...]
    frame: int = 0


@dataclass(frozen=True)
class MeldSeen:
    """A group with a turned tile (``claimed``, from ``source``); ``kind`` None: its tiles make
    no legal meld (reported as :class:`MeldUnreadable`, :class:`vision.reported.Reported`)."""

    TYPE: ClassVar[str] = "meld"
    seat: int
    kind: MeldKind | None
    tiles: tuple[Tile, ...]
    source: RelativeSeat
    claimed: Tile
    frame: int = 0


@dataclass(frozen=True)
class MeldUnreadable:
    """A group with a turned tile whose tiles make no legal meld: for the referee."""

    TYPE: ClassVar[str] = "meld_unreadable"
    seat: int
    tiles: tuple[Tile, ...]
    source: RelativeSeat
    claimed: Tile
    frame: int = 0


@dataclass(frozen=True)
class ConcealedKongSeen:
    """Four tiles in a hand row, face down but for one to three faces of ``tile``."""

    TYPE: ClassVar[str] = "concealed_kong"
    seat: int
    tile: Tile
    frame: int = 0


@dataclass(frozen=True)
class FaceDownKongSeen:
    """Four backs in a hand row: a concealed kong laid face down, its kind not seen."""

    TYPE: ClassVar[str] = "face_down_kong"
    seat: int
    frame: int = 0


@dataclass(frozen=True)
class FlowerSeen:
    """A flower set aside face up; one read as a kind already on the table is reported as a
    free one (``read_as``: the kind it was read as)."""

    TYPE: ClassVar[str] = "flower"
    seat: int
    tile: Tile
    frame: int = 0
    read_as: Tile | None = None


@dataclass(frozen=True)
class FlowersCorrected:
    """A seat's flowers read again as other kinds, none more: for the referee."""

    TYPE: ClassVar[str] = "flowers_corrected"
    seat: int
    flowers: tuple[Tile, ...]
    frame: int = 0


@dataclass(frozen=True)
class HandRevealed:
    """A hand laid face up: ``sets`` beside it, ``face_down_kongs`` still face down (their
    tiles not in ``tiles``), ``fours_apart`` fours laid alone (kongs turned up, likely),
    ``win_tile`` a tile laid apart at its right (self-drawn), ``discard_in_river`` whether the
    last discard still lay in its river when published (None: not told)."""

    TYPE: ClassVar[str] = "hand_revealed"
    seat: int
    tiles: tuple[Tile, ...]
    sets: int = 0
    frame: int = 0
    face_down_kongs: int = 0
    fours_apart: tuple[Tile, ...] = ()
    win_tile: Tile | None = None
    discard_in_river: bool | None = None


@dataclass(frozen=True)
class TableCleared:
    """Nothing on the table for a while: cleared for the next hand, or dealt."""

    TYPE: ClassVar[str] = "table_cleared"
    frame: int = 0


#: Anything the reader reports of a seat.
SeatObserved = (
    DiscardSeen
    | RiverTaken
    | RiverCorrected
    | MeldSeen
    | MeldUnreadable
    | ConcealedKongSeen
    | FaceDownKongSeen
    | FlowerSeen
    | FlowersCorrected
    | HandRevealed
)
#: Anything the reader reports.
Observed = SeatObserved | TableCleared


def to_json(event: Observed) -> dict[str, object]:
    """The observation's one JSON form: tiles in notation, kinds and sources by name, fields
    left at their "nothing to tell" value left out."""
    out: dict[str, object] = {"type": event.TYPE}
    if not isinstance(event, TableCleared):
        out["seat"] = event.seat
    if isinstance(event, DiscardSeen):
        out["tile"], out["index"] = tile_to_json(event.tile), event.index
        out["row"], out["column"] = divmod(event.index, 6)
    elif isinstance(event, RiverTaken | ConcealedKongSeen | FlowerSeen):
        out["tile"] = tile_to_json(event.tile)
    elif isinstance(event, RiverCorrected):
        out["river"] = _tiles(event.river)
    elif isinstance(event, FlowersCorrected):
        out["flowers"] = _tiles(event.flowers)
    elif isinstance(event, MeldSeen | MeldUnreadable):
        out["tiles"], out["source"] = _tiles(event.tiles), event.source.name.lower()
        out["claimed"] = tile_to_json(event.claimed)
    elif isinstance(event, HandRevealed):
        out["tiles"], out["sets"] = _tiles(event.tiles), event.sets
    out["frame"] = event.frame
    if isinstance(event, DiscardSeen) and event.inferred:
        out["inferred"] = True
    elif isinstance(event, MeldSeen):
        out["kind"] = event.kind.value if event.kind is not None else "unreadable"
    elif isinstance(event, FlowerSeen) and event.read_as is not None:
        out["read_as"] = tile_to_json(event.read_as)
    elif isinstance(event, HandRevealed):
        out.update(_revealed_extras(event))
    return out


def _revealed_extras(event: HandRevealed) -> dict[str, object]:
    out: dict[str, object] = {}
    if event.face_down_kongs:
        out["face_down_kongs"] = event.face_down_kongs
    if event.fours_apart:
        out["fours_apart"] = _tiles(event.fours_apart)
    if event.win_tile is not None:
        out["win_tile"] = tile_to_json(event.win_tile)
    if event.discard_in_river is not None:
        out["discard_in_river"] = event.discard_in_river
    return out


def _tiles(tiles: tuple[Tile, ...]) -> list[str]:
    return tiles_to_json(tiles)
