"""Classifier crops cut where the photo detector puts its boxes (models.photo.box_crops)."""

from __future__ import annotations

import numpy as np

from models.photo.box_crops import photo_crops
from models.photo.crops import back_crops
from vision.crops import BACK_INDEX, CLASSES_OUT, TILE_NAMES
from vision.photo import GEOMETRIES
from vision.photo_boxes import OrientedBox

KIND = TILE_NAMES.index("7p")


class _Boxes:
    def __init__(self, boxes: list[OrientedBox]) -> None:
        self.boxes = boxes

    def find(self, _image: np.ndarray) -> list[OrientedBox]:
        return self.boxes


class _Classifier:
    """Knows one asymmetric face, dark on its left half; upright when its top is pale."""

    def read_crops(self, crops: np.ndarray) -> np.ndarray:
        probs = np.full((len(crops), CLASSES_OUT), 0.01)
        left = crops[:, :, :18].mean(axis=(1, 2, 3))
        right = crops[:, :, 18:].mean(axis=(1, 2, 3))
        probs[:, 2 * KIND] = np.where(left < right, 5.0, 0.01)
        return probs / probs.sum(axis=1, keepdims=True)


class _Reader:
    def __init__(self, boxes: list[OrientedBox]) -> None:
        self.boxes = _Boxes(boxes)
        self.detector = _Classifier()


def _scene(mirrored: bool) -> tuple[np.ndarray, list[dict], list[OrientedBox]]:
    image = np.full((120, 200, 3), 200, np.uint8)
    tiles, boxes = [], []
    for i in range(2):
        x = 20 + 80 * i
        face = np.full((60, 40, 3), 235, np.uint8)
        face[:, :20] = 30
        image[30:90, x : x + 40] = face[:, ::-1] if mirrored else face
        tiles.append({"tile": "7p", "box": [x - 3, 27, x + 43, 93]})  # the whole tile
        corners = np.array([[x, 34], [x + 40, 34], [x + 40, 90], [x, 90]], np.float64)  # short
        boxes.append(OrientedBox(corners, 0.9, False))
    far = np.array([[5, 100], [15, 100], [15, 115], [5, 115]], np.float64)  # on no tile
    return image, tiles, [*boxes, OrientedBox(far, 0.8, False)]


def test_each_box_on_a_tile_gives_crops_at_every_geometry_labelled_as_the_tile() -> None:
    for mirrored in (False, True):
        image, tiles, boxes = _scene(mirrored)
        rng = np.random.default_rng(0)
        xs, ys, flipped = photo_crops(image, tiles, _Reader(boxes), rng, jitter=2)  # type: ignore[arg-type]
        assert flipped is mirrored
        assert len(xs) == 2 * (len(GEOMETRIES) + 2)  # the box on no tile gives none
        assert set(ys) == {2 * KIND}
        crops = np.stack(xs)
        left, right = (
            crops[:, 8:40, 4:14].mean(axis=(1, 2, 3)),
            crops[:, 8:40, 22:32].mean(axis=(1, 2, 3)),
        )
        assert (left < right).all()  # as the face is, never mirrored


def test_drawn_backs_are_saturated_crops_labelled_back() -> None:
    x, y = back_crops(50, seed=1)
    assert x.shape == (50, 48, 36, 3) and x.dtype == np.uint8
    assert (y == BACK_INDEX).all()
    assert len({int(c.mean()) for c in x}) > 10  # of many colours and lights
