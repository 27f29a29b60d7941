"""Observations drive the engine: a scripted hand, read through the stabiliser, gives the right
discard and meld events with no violations (detections placed exactly, so no model is involved)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from engine import actions as act
from engine.table import Table
from engine.tiles import MeldKind, RelativeSeat, Tile
from models.drawn.handvideo import scripted_hand
from models.evaluation.camera_scoring import UNIT, exact_frames
from vision.engine_bridge import ActionBridge
from vision.observed import DiscardSeen, MeldSeen, Observed, to_json
from vision.reader import TableReader
from vision.stabiliser import Stabiliser


def _events_for(
    seed: int, kong_rate: float = 0.0, face_down: bool = False
) -> tuple[list[Observed], list[dict[str, object]]]:
    rng = np.random.default_rng(seed)
    steps = scripted_hand(
        rng, turns=30, claim_rate=0.3, concealed_kong_rate=kong_rate, face_down=face_down
    )
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=2))
    seen: list[Observed] = []
    for step in steps:  # an exact felt oracle; FeltCheck is tested on rendered tables
        seen.extend(exact_frames(reader, step.spec, 4))
    truth = [event for step in steps for event in step.events]
    return seen, truth


def _drive(seen: list[Observed]) -> list[Any]:
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
        read, truth = _events_for(seed)
        seen = [to_json(e) for e in read]
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
    assert [key(e) for e in map(to_json, seen) if e["type"] in kinds] == [key(e) for e in truth]
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
    assert [key(e) for e in map(to_json, seen) if e["type"] in kinds] == [key(e) for e in truth]
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
    east = Tile.parse("E")
    pung = MeldSeen(1, MeldKind.PUNG, (east,) * 3, RelativeSeat.UPPER, east)
    events: list[Observed] = [
        DiscardSeen(0, east),
        pung,
        *(DiscardSeen(s, Tile.parse(t)) for s, t in [(1, "9m"), (2, "1m"), (3, "2m")]),
        DiscardSeen(0, Tile.parse("3m")),
        replace(pung, kind=MeldKind.KONG, tiles=(east,) * 4),
        DiscardSeen(1, Tile.parse("4m")),
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


def _camera_hand(procedure: str, seed: int, hide: int | None = None) -> tuple[Table, list, list]:
    """One simulated hand laid out exactly, read and bridged into a camera-only table under
    ``procedure``; ``hide``: the n-th discard the camera never reads (one the next seat follows
    with its own play, not claimed). Returns the table, its events and the truth's events."""
    from engine.events import to_dict
    from engine.simulate.actions import demo_hands
    from models.drawn.visible_table import VisibleTable

    hand = next(iter(demo_hands(procedure, seed, 1)))
    truth, camera = Table(procedure, rules="mcr"), Table(procedure, rules="mcr")
    visible, bridge = VisibleTable(), ActionBridge(procedure)
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=2))
    start, *deals = bridge.start(dealer=hand.dealer)
    assert isinstance(hand.actions[0], act.HandStart)
    out = [e for a in (replace(start, dice=hand.actions[0].dice), *deals) for e in camera.apply(a)]
    truth_events: list[dict[str, object]] = []
    hidden: set[tuple[int, int]] = set()
    discards = 0
    for action, after in zip(hand.actions, [*hand.actions[1:], None], strict=True):
        truth_events += [to_dict(e) for e in truth.apply(action)]
        if isinstance(action, act.Discard) and isinstance(after, act.Draw) and discards == hide:
            hidden.add((action.seat, len(visible.spec.rivers[action.seat])))
        discards += isinstance(action, act.Discard)
        if visible.apply(action):
            for event in exact_frames(reader, visible.spec, 4, frozenset(hidden)):
                for bridged in bridge.actions(event):
                    out += camera.apply(bridged)
    return camera, [to_dict(e) for e in out], truth_events


def test_the_dealer_is_dealt_fourteen_under_wsom_and_national() -> None:
    """Under a procedure with a wall the dealer's first discard follows its 14 dealt tiles:
    no draw before it, and no out_of_turn or big_xianggong alert (both were raised at every
    hand before the bridge knew the procedure)."""
    for procedure in ("wsom", "national"):
        camera, events, truth = _camera_hand(procedure, 3)
        assert not camera.violations, (procedure, camera.violations)
        dealt = [e["count"] for e in events if e["type"] == "tiles_dealt"]
        assert sorted(dealt) == [13, 13, 13, 14], dealt
        first = next(i for i, e in enumerate(events) if e["type"] == "tile_discarded")
        assert not any(e["type"] == "tile_drawn" and not e["replacement"] for e in events[:first])
        seen = [(e["seat"], e["tile"]) for e in events if e["type"] == "tile_discarded"]
        assert seen == [(e["seat"], e["tile"]) for e in truth if e["type"] == "tile_discarded"]
        live = [e["live_left"] for e in events if e["type"] == "tile_drawn"]
        assert live == [e["live_left"] for e in truth if e["type"] == "tile_drawn"]


def test_a_discard_never_read_is_inferred_when_the_next_seat_plays() -> None:
    """A discard the camera never reads: the next seat's discard shows the turn passed, so the
    engine gets it as an ``inferred`` discard of an unseen tile; no out_of_turn alert."""
    camera, events, truth = _camera_hand("wsom", 3, hide=5)
    assert not camera.violations, camera.violations
    discarded = [e for e in events if e["type"] == "tile_discarded"]
    truths = [e for e in truth if e["type"] == "tile_discarded"]
    (unseen,) = [e for e in discarded if e["tile"] is None]
    assert unseen["inferred"] is True and unseen["seat"] == truths[5]["seat"]
    assert len(discarded) == len(truths)
    assert [e["seat"] for e in discarded] == [e["seat"] for e in truths]
    assert not [e for e in discarded if e["inferred"] and e["tile"] is not None]
