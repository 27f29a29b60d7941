"""Flowers set aside and a self-drawn winning tile laid apart (national rules, 单摆): read from
the hand row, bridged into a camera-only table and scored (exact detections, then the model)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from engine.events import Event, to_dict
from engine.table import Table
from engine.tiles import MeldKind, RelativeSeat, Tile
from models.drawn.camera import render_frame
from models.evaluation.camera_scoring import UNIT, exact_frames, exact_scored_hands
from models.evaluation.perception_check import installed_camera
from vision.calibration import Calibration
from vision.detector import Detector
from vision.engine_bridge import ActionBridge
from vision.faces import face
from vision.layout import (
    HAND_HALF_SPAN,
    HAND_V,
    TILE_W,
    MeldSpec,
    TableSpec,
    hand_start,
    layout,
    to_table,
)
from vision.observed import DiscardSeen, FlowerSeen, MeldSeen, Observed, to_json
from vision.reader import TableReader
from vision.stabiliser import Stabiliser, TableDetection


def _reader() -> TableReader:
    return TableReader(None, UNIT, Stabiliser(confirm_frames=2))


def _observe(detections: list[TableDetection], seat: int) -> Any:
    return Stabiliser(confirm_frames=1).update(detections).seats[seat]


def _read(reader: TableReader, spec: TableSpec, frames: int) -> list[dict[str, object]]:
    """What ``frames`` frames of ``spec`` bring, in its JSON form."""
    return [to_json(e) for e in exact_frames(reader, spec, frames)]


def _bridged(events: list[Observed], dealer: int = 0) -> tuple[Table, list[Event]]:
    table, bridge = Table("log", rules="mcr"), ActionBridge()
    out: list[Event] = []
    for event in [None, *events]:
        for action in bridge.start(dealer) if event is None else bridge.actions(event):
            out += table.apply(action)
    return table, out


@pytest.mark.parametrize("seat", range(4))
def test_flowers_in_a_hand_row_are_set_aside_not_hand_tiles(seat: int) -> None:
    spec = TableSpec()
    spec.flowers[seat] = ["3f", "6f"]
    spec.revealed[seat] = ["1m", "2m", "3m", "9p", "9p"]
    spec.melds[seat] = [MeldSpec(["W", "W", "W"], 0)]
    seen = [TableDetection(face(s.name), *s.centre, sideways=s.sideways) for s in layout(spec)]
    observed = _observe(seen, seat)
    assert [str(t) for t in observed.flowers] == ["3f", "6f"]
    assert [str(t) for t in observed.revealed] == ["1m", "2m", "3m", "9p", "9p"]
    assert len(observed.melds) == 1 and observed.win_apart is None
    # laid by the meld at the row's other end, or touching the hand, they are still flowers
    by_meld = to_table(seat, HAND_HALF_SPAN - 4.4 * TILE_W, HAND_V)
    touching = to_table(seat, hand_start(spec, seat) + 5.5 * TILE_W, HAND_V)
    moved = [d for d in seen if not str(d.face).endswith("f")]
    moved += [
        TableDetection(face("3f"), *by_meld, sideways=False),
        TableDetection(face("6f"), *touching, False),
    ]
    assert sorted(str(t) for t in _observe(moved, seat).flowers) == ["3f", "6f"]


def test_a_single_tile_laid_right_of_a_revealed_hand_is_apart() -> None:
    spec = TableSpec()
    spec.revealed[2] = ["1m", "2m", "3m", "4s", "5s", "6s", "7p", "8p", "9p", "E", "E", "2p", "4p"]
    spec.win_apart[2] = "3p"
    observed = _observe(
        [TableDetection(face(s.name), *s.centre, s.sideways) for s in layout(spec)], 2
    )
    assert observed.win_apart == Tile.parse("3p")
    assert len(observed.revealed) == 14  # the tile apart is part of the hand
    spec.revealed[2] = [*spec.revealed[2][:-2], "4p"]  # a tile short: the gap is the 2p's
    observed = _observe(
        [TableDetection(face(s.name), *s.centre, s.sideways) for s in layout(spec)], 2
    )
    assert observed.win_apart is None
    spec.revealed[2][-1:] = ["2p", "4p"]
    spec.win_apart[2] = None  # a hand laid in one row has no tile apart
    spec.revealed[2] = [*spec.revealed[2], "3p"]
    observed = _observe(
        [TableDetection(face(s.name), *s.centre, s.sideways) for s in layout(spec)], 2
    )
    assert observed.win_apart is None


def test_each_flower_is_reported_once_and_a_misread_one_is_corrected() -> None:
    reader, spec = _reader(), TableSpec()
    spec.flowers[1] = ["2f"]
    events = _read(reader, spec, 5)
    assert [(e["type"], e["seat"], e["tile"]) for e in events] == [("flower", 1, "2f")]
    assert _read(reader, spec, 5) == []
    spec.flowers[1] = ["3f"]  # read again as another flower, none more
    events = _read(reader, spec, 10)
    assert [(e["type"], e.get("flowers")) for e in events] == [("flowers_corrected", ["3f"])]
    spec.flowers[1] = ["3f", "7f"]
    assert [e["tile"] for e in _read(reader, spec, 5)] == ["7f"]
    spec.flowers[1] = []  # the next hand: the table is cleared
    assert _read(reader, spec, 12) == []
    spec.flowers[1] = ["3f"]
    assert [e["tile"] for e in _read(reader, spec, 5)] == ["3f"]


def test_a_flower_read_as_one_already_on_the_table_is_reported_as_a_free_one() -> None:
    """A set holds one of each flower: a second 2f is a misread, and the engine must not be
    told of two (a false fifth-copy alert for the referee); the camera's reading is kept."""
    reader, spec = _reader(), TableSpec()
    spec.flowers[1] = ["2f"]
    first = exact_frames(reader, spec, 5)
    spec.flowers[3] = ["2f"]
    second = exact_frames(reader, spec, 5)
    assert [(e["seat"], e["tile"], e.get("read_as")) for e in map(to_json, first + second)] == [
        (1, "2f", None),
        (3, "1f", "2f"),
    ]
    assert exact_frames(reader, spec, 5) == []  # still read 2f: nothing new
    spec.flowers[0] = ["1f", "6f"]  # 1f now taken: a season read twice becomes 5f
    spec.flowers[2] = ["6f"]
    third = exact_frames(reader, spec, 5)
    read = sorted((e["seat"], e["tile"], e.get("read_as")) for e in map(to_json, third))
    assert read in (
        [(0, "3f", "1f"), (0, "6f", None), (2, "5f", "6f")],
        [(0, "3f", "1f"), (0, "5f", "6f"), (2, "6f", None)],
    )
    table, _ = _bridged(first + second + third)
    assert not table.violations, table.violations


def test_a_flower_and_its_seats_discard_seen_together_come_flower_first() -> None:
    reader, spec = _reader(), TableSpec()
    spec.flowers[0] = ["5f"]
    spec.rivers[0] = ["9m"]
    events = _read(reader, spec, 5)
    assert [e["type"] for e in events] == ["flower", "discard"]


def test_flowers_reach_the_engine_with_their_replacement_draws() -> None:
    """The dealer's and another seat's flowers of the deal, a flower in a seat's own turn, one
    drawn as a kong's replacement and one confirmed only after its seat's discard: every count
    holds (no violation), each flower is the seat's, and each cost one tile of the wall."""
    tile = Tile.parse
    kong = MeldSeen(3, MeldKind.KONG, (tile("5s"),) * 4, RelativeSeat.UPPER, tile("5s"))
    events: list[Observed] = [
        FlowerSeen(0, tile("1f")),  # the deal's flowers, dealer first
        FlowerSeen(2, tile("2f")),
        DiscardSeen(0, tile("9m")),
        FlowerSeen(1, tile("3f")),  # in its own turn
        DiscardSeen(1, tile("E")),
        DiscardSeen(2, tile("5s")),
        kong,
        FlowerSeen(3, tile("4f")),  # the kong's replacement was a flower
        DiscardSeen(3, tile("N")),
        DiscardSeen(0, tile("1p")),
        FlowerSeen(0, tile("5f")),  # confirmed after seat 0's discard
        DiscardSeen(1, tile("2p")),
    ]
    table, engine_events = _bridged(events)
    assert not table.violations, table.violations
    flowers = [s["flowers"] for s in table.snapshot()["hand"]["seats"]]
    assert flowers == [["1f", "5f"], ["3f"], ["2f"], ["4f"]]
    draws = [e for e in engine_events if e.type == "tile_drawn"]
    wall = table.snapshot()["hand"]["wall"]
    assert sum(e.replacement for e in draws) == wall["replacements_taken"] == 6  # 5 flowers, a kong
    assert wall["drawn"] == len(draws) - 6 == 5  # five turns' draws (the dealer's 14th one)


def test_a_self_drawn_tile_laid_apart_is_the_winning_tile() -> None:
    """The camera sees which tile was drawn: the win is scored on it, not the best guess."""
    reader, spec = _reader(), TableSpec()
    hand = ["1m", "2m", "3m", "4s", "5s", "6s", "7p", "8p", "9p", "E", "E", "2p", "4p"]
    events = []
    for seat, tile in enumerate(["9m", "1s", "N", "C"]):
        spec.rivers[seat] = [tile]
        events += exact_frames(reader, spec, 5)
    spec.revealed[0], spec.win_apart[0] = hand, "3p"
    events += exact_frames(reader, spec, reader.self_draw_frames + 5)
    (shown,) = [e for e in map(to_json, events) if e["type"] == "hand_revealed"]
    assert shown["win_tile"] == "3p" and shown["discard_in_river"] is True
    table, engine_events = _bridged(events)
    assert not table.violations, table.violations
    win = next(to_dict(e) for e in engine_events if e.type == "win_declared")
    assert win["self_drawn"] and win["win_tile"] == "3p" and not win["win_tile_inferred"]
    names = {f["name"] for f in win["score"]["fans"]}
    assert "Closed Wait" in names  # 2p-4p waiting on 3p


@pytest.mark.parametrize("seed", [5, 9, 115, 232])
def test_national_hands_with_flowers_score_the_same_from_the_camera(seed: int) -> None:
    """144 tiles with flowers, MCR scoring: the flowers' fans, the wall they use and the wait
    of each self-drawn tile laid apart all come out as the truth's. Seed 9 adds a kong to a
    pung (its re-laid tiles are not a second pung); seeds 115 and 232 lay tiles where a meld
    pushed along by a kong lay (its ghost must give way to them)."""
    scored = exact_scored_hands(seed, 3, procedure="national")
    assert all(h.truth is not None for h in scored)
    assert any("Flower Tiles" in str(h.truth) for h in scored)
    assert [h.line() for h in scored if not h.same or h.alerts] == []


def test_the_model_reads_flowers_set_aside_on_a_rendered_table(faces) -> None:
    rng = np.random.default_rng(21)
    spec = TableSpec(concealed=[13, 13, 13, 13])
    spec.flowers = [["1f", "4f"], ["6f"], ["2f", "7f", "8f"], ["3f"]]
    spec.rivers = [["5m", "E"], ["9s"], [], ["C", "1p"]]
    camera = installed_camera(1920, 1080, rng)
    reader: TableReader | None = None
    for _ in range(4):
        frame = render_frame(spec, faces, rng, arms=0, corners=camera, distortion=0.0, table_seed=5)
        corners = tuple((float(x), float(y)) for x, y in frame.table_corners)
        reader = reader or TableReader(Detector(), Calibration(corners), Stabiliser())
        reader.process(frame.image)
    assert reader is not None and reader.published is not None
    read = [[str(t) for t in seat.flowers] for seat in reader.published.seats]
    assert read == spec.flowers
    assert all(not seat.revealed for seat in reader.published.seats)
