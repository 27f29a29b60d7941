"""Unchanged tiles keep their reading; a new, moved or different tile is read again."""

from __future__ import annotations

import numpy as np

from vision.crop_memory import CropMemory, thumbnails


def _crops(seed: int, n: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 255, (n, 48, 36, 3)).astype(np.uint8)


def test_the_same_tile_in_the_same_place_is_remembered() -> None:
    memory = CropMemory()
    boxes = np.array([[10, 10, 43, 55], [60, 10, 93, 55]], np.float32)
    crops = _crops(1, 2)
    probs = np.eye(85, dtype=np.float32)[[3, 7]]
    assert (memory.recall(boxes, thumbnails(crops)) == -1).all()  # nothing seen yet
    memory.remember(boxes, thumbnails(crops), probs)
    brighter = np.clip(crops.astype(np.int16) * 1.1 + 8, 0, 255).astype(np.uint8)  # light change
    assert memory.recall(boxes + 1.0, thumbnails(brighter)).tolist() == [0, 1]


def test_a_different_or_moved_tile_is_read_again() -> None:
    memory = CropMemory()
    boxes = np.array([[10, 10, 43, 55], [60, 10, 93, 55]], np.float32)
    crops = _crops(1, 2)
    memory.remember(boxes, thumbnails(crops), np.eye(85, dtype=np.float32)[[3, 7]])
    other = crops.copy()
    other[1] = _crops(2, 1)[0]  # the second spot now shows another tile
    assert memory.recall(boxes, thumbnails(other)).tolist() == [0, -1]
    moved = boxes + np.array([20, 0, 20, 0], np.float32)  # half a tile along
    assert (memory.recall(moved, thumbnails(crops)) == -1).all()


def test_an_unsure_reading_is_not_kept() -> None:
    """A blurred frame's guess (best kind 0.45) is not reused however still the tile lies: the
    next frame reads it again; a sure reading of the tile beside it is kept."""
    memory = CropMemory()
    boxes = np.array([[10, 10, 43, 55], [60, 10, 93, 55]], np.float32)
    crops = _crops(1, 2)
    probs = np.eye(85, dtype=np.float32)[[3, 7]]
    probs[0] = 0.0
    probs[0, [8, 12, 20]] = [0.45, 0.35, 0.2]  # 5m, 7m, 2p: unsure
    memory.remember(boxes, thumbnails(crops), probs)
    assert memory.recall(boxes, thumbnails(crops)).tolist() == [-1, 1]
    calls: list[int] = []

    def classify(fresh: np.ndarray) -> np.ndarray:
        calls.append(len(fresh))
        return np.eye(85, dtype=np.float32)[[4] * len(fresh)]

    read = memory.read_through(boxes, crops, classify)
    assert calls == [1] and read.argmax(axis=1).tolist() == [4, 7]
