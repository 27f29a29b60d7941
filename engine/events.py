"""Event base type, time-sortable ids and the one JSON serialiser for every event.

Every event is a frozen dataclass with a ``type`` (class-level), the schema version, an
``event_id`` (UUIDv7: time-sortable), the table it belongs to, ``(epoch, seq)`` and a timestamp in
Unix seconds. Concrete event types register themselves by subclassing :class:`Event`.
A correction is a new event that names the one it supersedes, never an edit.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.json_forms import (
    meld_from_json,
    meld_to_json,
    tile_from_json,
    tile_to_json,
    tiles_from_json,
    tiles_to_json,
    wind_from_json,
    wind_to_json,
)
from engine.tiles import Meld, Tile, Wind

SCHEMA = "tilesight.event/1"
#: Event classes by ``(schema, type)``: each game's events carry their own schema id.
_REGISTRY: dict[tuple[str, str], type[Event]] = {}


def make_event_id(unix_ms: int, entropy: bytes) -> str:
    """A UUIDv7 string from a millisecond timestamp and 10 bytes of entropy (caller supplies both).

    >>> make_event_id(0x0192_3456_789A, bytes(10))
    '01923456-789a-7000-8000-000000000000'
    """
    if len(entropy) < 10:
        raise ValueError("UUIDv7 needs 10 bytes of entropy")
    rand = int.from_bytes(entropy[:10], "big")
    rand_a = (rand >> 68) & 0xFFF
    rand_b = rand & ((1 << 62) - 1)
    value = (unix_ms & ((1 << 48) - 1)) << 80 | 0x7 << 76 | rand_a << 64 | 0b10 << 62 | rand_b
    h = f"{value:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


@dataclasses.dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every engine event."""

    type: ClassVar[str] = "event"
    #: The payload's schema id; another game's events (Gouji) override it.
    schema: ClassVar[str] = SCHEMA

    event_id: str
    table: str
    epoch: int
    seq: int
    timestamp: float

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "type" in cls.__dict__:
            key = (cls.schema, cls.type)
            if key in _REGISTRY and _REGISTRY[key] is not cls:
                raise TypeError(f"event type {cls.type!r} of {cls.schema} registered twice")
            _REGISTRY[key] = cls


def event_types(schema: str = SCHEMA) -> Mapping[str, type[Event]]:
    """The registered event classes of one schema, by type."""
    return {kind: cls for (known, kind), cls in _REGISTRY.items() if known == schema}


def to_dict(event: Event) -> dict[str, Any]:
    """The JSON-ready form: ``schema`` and ``type`` first, tiles, runs, melds and winds in the
    forms of :mod:`engine.json_forms`."""
    out: dict[str, Any] = {"schema": event.schema, "type": event.type}
    for f in dataclasses.fields(event):
        out[f.name] = _plain(getattr(event, f.name))
    return out


def to_json(event: Event) -> str:
    return json.dumps(to_dict(event), ensure_ascii=False, separators=(",", ":"))


def from_dict(data: Mapping[str, Any]) -> Event:
    """Rebuild an event from :func:`to_dict` output; unknown types and fields are errors."""
    schema = data.get("schema")
    if not any(schema == known for known, _ in _REGISTRY):
        raise ValueError(f"unsupported event schema: {schema!r}")
    cls = _REGISTRY.get((str(schema), str(data.get("type"))))
    if cls is None:
        raise ValueError(f"unknown event type: {data.get('type')!r}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    extra = set(data) - set(fields) - {"schema", "type"}
    if extra:
        raise ValueError(f"unknown fields for {cls.type}: {sorted(extra)}")
    hints = _resolved_hints(cls)
    kwargs = {name: _typed(hints[name], data[name]) for name in fields if name in data}
    return cls(**kwargs)


def _plain(value: Any) -> Any:
    if isinstance(value, Tile):
        return tile_to_json(value)
    if isinstance(value, Meld):
        return meld_to_json(value)
    if isinstance(value, Wind):
        return wind_to_json(value)
    if isinstance(value, tuple) and value and all(isinstance(v, Tile) for v in value):
        return tiles_to_json(value)
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _resolved_hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _typed(hint: Any, value: Any) -> Any:
    """Convert JSON values back for the field types events use (tiles, melds, enums, tuples)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if value is None:
        return None
    if origin in (typing.Union, types.UnionType):
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _typed(arg, value)
            except (ValueError, TypeError):  # JsonFormError is a ValueError
                continue
        return value
    if hint is Tile:
        return tile_from_json(value)
    if hint is Meld:
        return meld_from_json(value)
    if hint is Wind:
        return wind_from_json(value)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(value)
    if origin is tuple and args and args[0] is Tile:
        return tiles_from_json(value)
    if origin is tuple:
        item = args[0] if args else Any
        return tuple(_typed(item, v) for v in value)
    if origin is list:
        return [_typed(args[0] if args else Any, v) for v in value]
    if origin in (dict, Mapping):
        return {k: _typed(args[1] if len(args) > 1 else Any, v) for k, v in value.items()}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        sub = typing.get_type_hints(hint)
        return hint(**{k: _typed(sub[k], v) for k, v in value.items()})
    return value
