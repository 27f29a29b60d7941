"""The shipped JSON Schema is current, and real published events and state validate against it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema

from tests.service.conftest import Probe, wait_until
from tilesight.demo.broker import MosquittoBroker
from tilesight.demo.play import DemoOptions, run_demo
from tilesight.schema import build_schema, load_schema


def test_shipped_schema_is_generated_from_the_event_types():
    assert load_schema() == json.loads(json.dumps(build_schema())), (
        "the event types changed: python -m tilesight.schema > tilesight/schema/events.schema.json"
    )


def test_shipped_gouji_schema_is_generated_from_its_event_types():
    assert load_schema("gouji") == json.loads(json.dumps(build_schema("gouji"))), (
        "python -m tilesight.schema gouji > tilesight/schema/gouji-events.schema.json"
    )
    assert load_schema("gouji")["$defs"]["cards_played"]["properties"]["schema"] == {
        "const": "tilesight.gouji-event/1"
    }


def test_published_events_and_state_validate(broker: MosquittoBroker, tmp_path: Path):
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    with Probe(broker.url, "validator") as probe:
        probe.subscribe("tilesight/v1/schema/T01/#")
        summary = run_demo(
            DemoOptions(
                mqtt=broker.url,
                tournament="schema",
                hands=2,
                seed=5,
                pace_s=0,
                quiet=True,
                consumer=False,
                outbox=tmp_path / "o.sqlite",
            ),
            io.StringIO(),
        )
        wait_until(
            lambda: (
                len(probe.on(""))
                and len([m for m in probe.messages if "/events/" in m.topic]) >= summary.events
            ),
            20,
            "every event",
        )
        events = [json.loads(m.payload) for m in probe.messages if "/events/" in m.topic]
        states = [json.loads(m.payload) for m in probe.on("/T01/state")]
    validator = jsonschema.Draft202012Validator(schema)
    for event in events:
        errors = list(validator.iter_errors(event))
        assert not errors, (event["type"], [e.message for e in errors])
    types = {e["type"] for e in events}
    assert {"hand_started", "tile_discarded", "win_declared", "hand_ended"} <= types
    assert all(e["tile"] is None for e in events if e["type"] == "tile_drawn")  # stays private
    state_validator = jsonschema.Draft202012Validator(
        {"$defs": schema["$defs"], "$ref": "#/$defs/state"}
    )
    assert states
    for state in states[-3:]:
        assert not list(state_validator.iter_errors(state))
    assert [e["seq"] for e in events] == list(range(1, summary.events + 1))
