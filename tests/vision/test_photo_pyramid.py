"""The photo detector's pyramid (vision/photo_boxes.py): which levels are read, and tiles far
smaller than the photo found with clutter elsewhere in it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.photo_boxes import ENOUGH, SURE_BOX, PhotoBoxes

PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "camerash-tiles"


class _Scripted(PhotoBoxes):
    """A pyramid whose levels give scripted rows (x, y, w, h, angle, score, class) in window
    pixels, the scales it was asked for recorded."""

    def __init__(self, coarse_rows: np.ndarray, finer_rows: np.ndarray | None = None) -> None:
        self.size, self.threshold = 320, 0.2
        self.coarse_rows = coarse_rows
        self.finer_rows = np.zeros((0, 7)) if finer_rows is None else finer_rows
        self.scales: list[float] = []

    def level(self, image: np.ndarray, scale: float, keep_large: bool) -> np.ndarray:
        self.scales.append(scale)
        level = len(self.scales)
        rows = {1: self.coarse_rows, 2: self.finer_rows}.get(level, np.zeros((0, 7))).copy()
        rows[:, :4] /= scale
        return rows


def _rows(count: int, score: float, side: float = 40.0) -> np.ndarray:
    return np.array([[60.0 * k + 30, 100, side, side * 1.3, 0, score, 0] for k in range(count)])


def test_one_box_at_the_coarse_level_does_not_stop_the_search() -> None:
    boxes = _Scripted(_rows(1, 0.9))
    boxes.find(np.zeros((1200, 1600, 3), np.uint8))
    assert len(boxes.scales) > 1  # a lone box may be clutter: finer levels are read


def test_a_sure_coarse_box_stands_against_the_finer_levels_boxes_on_it() -> None:
    """A near tile found surely at the coarse level is not replaced by a finer level's box on
    part of it (scored higher); a small tile elsewhere is added."""
    # window pixels at the next level (scale 0.4): one on the near tile (image 160, 510), one
    # far off (image 1000, 800)
    finer = np.array([[64.0, 204, 20, 26, 0, 0.95, 0], [400, 320, 20, 26, 0, 0.8, 0]])
    boxes = _Scripted(_rows(1, 0.9, side=60.0), finer)
    found = boxes.find(np.zeros((1200, 1600, 3), np.uint8))
    centres = sorted(tuple(np.round(b.corners.mean(axis=0))) for b in found)
    assert len(boxes.scales) > 1 and len(found) == 2
    assert centres == [(150.0, 500.0), (1000.0, 800.0)]  # the coarse box and the far one


def test_enough_large_boxes_stop_at_the_coarse_level() -> None:
    boxes = _Scripted(_rows(ENOUGH, SURE_BOX + 0.1))
    found = boxes.find(np.zeros((1200, 1600, 3), np.uint8))
    assert boxes.scales == [0.2] and len(found) == ENOUGH


def test_small_tiles_ask_for_the_finer_level_however_many() -> None:
    boxes = _Scripted(_rows(6, 0.9, side=8.0))
    boxes.find(np.zeros((1200, 1600, 3), np.uint8))
    assert len(boxes.scales) > 1


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="needs ../shared/datasets/camerash-tiles")
def test_tiles_24_px_wide_in_a_large_cluttered_photo_are_found() -> None:
    """Nine held-out real tile photos shrunk to 24 x 32 px in a row, on a 1600 x 1200 photo of
    cloth with large shapes and one tile 240 px wide near the camera: most of the small ones
    are read right too (the level logic itself: the scripted tests above)."""
    import cv2

    from models.drawn.dataset import camerash_crops
    from vision.photo import PhotoReader
    from vision.photo_shown import shown

    rng = np.random.default_rng(3)
    cloth = rng.normal(0, 12, (1200, 1600, 3)) + np.array([60.0, 110.0, 50.0])
    image = np.clip(cloth, 0, 255).astype(np.uint8)
    for k in range(5):
        cv2.rectangle(image, (100 + 300 * k, 80), (260 + 300 * k, 330), (225, 230, 235), -1)
        cv2.circle(image, (150 + 300 * k, 950), 90, (40, 40, 200), -1)
    crops = camerash_crops(PHOTOS, "eval")
    chosen = rng.choice(len(crops), 10, replace=False)
    pick = [crops[i] for i in chosen[:9]]
    image[700:1020, 1200:1440] = crops[chosen[9]][1]
    for k, (_, crop) in enumerate(pick):
        left = 650 + 34 * k
        image[600:632, left : left + 24] = cv2.resize(crop, (24, 32), interpolation=cv2.INTER_AREA)
    tiles = shown(PhotoReader().read(image))
    right = 0
    for tile in tiles:
        x, y = tile.centre
        slot = int((x - 650) // 34)
        right += 590 < y < 642 and 0 <= slot < 9 and pick[slot][0] == tile.tile
    assert right >= 5, [(t.tile, t.centre) for t in tiles]
