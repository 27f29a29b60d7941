"""Everything that can happen at a table, as frozen dataclasses with one JSON form.

Actions are the engine's *input* (records, cameras, the shuffling table, referees); events are its
output. A table log is a file of actions, one JSON object per line (see ``docs/table-log.md``).
Unknown information is representable: a :class:`Draw` with ``tile=None`` (a camera saw a draw but
not the tile), a :class:`Deal` with ``tiles=None`` and a ``count``, a :class:`Win` without a
declared hand.

>>> action_from_dict({"action": "discard", "seat": 1, "tile": "5m", "at": 3.5})
Discard(at=3.5, seat=1, tile=Tile('5m'), row=None, col=None)
>>> action_to_dict(Pung(seat=2, tile=Tile.parse("E")))
{'action': 'pung', 'seat': 2, 'tile': 'E'}
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.action_bounds import MAX_TEXT, field_problem
from engine.notation import (
    Hand,
    NotationError,
    format_hand,
    format_tiles,
    parse_hand,
    parse_tile,
    parse_tiles,
)
from engine.tiles import Tile, Wind

_ACTIONS: dict[str, type[Action]] = {}


class ActionFormatError(ValueError):
    """A JSON object that is not a valid action; the message quotes the offending value."""


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Action:
    """Base of every action: ``at`` is the time it happened (Unix seconds), when known."""

    name: ClassVar[str] = "action"
    at: float | None = None


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
    """

    name: ClassVar[str] = "win"
    seat: int
    tile: Tile | None = None
    hand: Hand | None = None


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
_ACTIONS.update({cls.name: cls for cls in ACTION_TYPES})


def register_action(cls: type[Action]) -> type[Action]:
    """Add another game's action type (Gouji's plays) to the one JSON form and journal."""
    if _ACTIONS.get(cls.name, cls) is not cls:
        raise TypeError(f"action {cls.name!r} registered twice")
    _ACTIONS[cls.name] = cls
    return cls


def action_types() -> Mapping[str, type[Action]]:
    return dict(_ACTIONS)


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON-ready form: ``action`` first, tiles in notation, defaults left out."""
    out: dict[str, Any] = {"action": action.name}
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if value == f.default or (value == () and f.name == "dice"):
            continue
        out[f.name] = _encode(value)
    return out


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Rebuild an action from :func:`action_to_dict` output (errors: ActionFormatError)."""
    if not isinstance(data, Mapping):
        raise ActionFormatError(f"an action must be a JSON object, got {data!r}")
    kind = data.get("action")
    cls = _ACTIONS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        known = ", ".join(sorted(_ACTIONS))
        raise ActionFormatError(f"unknown action {data.get('action')!r} (known: {known})")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    extra = sorted(set(data) - set(fields) - {"action"})
    if extra:
        raise ActionFormatError(f"unknown fields for {cls.name}: {extra}")
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for name in fields:
        if name in data:
            raw = data[name]
            if isinstance(raw, str) and len(raw) > MAX_TEXT:  # before parsing it
                raise ActionFormatError(
                    f"{cls.name}.{name}: {len(raw)} characters, over {MAX_TEXT}"
                )
            kwargs[name] = _decode(hints[name], raw, f"{cls.name}.{name}")
    try:
        action = cls(**kwargs)
    except TypeError as exc:
        raise ActionFormatError(f"{cls.name}: {exc}") from None
    check_action(action)
    return action


def check_action(action: Action) -> None:
    """Refuse (ActionFormatError) an action with a field out of range (engine.action_bounds):
    applied to every action read, and by the service to every action before it is journaled."""
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if isinstance(value, Action):
            check_action(value)
        elif (problem := field_problem(f.name, value)) is not None:
            raise ActionFormatError(f"{action.name}.{f.name} {problem}")


def _encode(value: Any) -> Any:
    if isinstance(value, Tile):
        return str(value)
    if isinstance(value, Wind):
        return value.letter
    if isinstance(value, Hand):
        return format_hand(value)
    if isinstance(value, Action):
        return action_to_dict(value)
    if isinstance(value, tuple) and value and all(isinstance(v, Tile) for v in value):
        return format_tiles(value)
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def _decode(hint: Any, value: Any, where: str) -> Any:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union or str(origin) == "<class 'types.UnionType'>":
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _decode(inner[0], value, where)
    try:
        if hint is Tile:
            return parse_tile(_text(value, where))
        if hint is Wind:
            return Wind.parse(_text(value, where))
        if hint is Hand:
            return parse_hand(_text(value, where))
        if hint is Action:
            return action_from_dict(value)
        if origin is tuple and args[0] is Tile:
            return parse_tiles(_text(value, where))
        if origin is tuple and args[0] is str:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ActionFormatError(f"{where}: expected a list of strings, got {value!r}")
            return tuple(value)
        if origin is tuple and args[0] is int:
            if not isinstance(value, list) or not all(_is_int(v) for v in value):
                raise ActionFormatError(f"{where}: expected a list of integers, got {value!r}")
            return tuple(value)
    except NotationError as exc:
        raise ActionFormatError(f"{where}: {exc}") from None
    if hint is int:
        if not _is_int(value):
            raise ActionFormatError(f"{where}: expected an integer, got {value!r}")
        return value
    if hint is float:
        if not isinstance(value, int | float) or isinstance(value, bool) or math.isnan(value):
            raise ActionFormatError(f"{where}: expected a number, got {value!r}")
        try:
            return float(value)
        except OverflowError:  # an integer of hundreds of digits
            raise ActionFormatError(f"{where}: number out of range") from None
    if hint is bool:
        if not isinstance(value, bool):
            raise ActionFormatError(f"{where}: expected true or false, got {value!r}")
        return value
    if hint is str:
        return _text(value, where)
    raise ActionFormatError(f"{where}: cannot decode {value!r}")  # pragma: no cover


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ActionFormatError(f"{where}: expected a string, got {value!r}")
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
