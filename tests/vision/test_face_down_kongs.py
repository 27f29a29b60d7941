"""Concealed kongs laid all face down (national rules): read as kongs of unseen kind, shown with
the winning hand, and scored through the engine (exact detections: no model involved)."""

from __future__ import annotations

from typing import Any

from engine.actions import Win
from engine.events import Event, to_dict
from engine.table import Table
from engine.tiles import Tile
from models.evaluation.camera_scoring import UNIT, exact_frames
from vision.engine_bridge import ActionBridge
from vision.faces import BACK, face
from vision.layout import MeldSpec, TableSpec, layout
from vision.observed import DiscardSeen, FaceDownKongSeen, HandRevealed, Observed, to_json
from vision.reader import TableReader
from vision.stabiliser import Stabiliser, TableDetection

HAND = ["1m", "2m", "3m", "4s", "5s", "6s", "7p", "8p", "9p", "5p"]  # waits on 5p


def _read(reader: TableReader, spec: TableSpec, frames: int = 5) -> list[Observed]:
    return exact_frames(reader, spec, frames)


def _play(
    turn_up: bool, hand: list[str], turn_up_later: bool = False
) -> tuple[list[dict[str, object]], Table, list[Event]]:
    """Seat 0 lays a kong of E face down and discards 9m; seat 1 discards 5p; seat 0 wins on
    it, laying its hand down and (``turn_up``) turning the kong face up, or (``turn_up_later``)
    turning it up only after the win was published."""
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=2))
    spec = TableSpec()
    spec.melds[0] = [MeldSpec(["back"] * 4, -1)]
    events = _read(reader, spec)
    spec.rivers[0] = ["9m"]
    events += _read(reader, spec)
    spec.rivers[1] = ["5p"]
    events += _read(reader, spec)
    spec.rivers[1] = []
    spec.melds[0] = [MeldSpec(["E"] * 4 if turn_up else ["back"] * 4, -1)]
    spec.revealed[0] = [*hand, "5p"]
    events += _read(reader, spec, frames=reader.hold_frames + 5)  # a kong left down: it waits
    if turn_up_later:
        spec.melds[0] = [MeldSpec(["E"] * 4, -1)]
        events += _read(reader, spec)
    table = Table("log", rules="mcr")
    bridge = ActionBridge()
    engine_events: list[Event] = []
    for event in [None, *events]:
        for action in bridge.start() if event is None else bridge.actions(event):
            engine_events += table.apply(action)
    return [to_json(e) for e in events], table, engine_events


def _win(engine_events: list[Event]) -> dict[str, Any]:
    return next(to_dict(e) for e in engine_events if e.type == "win_declared")


def test_a_face_down_kong_is_read_once_though_a_back_flickers() -> None:
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.melds[3] = [MeldSpec(["N", "N", "N"], 2), MeldSpec(["back"] * 4, -1)]
    spots = [TableDetection(face(s.name), *s.centre, sideways=s.sideways) for s in layout(spec)]
    kong_backs = [s for s in spots if s.face is BACK and s in spots[-4:]]
    events = []
    for frame in range(9):
        shown = [s for s in spots if frame % 3 != 1 or s is not kong_backs[1]]
        events += map(to_json, reader.process_table(shown, empty_at=lambda x, y: False))
    read = [(e["type"], e["seat"]) for e in events if e["type"] != "discard"]
    assert read == [("face_down_kong", 3), ("meld", 3)]  # the kong in the seat's own turn


def test_a_kong_turned_up_with_the_winning_hand_is_shown_and_scored() -> None:
    events, table, engine_events = _play(turn_up=True, hand=HAND)
    kinds = [e["type"] for e in events if e["type"] != "river_taken"]  # the 5p won on
    assert kinds == ["face_down_kong", "discard", "discard", "hand_revealed"]
    assert not table.violations, table.violations
    shown = [to_dict(e) for e in engine_events if e.type == "kong_shown"]
    assert [(e["seat"], e["meld"]) for e in shown] == [(0, "{EEEE}")]
    win = _win(engine_events)
    assert win["score"] is not None and win["hand"] == "123m456s7895p {EEEE}"
    assert "Concealed Kong" in {f["name"] for f in win["score"]["fans"]}


def test_a_kong_left_face_down_is_not_guessed_from_the_hand() -> None:
    hand = ["1m", "1m", "1m", "1m", "2m", "3m", "7p", "8p", "9p", "5p"]  # four 1m, not the kong
    events, table, engine_events = _play(turn_up=False, hand=hand)
    revealed = next(e for e in events if e["type"] == "hand_revealed")
    assert revealed["face_down_kongs"] == 1 and len(revealed["tiles"]) == 11  # type: ignore[arg-type]
    assert not table.violations, table.violations
    assert not [e for e in engine_events if e.type == "kong_shown"]
    assert _win(engine_events)["score"] is None  # the kong's kind is unseen: no score to publish


def test_a_kong_turned_up_after_the_win_was_published_scores_it_then() -> None:
    events, table, engine_events = _play(turn_up=False, hand=HAND, turn_up_later=True)
    reveals = [e for e in events if e["type"] == "hand_revealed"]
    assert [r.get("face_down_kongs") for r in reveals] == [1, None]
    assert not table.violations, table.violations
    kinds = [e.type for e in engine_events]
    assert kinds[-5:] == ["win_declared", "hand_ended", "kong_shown", "win_scored", "hand_ended"]
    win, scored = _win(engine_events), to_dict(engine_events[-2])
    assert win["score"] is None and scored["win_event"] == win["event_id"]
    assert scored["hand"] == "123m456s7895p {EEEE}"
    assert "Concealed Kong" in {f["name"] for f in scored["score"]["fans"]}
    first_end, final_end = (to_dict(e) for e in engine_events if e.type == "hand_ended")
    assert first_end["deltas"] == [0, 0, 0, 0]
    assert final_end["deltas"] == scored["deltas"] and final_end["scores"] == scored["deltas"]
    assert sum(scored["deltas"]) == 0 and scored["deltas"][0] > 0


def test_a_bridge_forgets_the_hand_before_when_the_next_starts() -> None:
    bridge = ActionBridge()
    bridge.start()
    bridge.actions(DiscardSeen(0, Tile.parse("9m")))
    bridge.actions(FaceDownKongSeen(2))
    bridge.start()  # the next hand: seat 2 has no kong face down in it
    bridge.actions(DiscardSeen(0, Tile.parse("5p")))
    tiles = ["1m"] * 4 + ["2m", "3m", "7p", "8p", "9p", "E", "E", "E", "5p", "5p"]
    (win,) = bridge.actions(HandRevealed(2, tuple(map(Tile.parse, tiles))))
    assert isinstance(win, Win) and win.hand is not None  # four 1m in hand, not a shown kong
    assert str(win.tile) == "5p" and len(win.hand.concealed) == 13


def test_the_kong_turned_up_is_the_four_standing_apart_not_four_in_the_hand() -> None:
    hand = ["1m"] * 4 + ["2m", "3m", "7p", "8p", "9p", "5p"]  # 111m 123m 789p 55p + the kong
    events, table, engine_events = _play(turn_up=True, hand=hand)
    assert not table.violations, table.violations
    shown = [to_dict(e) for e in engine_events if e.type == "kong_shown"]
    assert [e["meld"] for e in shown] == ["{EEEE}"]
    win = _win(engine_events)
    assert win["hand"] == "111123m7895p {EEEE}"  # the four 1m stay in the hand
    revealed = next(e for e in events if e["type"] == "hand_revealed")
    assert revealed["fours_apart"] == ["E"]
    assert win["score"] is not None and win["score"]["valid"]
