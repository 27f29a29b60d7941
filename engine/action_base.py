"""The base of every action and its one JSON form: the registry of action types by name, the
codec (tiles, runs, hands and winds in the forms of :mod:`engine.json_forms`, defaults left
out) and the range checks (:mod:`engine.action_bounds`). The action types themselves:
:mod:`engine.actions` (mahjong) and :mod:`engine.gouji` (registered with
:func:`register_action`)."""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.action_bounds import MAX_TEXT, field_problem
from engine.json_forms import (
    JsonFormError,
    hand_from_json,
    hand_to_json,
    tile_from_json,
    tile_to_json,
    tiles_from_json,
    tiles_to_json,
    wind_from_json,
    wind_to_json,
)
from engine.notation import Hand
from engine.tiles import Tile, Wind


class ActionFormatError(ValueError):
    """A JSON object that is not a valid action; the message quotes the offending value."""


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Action:
    """Base of every action: ``at`` is the time it happened (Unix seconds), when known."""

    name: ClassVar[str] = "action"
    at: float | None = None


_ACTIONS: dict[str, type[Action]] = {}


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
        return tile_to_json(value)
    if isinstance(value, Wind):
        return wind_to_json(value)
    if isinstance(value, Hand):
        return hand_to_json(value)
    if isinstance(value, Action):
        return action_to_dict(value)
    if isinstance(value, tuple) and value and all(isinstance(v, Tile) for v in value):
        return tiles_to_json(value)
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
            return tile_from_json(value, where)
        if hint is Wind:
            return wind_from_json(value, where)
        if hint is Hand:
            return hand_from_json(value, where)
        if hint is Action:
            return action_from_dict(value)
        if origin is tuple and args[0] is Tile:
            return tiles_from_json(value, where)
        if origin is tuple and args[0] is str:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ActionFormatError(f"{where}: expected a list of strings, got {value!r}")
            return tuple(value)
        if origin is tuple and args[0] is int:
            if not isinstance(value, list) or not all(_is_int(v) for v in value):
                raise ActionFormatError(f"{where}: expected a list of integers, got {value!r}")
            return tuple(value)
    except JsonFormError as exc:
        raise ActionFormatError(str(exc)) from None
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
