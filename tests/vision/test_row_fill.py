"""A box the detector doubted is a tile when it lies in a row between two it was sure of."""

from __future__ import annotations

import numpy as np
import pytest

from vision.row_fill import in_line


def _row(n: int, w: float = 40, h: float = 30, gap: float = 2) -> np.ndarray:
    """``n`` boxes side by side along x."""
    return np.array([[i * (w + gap), 0, i * (w + gap) + w, h] for i in range(n)], float)


def test_a_doubted_box_between_two_sure_ones_is_kept() -> None:
    boxes = _row(3)
    scores = np.array([0.8, 0.3, 0.9])
    assert in_line(boxes, scores, np.ones(3, bool), 0.5).tolist() == [0, 1, 2]
    turned = boxes[:, [1, 0, 3, 2]]  # the same row along y
    assert in_line(turned, scores, np.ones(3, bool), 0.5).tolist() == [0, 1, 2]


def test_a_doubted_box_at_a_row_end_or_under_the_floor_is_not() -> None:
    boxes = _row(3)
    assert in_line(boxes, np.array([0.8, 0.9, 0.3]), np.ones(3, bool), 0.5).tolist() == [0, 1]
    assert in_line(boxes, np.array([0.8, 0.1, 0.9]), np.ones(3, bool), 0.5).tolist() == [0, 2]


def test_a_doubted_box_over_a_sure_one_or_a_back_is_not() -> None:
    row = _row(3)
    straddler = np.array([[20, 0, 60, 30]], float)  # half over the first tile
    boxes = np.vstack([row[[0, 2]], straddler])
    assert in_line(boxes, np.array([0.8, 0.9, 0.3]), np.ones(3, bool), 0.5).tolist() == [0, 1]
    backs = np.array([True, False, True])  # the doubted box was found as a back
    assert in_line(row, np.array([0.8, 0.3, 0.9]), backs, 0.5).tolist() == [0, 2]


def test_doubt_does_not_vouch_for_doubt() -> None:
    boxes = _row(4)
    scores = np.array([0.8, 0.3, 0.3, 0.9])  # two doubted side by side: neither has two sure
    assert in_line(boxes, scores, np.ones(4, bool), 0.5).tolist() == [0, 3]


def test_a_box_of_another_size_or_off_the_line_does_not_vouch() -> None:
    boxes = _row(3)
    small = boxes.copy()
    small[2] = [84, 0, 100, 12]  # a quarter of a tile
    assert in_line(small, np.array([0.8, 0.3, 0.9]), np.ones(3, bool), 0.5).tolist() == [0, 2]
    off = boxes.copy()
    off[2, [1, 3]] += 20  # two thirds of a tile off the row
    assert in_line(off, np.array([0.8, 0.3, 0.9]), np.ones(3, bool), 0.5).tolist() == [0, 2]


def test_the_measured_revealed_hand_reads_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """The camera bench's wsom seed 3 hand 2, its winner's hand laid face up, rendered as the
    bench renders it: the 9s between 8s and 4p scored 0.375 and the hand read one tile short."""
    from bench.bench_camera_run import SIZE, _rules, plan_hands
    from models.art.faces import load_faces
    from models.drawn.camera import render_frame
    from models.evaluation.perception_check import installed_camera
    from vision import row_fill
    from vision.calibration import Calibration
    from vision.detector import Detector
    from vision.detector_backends import OnnxBoxes

    plan = plan_hands("wsom", 3, 2, _rules("wsom"))[1]
    rng = np.random.default_rng(3)
    corners = installed_camera(*SIZE, rng)
    faces = {name: [image] for name, image in load_faces().items()}
    swept = len(plan.specs) - len(plan.changes) - 1
    index = len(plan.specs) - 1
    spec = plan.specs[index]
    frame = render_frame(
        spec,
        faces,
        np.random.default_rng(plan.number * 1000 + (index - swept) % 1000),
        frame_size=SIZE,
        arms=0,
        corners=corners,
        distortion=0.0,
        table_seed=int(rng.integers(1 << 30)),
    )
    points = np.asarray(frame.table_corners).reshape(4, 2)
    calibration = Calibration(tuple((float(x), float(y)) for x, y in points))
    revealed = [*(spec.revealed[3] or []), spec.win_apart[3]]  # the self-drawn 1m laid apart
    assert revealed == ["2m", "3m", "7s", "8s", "9s", "4p", "5p", "6p", "P", "P", "1m"]

    def read() -> list[str]:
        found = Detector(boxes=OnnxBoxes(threshold=0.5)).detect(frame.image, calibration)  # run's
        near = [d for d in found if 580 <= (d.box[0] + d.box[2]) / 2 <= 680]
        row = [d for d in near if 190 <= (d.box[1] + d.box[3]) / 2 <= 570]
        return [str(d.face) for d in sorted(row, key=lambda d: d.box[1])]

    assert read() == revealed
    sure_only = lambda boxes, scores, faces, threshold: np.flatnonzero(scores >= threshold)  # noqa: E731
    monkeypatch.setattr(row_fill, "in_line", sure_only)
    assert "9s" not in read()  # what the camera read before
