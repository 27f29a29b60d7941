"""The kong probe reads only the slots beside short hand-row groups of one kind, and adds a back
where the classifier reads one. A drawn table (backs magenta, faces white, felt green) and a
stand-in classifier that calls a mostly magenta crop a back keep the rules apart from the model."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.crops import BACK_INDEX, CLASSES_OUT
from vision.detector import Detection
from vision.detector_backends import CANVAS
from vision.faces import BACK, face
from vision.kong_probe import probe_kong_backs
from vision.layout import MeldSpec, TableSpec, TileSpot, layout
from vision.stabiliser import Stabiliser

MAGENTA = (255, 0, 255)


def _table(spec: TableSpec) -> tuple[np.ndarray, list[TileSpot]]:
    canvas = np.full((CANVAS, CANVAS, 3), (40, 110, 30), np.uint8)
    spots = layout(spec)
    for spot in spots:
        colour = MAGENTA if spot.name == "back" else (235, 235, 235)
        cv2.fillConvexPoly(canvas, (spot.corners() * CANVAS).astype(np.int32), colour)
    return canvas, spots


def _box(spot: TileSpot) -> tuple[float, float, float, float]:
    corners = spot.corners() * CANVAS
    (x1, y1), (x2, y2) = corners.min(axis=0), corners.max(axis=0)
    return float(x1), float(y1), float(x2), float(y2)


class StandIn:
    """Reads a crop as a back when most of it is magenta; counts what it was asked."""

    def __init__(self) -> None:
        self.crops = 0

    def __call__(self, crops: np.ndarray) -> np.ndarray:
        self.crops += len(crops)
        magenta = (np.abs(crops.astype(int) - MAGENTA).sum(axis=3) < 60).mean(axis=(1, 2))
        probs = np.zeros((len(crops), CLASSES_OUT), np.float32)
        probs[np.arange(len(crops)), np.where(magenta > 0.5, BACK_INDEX, 0)] = 1.0
        return probs


def _kong_table(seat: int, names: list[str]) -> TableSpec:
    spec = TableSpec(walls=[(0, 0)] * 4)
    spec.melds[seat] = [MeldSpec(["W", "W", "W"], 0), MeldSpec(names, -1)]
    return spec


@pytest.mark.parametrize("seat", range(4))
@pytest.mark.parametrize(
    "names",
    [["back", "6m", "6m", "back"], ["back", "back", "back", "6m"], ["6m", "back", "back", "6m"]],
)
def test_a_kongs_unseen_backs_are_read_and_it_reads_as_a_kong(seat: int, names: list[str]) -> None:
    canvas, spots = _table(_kong_table(seat, names))
    seen = [Detection(face(s.name), _box(s), 0.9, s.orientation) for s in spots if s.name != "back"]
    found = probe_kong_backs(canvas, seen, StandIn())
    added = [d for d in found if d.face is BACK]
    backs = [_box(s) for s in spots if s.name == "back"]
    assert len(added) == len(backs)
    for d in added:
        assert min(np.abs(np.subtract(d.box, b)).max() for b in backs) < 2
    from vision.reader import table_detections

    observed = Stabiliser(confirm_frames=1).update(table_detections(found)).seats[seat]
    assert [str(t) for t in observed.concealed_kongs] == ["6m"]


def test_only_short_upright_groups_of_one_kind_are_probed_and_felt_is_never_read() -> None:
    spec = TableSpec(walls=[(0, 0)] * 4)
    spec.melds[0] = [MeldSpec(["2p", "3p", "4p"], 0), MeldSpec(["N", "N", "N"], 2)]
    spec.revealed[0] = ["1s", "1s", "5s", "6s", "7s", "E", "E", "E"]
    canvas, spots = _table(spec)
    seen = [Detection(face(s.name), _box(s), 0.9, s.orientation) for s in spots]
    reader = StandIn()
    assert probe_kong_backs(canvas, seen, reader) == seen
    assert reader.crops == 0  # a chow, a pung with its turned tile and a hand: nothing to read
    pung = [d for d in seen if not (str(d.face) == "N" and d.orientation % 180)]  # turned: unseen
    reader = StandIn()
    assert probe_kong_backs(canvas, pung, reader, empty_at=lambda x, y: True) == pung
    assert reader.crops == 0  # beside the two upright N lie felt and the turned N's slot
    assert probe_kong_backs(canvas, pung, reader) == pung  # read, but no back there


@pytest.mark.parametrize("seat", range(4))
def test_a_kong_laid_face_down_is_completed_from_one_weak_back(seat: int) -> None:
    canvas, spots = _table(_kong_table(seat, ["back"] * 4))
    backs = [s for s in spots if s.name == "back"]
    seen = [Detection(face(s.name), _box(s), 0.9, s.orientation) for s in spots if s.name != "back"]
    seen.append(Detection(BACK, _box(backs[2]), 0.3, backs[2].orientation))  # under "strong"
    found = probe_kong_backs(canvas, seen, StandIn(), empty_at=lambda x, y: False)
    assert sorted(round(d.box[0] + d.box[1]) for d in found if d.face is BACK) == sorted(
        round(_box(s)[0] + _box(s)[1]) for s in backs
    )
    from vision.reader import table_detections

    observed = Stabiliser(confirm_frames=1).update(table_detections(found)).seats[seat]
    assert observed.face_down_kongs == 1 and observed.concealed_kongs == ()


def test_a_back_too_weak_to_start_a_search_reads_nothing() -> None:
    canvas, spots = _table(_kong_table(0, ["back"] * 4))
    backs = [s for s in spots if s.name == "back"]
    reader = StandIn()
    seen = [Detection(BACK, _box(backs[1]), 0.2, backs[1].orientation)]
    assert probe_kong_backs(canvas, seen, reader) == seen and reader.crops == 0


@pytest.mark.parametrize("seat", range(4))
def test_two_kongs_side_by_side_joined_by_their_weak_backs_are_both_completed(seat: int) -> None:
    from vision.kong_probe import _pitch
    from vision.reader import table_detections

    spec = TableSpec(walls=[(0, 0)] * 4)
    spec.melds[seat] = [MeldSpec(["back", "9s", "9s", "back"], -1)]
    spec.melds[seat].append(MeldSpec(["back", "3m", "3m", "back"], -1))
    canvas, spots = _table(spec)
    backs = [s for s in spots if s.name == "back"]
    along = sorted(backs, key=lambda s: float(np.mean(s.corners(), axis=0) @ _pitch(seat)))
    inner = along[1:3]  # the touching end tiles, found weakly and a little off towards each other
    seen = [Detection(face(s.name), _box(s), 0.9, s.orientation) for s in spots if s.name != "back"]
    for spot, direction in zip(inner, (1, -1), strict=True):
        box = np.add(_box(spot), np.tile(direction * 0.08 * _pitch(seat), 2))
        seen.append(Detection(BACK, tuple(float(v) for v in box), 0.3, spot.orientation))  # type: ignore[arg-type]
    found = probe_kong_backs(canvas, seen, StandIn(), empty_at=lambda x, y: False)
    observed = Stabiliser(confirm_frames=1).update(table_detections(found)).seats[seat]
    assert sorted(str(t) for t in observed.concealed_kongs) == ["3m", "9s"]
