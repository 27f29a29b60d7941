"""Everything that can happen at a table, as frozen dataclasses with one JSON form.

Actions are the engine's *input* (records, cameras, the shuffling table, referees); events are its
output. A table log is a file of actions, one JSON object per line (see ``docs/table-log.md``).
Unknown information is representable: a :class:`Draw` with ``tile=None`` (a camera saw a draw but
not the tile), a :class:`Deal` with ``tiles=None`` and a ``count``, a :class:`Win` without a
declared hand.

>>> action_from_dict({"action": "discard", "seat": 1, "tile": "5m", "at": 3.5})
Discard(at=3.5, seat=1, tile=Tile('5m'), row=None, col=None, inferred=False)
>>> action_to_dict(Pung(seat=2, tile=Tile.parse("E")))
{'action': 'pung', 'seat': 2, 'tile': 'E'}
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.action_base import (
    Action,
    ActionFormatError,
    action_from_dict,
    action_to_dict,
    action_types,
    check_action,
    register_action,
)
from engine.notation import Hand
from engine.tiles import Tile, Wind

__all__ = [
    "ACTION_TYPES",
    "Action",
    "ActionFormatError",
    "AddedKong",
    "Chow",
    "CommandRecord",
    "ConcealedKong",
    "Correction",
    "Deal",
    "Discard",
    "Draw",
    "Flower",
    "HandStart",
    "Kong",
    "Pung",
    "ShowKong",
    "TableFault",
    "Washout",
    "Win",
    "action_from_dict",
    "action_to_dict",
    "action_types",
    "check_action",
    "register_action",
]


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class HandStart(Action):
    """A new hand. Missing dealer / prevalent wind follow the procedure's rotation."""

    name: ClassVar[str] = "hand_start"
    procedure: str | None = None
    dealer: int | None = None
    prevalent_wind: Wind | None = None
    dice: tuple[int, ...] = ()
    wall: tuple[Tile, ...] | None = None
    hand_number: int | None = None


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Deal(Action):
    """Tiles dealt to a seat at the start of a hand (``tiles=None``: only the count is known)."""

    name: ClassVar[str] = "deal"
    seat: int
    tiles: tuple[Tile, ...] | None = None
    count: int | None = None


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Draw(Action):
    """A draw from the wall; ``replacement`` None means "infer" (after a kong or flower)."""

    name: ClassVar[str] = "draw"
    seat: int
    tile: Tile | None = None
    replacement: bool | None = None


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Discard(Action):
    """A discard; a camera may add where it saw the tile land (``row``, ``col`` of the river).

    ``inferred``: the camera did not read this discard but the next state shows it (a claim of
    it, or the next seat playing); ``tile`` None: a discard never read, its tile unknown."""

    name: ClassVar[str] = "discard"
    seat: int
    tile: Tile | None
    row: int | None = None
    col: int | None = None
    inferred: bool = False


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Chow(Action):
    """Chow of the live discard; ``tiles`` are the three tiles of the run (claimed one included)."""

    name: ClassVar[str] = "chow"
    seat: int
    tiles: tuple[Tile, ...]
    tile: Tile | None = None


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Pung(Action):
    """Pung of the live discard (``tile`` None: whatever the live discard is)."""

    name: ClassVar[str] = "pung"
    seat: int
    tile: Tile | None = None


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Kong(Action):
    """Exposed kong of the live discard (big exposed kong)."""

    name: ClassVar[str] = "kong"
    seat: int
    tile: Tile | None = None


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class ConcealedKong(Action):
    """A kong of four own tiles; ``tile`` None: laid all face down, its kind not seen (a camera
    under rules that lay concealed kongs face down). Such a kong counts as a set of unknown
    kind until a :class:`ShowKong` turns it face up."""

    name: ClassVar[str] = "concealed_kong"
    seat: int
    tile: Tile | None = None


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class ShowKong(Action):
    """A concealed kong laid face down turned face up (at the hand's end, so that the others can
    check it): from then on it is a concealed kong of ``tile``."""

    name: ClassVar[str] = "show_kong"
    seat: int
    tile: Tile


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class AddedKong(Action):
    """A tile added to the seat's own exposed pung (small exposed kong; can be robbed)."""

    name: ClassVar[str] = "added_kong"
    seat: int
    tile: Tile


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Flower(Action):
    name: ClassVar[str] = "flower"
    seat: int
    tile: Tile


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Win(Action):
    """A declared win. Self-drawn, on a discard or robbing a kong is inferred from the table.

    ``tile`` defaults to the tile just drawn or the live discard; ``hand`` is the revealed
    concealed hand *without* the winning tile (needed when the table never saw it), or, for a
    self-drawn win whose draw no one saw and no ``tile``, the whole hand *with* it (the engine
    takes the tile that scores the most; ``win_declared.win_tile_inferred``).
    ``one_unread``: a camera read ``hand`` one tile short with ``tile`` perhaps already among
    it; should ``hand`` and ``tile`` not make a win, the engine takes one copy of ``tile`` out
    and the tile no camera read as the one that makes the least-scoring legal win
    (``win_declared.hand_tile_inferred``).
    """

    name: ClassVar[str] = "win"
    seat: int
    tile: Tile | None = None
    hand: Hand | None = None
    one_unread: bool = False


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Washout(Action):
    name: ClassVar[str] = "washout"


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Correction(Action):
    """Supersedes the action behind event ``supersedes`` with ``replacement`` (None: drop it)."""

    name: ClassVar[str] = "correction"
    supersedes: str
    replacement: Action | None = None
    reason: str = ""


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class TableFault(Action):
    """A fault reported by the shuffling-table driver (jam, tile count mismatch...)."""

    name: ClassVar[str] = "table_fault"
    code: str
    detail: str = ""


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class CommandRecord(Action):
    """A referee or table command the service handled, recorded so it gets an event in sequence.

    Changes no game state; ``alert`` is the acknowledged alert's event_id (``ack`` only),
    ``result`` the command's result as compact JSON text."""

    name: ClassVar[str] = "command_record"
    verb: str
    outcome: str
    account: str | None = None
    correlation: str | None = None
    alert: str | None = None
    note: str = ""
    error: str = ""
    result: str = ""


ACTION_TYPES: tuple[type[Action], ...] = (
    HandStart,
    Deal,
    Draw,
    Discard,
    Chow,
    Pung,
    Kong,
    ConcealedKong,
    ShowKong,
    AddedKong,
    Flower,
    Win,
    Washout,
    Correction,
    TableFault,
    CommandRecord,
)
for _type in ACTION_TYPES:
    register_action(_type)
