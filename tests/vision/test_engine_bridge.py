"""Observations drive the engine: a scripted hand, read through the stabiliser, gives the right
discard and meld events with no violations (detections placed exactly, so no model is involved)."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.table import Table
from models.camera_scoring import UNIT, exact_frames
from models.handvideo import scripted_hand
from vision.engine_bridge import ActionBridge
from vision.reader import TableReader
from vision.stabiliser import Stabiliser


def _events_for(
    seed: int, kong_rate: float = 0.0, face_down: bool = False
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    rng = np.random.default_rng(seed)
    steps = scripted_hand(
        rng, turns=30, claim_rate=0.3, concealed_kong_rate=kong_rate, face_down=face_down
    )
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=2))
    seen: list[dict[str, object]] = []
    for step in steps:  # an exact felt oracle; FeltCheck is tested on rendered tables
        seen.extend(exact_frames(reader, step.spec, 4))
    truth = [event for step in steps for event in step.events]
    return seen, truth


def _drive(seen: list[dict[str, object]]) -> list[Any]:
    """The reader's events through the bridge into a camera-mode table; no violations."""
    table = Table("log")
    bridge = ActionBridge()
    engine_events = []
    for event in [None, *seen]:
        for action in bridge.start() if event is None else bridge.actions(event):
            engine_events += table.apply(action)
    assert not table.violations, table.violations
    return engine_events


def test_scripted_hand_events_are_recovered_in_order() -> None:
    for seed in range(3):
        seen, truth = _events_for(seed)
        discards = [(e["seat"], e["tile"]) for e in seen if e["type"] == "discard"]
        assert discards == [(e["seat"], e["tile"]) for e in truth if e["type"] == "discard"]
        melds = [(e["seat"], e["kind"], e["claimed"]) for e in seen if e["type"] == "meld"]
        expected = [(e["seat"], e["kind"], e["claimed"]) for e in truth if e["type"] == "meld"]
        assert melds == expected
        assert expected, "the script should claim at least once"


def test_bridge_drives_the_engine_to_the_same_events() -> None:
    seen, truth = _events_for(1)
    table = Table("log")
    bridge = ActionBridge()
    engine_events = []
    for action in bridge.start():
        engine_events += table.apply(action)
    for event in seen:
        for action in bridge.actions(event):
            engine_events += table.apply(action)
    assert not table.violations, table.violations
    discarded = [(e.seat, str(e.tile)) for e in engine_events if e.type == "tile_discarded"]
    assert discarded == [(e["seat"], e["tile"]) for e in truth if e["type"] == "discard"]
    claimed = [(e.seat, str(e.meld.claimed)) for e in engine_events if e.type == "meld_claimed"]
    assert claimed == [(e["seat"], e["claimed"]) for e in truth if e["type"] == "meld"]


def test_concealed_kongs_reach_the_engine_in_their_own_turn() -> None:
    seen, truth = _events_for(4, kong_rate=0.2)
    kongs = [(e["seat"], e["tile"]) for e in truth if e["type"] == "concealed_kong"]
    assert len(kongs) >= 2, "the script should declare concealed kongs"

    def key(e: dict[str, object]) -> tuple[object, ...]:
        return e["type"], e["seat"], e.get("tile", e.get("claimed"))

    kinds = ("discard", "meld", "concealed_kong")
    assert [key(e) for e in seen if e["type"] in kinds] == [key(e) for e in truth]
    engine_events = _drive(seen)
    declared = [(e.seat, str(e.meld.first)) for e in engine_events if e.type == "kong_declared"]
    assert declared == kongs
    assert all(e.kind == "concealed" for e in engine_events if e.type == "kong_declared")


def test_face_down_kongs_reach_the_engine_as_kongs_of_unseen_kind() -> None:
    seen, truth = _events_for(4, kong_rate=0.2, face_down=True)
    kongs = [e["seat"] for e in truth if e["type"] == "face_down_kong"]
    assert len(kongs) >= 2, "the script should lay kongs face down"

    def key(e: dict[str, object]) -> tuple[object, ...]:
        return e["type"], e["seat"], e.get("tile", e.get("claimed"))

    kinds = ("discard", "meld", "concealed_kong", "face_down_kong")
    assert [key(e) for e in seen if e["type"] in kinds] == [key(e) for e in truth]
    engine_events = _drive(seen)
    declared = [e for e in engine_events if e.type == "kong_declared"]
    assert [e.seat for e in declared] == kongs and all(e.meld is None for e in declared)
    replacements = [e.seat for e in engine_events if e.type == "tile_drawn" and e.replacement]
    assert replacements == kongs  # each kong's replacement comes from the back of the wall


def test_a_pung_grown_to_four_is_an_added_kong_in_its_own_turn() -> None:
    """The reader reports an added kong as a kong meld of a kind the seat has a pung of; the
    bridge makes it the seat's draw then ``AddedKong`` (not a kong claimed on the live discard,
    which the engine refuses as illegal_meld)."""
    table, bridge = Table("log", rules="mcr"), ActionBridge()
    pung = {"type": "meld", "seat": 1, "kind": "pung", "claimed": "E", "tiles": ["E"] * 3}
    events: list[dict[str, object]] = [
        {"type": "discard", "seat": 0, "tile": "E"},
        pung,
        *({"type": "discard", "seat": s, "tile": t} for s, t in [(1, "9m"), (2, "1m"), (3, "2m")]),
        {"type": "discard", "seat": 0, "tile": "3m"},
        {**pung, "kind": "kong", "tiles": ["E"] * 4},
        {"type": "discard", "seat": 1, "tile": "4m"},
    ]
    actions = [
        a for e in [None, *events] for a in (bridge.start() if e is None else bridge.actions(e))
    ]
    for action in actions:
        table.apply(action)
    assert not table.violations, table.violations
    names = [type(a).__name__ for a in actions]
    assert names[-4:] == ["Draw", "AddedKong", "Draw", "Discard"]  # the replacement draw
    (meld,) = table.snapshot()["hand"]["seats"][1]["melds"]
    assert meld["kind"] == "kong" and meld["from_seat"] == 0 and meld["meld"].count("E") == 4
