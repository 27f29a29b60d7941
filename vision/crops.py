"""Tile crops for the identity classifier: cut, turn upright-or-upside-down, and label.

The classifier sees every tile standing vertically: a sideways box is turned clockwise first, so
a face turned 90 degrees reads upright and one turned 270 reads upside down. Its outputs are the
42 designs times (upright, upside down), then ``back``: the orientation follows from the box shape
and the chosen output.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from engine.tiles import ALL_TILES

CROP_W, CROP_H = 36, 48
TILE_NAMES: tuple[str, ...] = tuple(str(tile) for tile in ALL_TILES)
CLASSES_OUT = 2 * len(TILE_NAMES) + 1
BACK_INDEX = CLASSES_OUT - 1


def crop_tile(
    image: np.ndarray,
    box: Sequence[float],
    pad: float = 0.06,
    size: tuple[int, int] = (CROP_W, CROP_H),
) -> np.ndarray:
    """The tile in ``box`` (x1, y1, x2, y2 px) as a vertical BGR crop of ``size`` (width,
    height; the classifier's CROP_W x CROP_H by default), a sideways box turned clockwise."""
    x1, y1, x2, y2 = (float(v) for v in box)
    px, py = (x2 - x1) * pad, (y2 - y1) * pad
    h, w = image.shape[:2]
    left, top = int(np.floor(x1 - px)), int(np.floor(y1 - py))
    right, bottom = int(np.ceil(x2 + px)), int(np.ceil(y2 + py))
    if right <= left or bottom <= top:
        raise ValueError(f"empty box {list(box)!r}")
    border = max(0, -left, -top, right - w, bottom - h)
    if border:
        image = cv2.copyMakeBorder(image, border, border, border, border, cv2.BORDER_REPLICATE)
        left, right, top, bottom = left + border, right + border, top + border, bottom + border
    crop = image[top:bottom, left:right]
    if crop.shape[1] > crop.shape[0]:
        crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(crop, size, interpolation=cv2.INTER_AREA)


def is_sideways(box: Sequence[float]) -> bool:
    return float(box[2]) - float(box[0]) > float(box[3]) - float(box[1])


def output_index(name: str, orientation: int, box: Sequence[float]) -> int:
    """The classifier output for a tile of ``name`` turned ``orientation`` degrees CCW."""
    if name == "back":
        return BACK_INDEX
    upside_down = orientation % 360 in (180, 270)
    return 2 * TILE_NAMES.index(name) + int(upside_down)


def decode(index: int, box: Sequence[float]) -> tuple[str, int]:
    """(class name, orientation) for a classifier output read on ``box``."""
    if index == BACK_INDEX:
        return "back", 90 if is_sideways(box) else 0
    kind, upside_down = divmod(index, 2)
    return TILE_NAMES[kind], (90 if is_sideways(box) else 0) + 180 * upside_down


def best_outputs(probs: np.ndarray, kinds: np.ndarray | None = None) -> np.ndarray:
    """The output to report for each crop (rows of ``probs``): the kind (or back) with the most
    probability over both ways up, then its likelier way up. A blurred face whose two ways up
    split one kind's probability is not taken for a kind that wins a single output. ``kinds``:
    ``kind_probabilities(probs)`` when the caller has it already."""
    kind = (kind_probabilities(probs) if kinds is None else kinds).argmax(axis=1)
    design = np.minimum(kind, len(TILE_NAMES) - 1)
    rows = np.arange(len(probs))
    upside_down = probs[rows, 2 * design + 1] > probs[rows, 2 * design]
    return np.where(kind == len(TILE_NAMES), BACK_INDEX, 2 * design + upside_down)


def kind_probabilities(probs: np.ndarray) -> np.ndarray:
    """Per-class probability (42 designs + back) summed over the two orientations."""
    kinds = probs[..., :-1].reshape(*probs.shape[:-1], len(TILE_NAMES), 2).sum(axis=-1)
    return np.concatenate([kinds, probs[..., -1:]], axis=-1)


def turned_half(probs: np.ndarray) -> np.ndarray:
    """Outputs read on a crop turned 180 degrees, expressed for the crop as it was: each
    design's upright and upside-down outputs swap places; ``back`` stays."""
    designs = probs[..., :-1].reshape(*probs.shape[:-1], len(TILE_NAMES), 2)[..., ::-1]
    return np.concatenate([designs.reshape(*probs.shape[:-1], -1), probs[..., -1:]], axis=-1)


FLAT_BACK_STD = 6.0  # a tile back's centre varies less than this (mean channel std, 0-255)
_GRID = (np.arange(8) + 0.5) / 8  # sample points across the central half, as fractions


def centre_spread(image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Per box (x1, y1, x2, y2 px), how much the colour varies over its central half: the mean
    over channels of the standard deviation of 8x8 pixels sampled there."""
    b = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    if len(b) == 0:
        return np.zeros(0)
    h, w = image.shape[:2]
    span = 0.25 + 0.5 * _GRID
    xs = b[:, :1] + (b[:, 2:3] - b[:, :1]) * span  # N x 8
    ys = b[:, 1:2] + (b[:, 3:4] - b[:, 1:2]) * span
    xs = np.clip(xs, 0, w - 1).astype(np.intp)
    ys = np.clip(ys, 0, h - 1).astype(np.intp)
    samples = image[ys[:, :, None], xs[:, None, :]].reshape(len(b), 64, -1).astype(np.float32)
    return samples.std(axis=1).mean(axis=1)


def flat_centres(image: np.ndarray, boxes: np.ndarray, limit: float = FLAT_BACK_STD) -> np.ndarray:
    """Per box, whether its central half is one flat colour, as a back's is. A face the
    detector called "back" still shows its engraving there (the spread of a blurred bamboo face
    is 8 or more; of rendered backs, in any light, rarely over 6), so it goes to the classifier
    instead of being taken for a back."""
    return centre_spread(image, boxes) < limit
