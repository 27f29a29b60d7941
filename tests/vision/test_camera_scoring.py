"""Wins scored from the camera alone: simulated hands laid out as exact detections (no model),
read by the reader, bridged into a camera-only table and compared with the truth's scores."""

from __future__ import annotations

import pytest

from engine.events import to_dict
from engine.table import Table
from models.camera_scoring import ScoredHand, laid_down, score_hand, win_summary
from tilesight.pipeline import demo_hands
from tilesight.visible_table import VisibleTable
from vision.calibration import Calibration
from vision.layout import layout
from vision.reader import TableReader
from vision.stabiliser import Stabiliser, TableDetection

UNIT = Calibration(((0.0, 0.0), (1024.0, 0.0), (1024.0, 1024.0), (0.0, 1024.0)))


def _read(table: VisibleTable, reader: TableReader, frames: int) -> list[dict[str, object]]:
    spots = layout(table.spec)
    seen = [TableDetection(s.name, *s.centre, sideways=s.sideways) for s in spots]
    occupied = [s.centre for s in spots]

    def empty_at(x: float, y: float) -> bool:  # an exact felt oracle
        return all(abs(x - cx) > 0.02 or abs(y - cy) > 0.02 for cx, cy in occupied)

    events: list[dict[str, object]] = []
    for _ in range(frames):
        events += reader.process_table(seen, empty_at)
    return events


def _scored_hands(seed: int, hands: int) -> list[ScoredHand]:
    truth = Table("wsom")
    rules = truth.rules.name if truth.rules is not None else "mcr"
    out = []
    for hand in demo_hands("wsom", seed, hands):
        table = VisibleTable()
        reader = TableReader(None, UNIT, Stabiliser(confirm_frames=2))
        truth_events: list[dict[str, object]] = []
        events: list[dict[str, object]] = []
        for action in hand.actions:
            applied = [to_dict(e) for e in truth.apply(action)]
            truth_events += applied
            win = next((e for e in applied if e["type"] == "win_declared"), None)
            if win is not None:
                table.reveal_win(*laid_down(win))
                events += _read(table, reader, 4)
            if table.apply(action):
                events += _read(table, reader, 4)
        events += _read(table, reader, reader.self_draw_frames + 10)
        out.append(score_hand(hand.number, rules, hand.dealer, truth_events, events))
    return out


@pytest.mark.parametrize("seed", [4, 20, 37, 48, 55, 1000])
def test_every_simulated_win_scores_the_same_from_the_camera(seed: int) -> None:
    """Self-drawn wins (the draw unseen), wins on a discard, added and concealed kongs: the
    camera-only table finds the same winner, fans, total and payments, and raises nothing.
    Seed 37 adds a kong mid-hand (its meld row pushed along: ghosts of the old places), seeds 4
    and 20 win on the replacement draw of a kong added just before, seed 48 on a discard of the
    kind discarded just before it (the river still ends in that kind once it is taken), seed 55
    on a kong added beside a pung, which is pushed along and read in the hand row a moment."""
    scored = _scored_hands(seed, 4)
    assert all(h.truth is not None for h in scored)  # these seeds' hands all end in a win
    assert [h.line() for h in scored if not h.same or h.alerts] == []


def test_a_hand_scored_differently_is_told() -> None:
    win = {"type": "win_declared", "seat": 1, "self_drawn": True, "discarder": None}
    scored = {**win, "score": {"fans": [{"name": "Self Drawn"}], "total": 5}, "deltas": [1]}
    hand = ScoredHand(1, win_summary([scored]), win_summary([{**scored, "seat": 2}]))
    assert not hand.same and "differs" in hand.line()
    assert win_summary([{"type": "hand_ended"}]) is None
    assert win_summary([{**win, "score": None}]) == {
        "seat": 1,
        "self_drawn": True,
        "unscored": True,
    }
