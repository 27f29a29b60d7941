"""Machine-readable JSON Schema of every event on ``events/<type>`` and of the retained ``state``.

``events.schema.json`` next to this file is generated from the engine's event dataclasses by
:func:`build_schema` (``python -m tilesight.schema > tilesight/schema/events.schema.json``); a test
checks that the shipped file is current and that real emitted events validate against it. A Gouji
table's events (``tilesight.gouji-event/1``) have their own file, ``gouji-events.schema.json``
(``python -m tilesight.schema gouji``).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from importlib import resources
from typing import Any

import engine.table.events  # noqa: F401 - registers the table's event types
from engine.events import SCHEMA, Event, event_types
from engine.gouji.table_events import GOUJI_EVENT_SCHEMA
from engine.tiles import Meld, Tile

#: Modules whose event types are published (others may register types for their own use).
EVENT_MODULES = ("engine.table.events", "engine.gouji.table_events")
#: Per game: its events' schema id and the shipped schema file.
GAMES = {
    "mahjong": (SCHEMA, "events.schema.json"),
    "gouji": (GOUJI_EVENT_SCHEMA, "gouji-events.schema.json"),
}
TILE = {"type": "string", "pattern": "^([1-9][msp]|[ESWNCFP]|[1-8]f)$", "description": "a tile"}
MELD = {"type": "string", "description": "a meld in notation, e.g. [123m], [555p<2], {5555p}"}
_ENVELOPE = {
    "schema": {"const": SCHEMA},
    "event_id": {"type": "string", "description": "UUIDv7, time-sortable, unique"},
    "table": {"type": "string"},
    "epoch": {"type": "integer", "minimum": 0},
    "seq": {"type": "integer", "minimum": 1, "description": "1, 2, 3... within an epoch"},
    "timestamp": {"type": "number", "description": "Unix seconds"},
}


def _json_type(hint: Any) -> dict[str, Any]:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = [_json_type(a) for a in args if a is not type(None)]
        nullable = type(None) in args
        if nullable:
            options.append({"type": "null"})
        return options[0] if len(options) == 1 else {"anyOf": options}
    if hint is Tile:
        return dict(TILE)
    if hint is Meld:
        return dict(MELD)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return {"enum": [m.value for m in hint]}
    if origin in (tuple, list):
        return {"type": "array", "items": _json_type(args[0]) if args else {}}
    if origin is dict or hint is dict:
        return {"type": "object"}
    simple = {bool: "boolean", int: "integer", float: "number", str: "string"}
    if hint in simple:
        return {"type": simple[hint]}
    return {}


def _event_schema(cls: type[Event]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    properties: dict[str, Any] = {"type": {"const": cls.type}}
    required = ["schema", "type"]
    for f in dataclasses.fields(cls):
        properties[f.name] = _ENVELOPE.get(f.name) or _json_type(hints[f.name])
        required.append(f.name)  # the serialiser always writes every field
    properties["schema"] = {"const": cls.schema}
    doc = (cls.__doc__ or "").strip().splitlines()
    return {
        "type": "object",
        "description": doc[0] if doc and not doc[0].startswith(cls.__name__ + "(") else cls.type,
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def build_schema(game: str = "mahjong") -> dict[str, Any]:
    schema_id, filename = GAMES[game]
    events = {
        name: _event_schema(cls)
        for name, cls in sorted(event_types(schema_id).items())
        if cls.__module__ in EVENT_MODULES
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://tilesight.example/schema/{filename}",
        "title": "Tilesight MQTT payloads" + (f" ({game})" if game != "mahjong" else ""),
        "description": f"Events ({schema_id}) on tilesight/v1/<tournament>/<table>/events/<type>, "
        "referee-only types (violation) on .../private/events/<type>; "
        "the retained state snapshot is $defs/state.",
        "oneOf": [{"$ref": f"#/$defs/{name}"} for name in events],
        "$defs": {**events, "state": STATE},
    }


STATE = {
    "type": "object",
    "description": "Retained public snapshot on tilesight/v1/<tournament>/<table>/state",
    "properties": {
        "schema": {"const": "tilesight.state/1"},
        "tournament": {"type": "string"},
        "table": {"type": "string"},
        "epoch": {"type": "integer"},
        "seq": {"type": "integer", "description": "seq of the last event reflected"},
        "updated": {"type": "number"},
        "links": {
            "type": "object",
            "description": "table, camera, table_state: online, offline, absent, stopped, ...",
            "additionalProperties": {"type": "string"},
        },
        "link_detail": {
            "type": "object",
            "description": "why a link is offline",
            "additionalProperties": {"type": "string"},
        },
        "timer": {
            "type": "object",
            "properties": {
                "turn": {"type": ["integer", "null"]},
                "since": {"type": ["number", "null"]},
                "discard_limit_s": {"type": ["number", "null"]},
            },
            "required": ["turn", "since", "discard_limit_s"],
        },
        "game": {
            "type": "object",
            "description": "engine.table.snapshot.public_snapshot (Gouji: GoujiTable.snapshot)",
        },
    },
    "required": [
        "schema",
        "tournament",
        "table",
        "epoch",
        "seq",
        "updated",
        "links",
        "timer",
        "game",
    ],
}


def load_schema(game: str = "mahjong") -> dict[str, Any]:
    """The shipped schema of a game's events (package data)."""
    text = resources.files("tilesight.schema").joinpath(GAMES[game][1]).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def main() -> None:
    import sys  # noqa: PLC0415 - only the command line

    game = sys.argv[1] if len(sys.argv) > 1 else "mahjong"
    if game not in GAMES:
        raise SystemExit(f"unknown game {game!r}: one of {', '.join(GAMES)}")
    print(json.dumps(build_schema(game), indent=2, ensure_ascii=False))
