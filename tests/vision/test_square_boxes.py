"""Near-square face boxes on the table are read again as tile-sized boxes both ways round; unsure
faces of any shape once, the way round their box shows."""

from __future__ import annotations

import numpy as np

from vision.crops import CLASSES_OUT, TILE_NAMES
from vision.square_boxes import (
    TABLE_BOX_H,
    TABLE_BOX_W,
    reread_unsure_faces,
    settle_square_boxes,
)


def reading(name: str, probability: float) -> np.ndarray:
    """Outputs for one crop: ``probability`` on ``name`` upright, the rest on ``back``."""
    out = np.zeros(CLASSES_OUT, np.float32)
    out[2 * TILE_NAMES.index(name)] = probability
    out[-1] = 1 - probability
    return out


class Reads:
    """read_crops that answers the upright candidates, then the sideways ones, as told."""

    def __init__(self, upright: list[np.ndarray], sideways: list[np.ndarray]) -> None:
        self.answers = np.stack([*upright, *sideways])
        self.calls: list[int] = []

    def __call__(self, crops: np.ndarray) -> np.ndarray:
        assert crops.shape[1:] == (48, 36, 3)
        self.calls.append(len(crops))
        return self.answers.copy()


CANVAS = np.full((1024, 1024, 3), 120, np.uint8)
SQUARE = [500.0, 500.0, 541.0, 540.0]  # 41x40: no way round shows
TILE = [300.0, 300.0, 336.0, 348.0]  # a plain upright tile box


def test_a_clearly_better_reading_replaces_the_box_and_the_reading() -> None:
    faces = np.array([TILE, SQUARE])
    probs = np.stack([reading("5m", 0.99), reading("3m", 0.40)])
    read = Reads([reading("2m", 0.30)], [reading("5m", 0.95)])
    settled, settled_probs = settle_square_boxes(CANVAS, faces, probs, read)
    assert read.calls == [2]  # only the square box, both ways round, in one call
    assert settled[0].tolist() == TILE and settled_probs[0].argmax() == probs[0].argmax()
    x1, y1, x2, y2 = settled[1]
    assert abs((x2 - x1) - TABLE_BOX_H) < 1e-3 and abs((y2 - y1) - TABLE_BOX_W) < 1e-3
    assert abs((x1 + x2) / 2 - 520.5) < 1e-3 and abs((y1 + y2) / 2 - 520) < 1e-3  # same centre
    assert settled_probs[1].argmax() == 2 * TILE_NAMES.index("5m")
    assert faces[1].tolist() == SQUARE  # the inputs are not changed


def test_a_reading_only_a_little_better_changes_nothing() -> None:
    faces, probs = np.array([SQUARE]), np.stack([reading("8p", 0.90)])
    read = Reads([reading("8s", 0.95)], [reading("8p", 0.93)])
    settled, settled_probs = settle_square_boxes(CANVAS, faces, probs, read)
    assert settled.tolist() == [SQUARE] and np.array_equal(settled_probs, probs)


def test_a_face_reading_the_same_both_ways_round_keeps_the_detectors_box() -> None:
    # a blurred 1p: both tile-sized boxes read it far better than the square box, but equally,
    # so which way it lies is not known: the box stays (its way round came from the detector)
    faces, probs = np.array([SQUARE]), np.stack([reading("1p", 0.50)])
    read = Reads([reading("1p", 0.97)], [reading("1p", 0.98)])
    settled, settled_probs = settle_square_boxes(CANVAS, faces, probs, read)
    assert settled.tolist() == [SQUARE]
    assert settled_probs[0].max() > 0.97  # the better reading is kept


def test_tile_shaped_boxes_are_not_read_again() -> None:
    faces, probs = np.array([TILE]), np.stack([reading("E", 0.2)])
    read = Reads([reading("E", 1.0)], [reading("E", 1.0)])
    settled, settled_probs = settle_square_boxes(CANVAS, faces, probs, read)
    assert read.calls == [] and settled.tolist() == [TILE] and np.array_equal(settled_probs, probs)


class Tracked:
    """read_crops that records the crops it is given and answers as told."""

    def __init__(self, answers: list[np.ndarray]) -> None:
        self.answers = np.stack(answers)
        self.crops: list[np.ndarray] = []

    def __call__(self, crops: np.ndarray) -> np.ndarray:
        self.crops.append(crops)
        return self.answers.copy()


def test_an_unsure_face_read_clearly_better_in_a_tile_sized_box_takes_that_reading() -> None:
    canvas = CANVAS.copy()
    slid = [310.0, 296.0, 346.0, 344.0]  # the box slid 10 px right of the tile at TILE
    canvas[300:348, 300:336] = 30  # the tile, dark on the felt
    faces = np.array([TILE, slid, [600.0, 300.0, 648.0, 336.0]])  # sure, unsure, unsure wide
    probs = np.stack([reading("5m", 0.99), reading("2f", 0.55), reading("9s", 0.60)])
    read = Tracked([reading("3f", 0.80), reading("9p", 0.65)])
    reread = reread_unsure_faces(canvas, faces, probs, read, 0.8)
    assert len(read.crops) == 1 and len(read.crops[0]) == 2  # the two unsure faces, one call
    assert reread[1].argmax() == 2 * TILE_NAMES.index("3f")  # 0.80 >= 0.55 + margin
    assert np.array_equal(reread[2], probs[2])  # 0.65 is not clearly better than 0.60
    assert np.array_equal(reread[0], probs[0]) and probs[1].argmax() == 2 * TILE_NAMES.index("2f")
    # the tile-sized box is centred on the slid box: a third of it is felt
    assert 60 < read.crops[0][0].mean() < 110


def test_nothing_is_read_again_when_every_face_is_sure_or_the_look_is_off() -> None:
    faces, probs = np.array([TILE]), np.stack([reading("E", 0.5)])
    read = Tracked([reading("W", 1.0)])
    assert np.array_equal(reread_unsure_faces(CANVAS, faces, probs, read, 0.0), probs)
    assert np.array_equal(reread_unsure_faces(CANVAS, faces, probs, read, 0.4), probs)
    assert read.crops == []
