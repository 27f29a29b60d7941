"""Oriented boxes recovered from the axis-aligned boxes of photos turned by their publisher."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.photo.turned_boxes import fitted_quads, overlap_share, turned_quad
from models.scenes.obb_set import write_real_obb


def _turned_rectangle(
    centre: tuple[float, float], w: float, h: float, degrees: float
) -> np.ndarray:
    turn = math.radians(degrees)
    rotation = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    local = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    return np.asarray(local @ rotation.T + centre)


def _box(quad: np.ndarray) -> tuple[float, float, float, float]:
    (x1, y1), (x2, y2) = quad.min(axis=0), quad.max(axis=0)
    return float(x1), float(y1), float(x2), float(y2)


@pytest.mark.parametrize("degrees", [-28.0, -12.0, 0.0, 7.0, 20.0])
def test_a_turned_rectangle_comes_back_from_its_box(degrees: float) -> None:
    truth = _turned_rectangle((200, 150), 60, 80, degrees)
    quad = turned_quad(_box(truth), degrees)
    assert quad is not None
    assert quad == pytest.approx(truth, abs=1e-6)


def test_a_box_no_turned_rectangle_fits_is_refused() -> None:
    # a square box at 30 degrees would need a rectangle of negative side: a 45-degree square
    assert turned_quad((0, 0, 100, 100), 44.0) is None
    assert turned_quad((0, 0, 100, 20), 30.0) is None


def test_tiles_that_only_touch_do_not_overlap_but_a_misfit_does() -> None:
    turn = 17.0
    step = (62 * math.cos(math.radians(turn)), 62 * math.sin(math.radians(turn)))
    row = [
        _turned_rectangle((100 + step[0] * i, 100 + step[1] * i), 60, 80, turn) for i in range(4)
    ]
    assert overlap_share(row, (400, 500)) < 0.05
    assert fitted_quads([_box(q) for q in row], turn, (400, 500)) is not None
    # the same place twice over (a tray fitted at the photo's turn over its neighbours)
    assert overlap_share(row + row[:2], (400, 500)) > 0.4
    assert fitted_quads([_box(q) for q in row + row[:2]], turn, (400, 500)) is None


def test_a_photo_turned_past_the_limit_is_left_out() -> None:
    box = _box(_turned_rectangle((100, 100), 60, 80, 35.0))
    assert fitted_quads([box], 35.0, (300, 300)) is None
    assert fitted_quads([box], 35.0, (300, 300), max_turn=40.0) is not None


def test_a_turned_photo_becomes_its_tiles_turned_rectangles(tmp_path: Path) -> None:
    image = np.full((300, 400, 3), 40, np.uint8)
    truth = [
        _turned_rectangle(
            (120 + 70 * i * math.cos(math.radians(18)), 150 + 70 * i * math.sin(math.radians(18))),
            66,
            90,
            18.0,
        )
        for i in range(3)
    ]
    for quad in truth:
        cv2.fillPoly(image, [np.round(quad * 16).astype(np.int32)], (235, 235, 235), cv2.LINE_AA, 4)
    image = cv2.GaussianBlur(image, (5, 5), 1.2)  # a photo's edges, not a drawing's stairs
    folder, out = tmp_path / "set", tmp_path / "out"
    for path in (folder / "images", folder / "labels", out / "images", out / "labels"):
        path.mkdir(parents=True)
    cv2.imwrite(str(folder / "images" / "a.png"), image)
    record = {
        "image": "a.png",
        "width": 400,
        "height": 300,
        "tiles": [{"tile": "E", "box": list(_box(q))} for q in truth],
    }
    (folder / "labels" / "a.json").write_text(json.dumps(record))
    assert write_real_obb(folder, out) == 1
    lines = (out / "labels" / "set-a.txt").read_text().splitlines()
    assert len(lines) == 3
    for line, quad in zip(lines, truth, strict=True):
        values = np.array([float(v) for v in line.split()[1:]]).reshape(4, 2) * [400, 300]
        assert values == pytest.approx(quad, abs=4.0)  # within the turn's one-degree bins
