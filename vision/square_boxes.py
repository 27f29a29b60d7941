"""Settle near-square face boxes on the rectified table by reading them both ways round.

A tile's box on the table canvas is 1.3-1.4 times as long as it is wide. The detector gives a
box closer to square when it cannot tell whether the tile lies upright or sideways, or when the
box slid half onto a neighbour in a packed river. Such a box is read again as two tile-sized
boxes at its centre, upright and sideways; a reading replaces the detector's only when it is
clearly likelier (by ``SETTLE_MARGIN`` in its best kind's probability). When both read the
same kind about equally (a 1p or white dragon reads the same either way), the classifier
cannot tell which way the tile lies, so the detector's box is kept with the better reading:
choosing a way round by a hair flipped a claimed 1p between sideways and upright from frame to
frame, and the stabiliser took the flips for new tiles (seed 1000, hand 3).

A face of any box shape read unsure (best kind under the detector's ``second_look_below``) is
read again in a tile-sized box at its centre, the way round its box shows
(:func:`reread_unsure_faces`); that reading replaces the box's when clearly likelier, by the same
margin. In a blurred frame the detector's box often slides a few px onto a neighbour or falls
short of the tile: on the tuning frames (seeds 9100 and 9000, 48 each) this took errors 41 -> 35.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.crops import crop_tile, kind_probabilities
from vision.detector_backends import CANVAS
from vision.layout import TILE_H, TILE_W

SQUARE_BOX = 1.2  # long side under this times the short side: the box shows no way round
SETTLE_MARGIN = 0.1
# a tile-sized box on the table canvas: the face plus the ~3 px of side a camera sees
TABLE_BOX_W, TABLE_BOX_H = TILE_W * CANVAS + 3, TILE_H * CANVAS + 3


def settle_square_boxes(
    canvas: np.ndarray,
    faces: np.ndarray,
    probs: np.ndarray,
    read_crops: Callable[[np.ndarray], np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """``faces`` (N x 4 canvas px) and their classifier outputs ``probs``, with each
    near-square box settled as the module describes; ``read_crops`` reads crops."""
    sides = faces[:, 2:] - faces[:, :2]
    square = np.flatnonzero(sides.max(axis=1) < SQUARE_BOX * sides.min(axis=1))
    if len(square) == 0:
        return faces, probs
    count = len(square)
    centres = (faces[square, :2] + faces[square, 2:]) / 2
    halves = [np.array([TABLE_BOX_W, TABLE_BOX_H]) / 2, np.array([TABLE_BOX_H, TABLE_BOX_W]) / 2]
    candidates = np.concatenate([np.hstack([centres - h, centres + h]) for h in halves])
    read = read_crops(np.stack([crop_tile(canvas, box) for box in candidates]))
    options = np.stack([probs[square], read[:count], read[count:]])  # as boxed, up, sideways
    kinds = kind_probabilities(options)[..., :-1]  # 3 x count x 42 designs
    best, named = kinds.max(axis=2), kinds.argmax(axis=2)
    faces, probs = faces.copy(), probs.copy()
    for i in range(count):
        choice = int(best[:, i].argmax())
        if choice == 0 or best[choice, i] < best[0, i] + SETTLE_MARGIN:
            continue  # the detector's box reads about as well
        other = 3 - choice  # the tile-sized box the other way round
        index = (choice - 1) * count + i
        probs[square[i]] = read[index]
        if (
            named[other, i] == named[choice, i]
            and best[other, i] >= best[choice, i] - SETTLE_MARGIN
        ):
            continue  # the same kind both ways round: keep the detector's way round
        faces[square[i]] = candidates[index]
    return faces, probs


def reread_unsure_faces(
    canvas: np.ndarray,
    faces: np.ndarray,
    probs: np.ndarray,
    read_crops: Callable[[np.ndarray], np.ndarray],
    unsure_below: float,
) -> np.ndarray:
    """``probs`` with each face whose best kind scores under ``unsure_below`` read again in a
    tile-sized box at its centre (as the module describes); the boxes are not changed."""
    best = kind_probabilities(probs).max(axis=1)
    unsure = np.flatnonzero(best < unsure_below)
    if len(unsure) == 0:
        return probs
    centres = (faces[unsure, :2] + faces[unsure, 2:]) / 2
    sides = faces[unsure, 2:] - faces[unsure, :2]
    wide = (sides[:, 0] > sides[:, 1])[:, None]
    halves = np.where(wide, [TABLE_BOX_H, TABLE_BOX_W], [TABLE_BOX_W, TABLE_BOX_H]) / 2
    boxes = np.hstack([centres - halves, centres + halves])
    read = read_crops(np.stack([crop_tile(canvas, box) for box in boxes]))
    better = kind_probabilities(read).max(axis=1) >= best[unsure] + SETTLE_MARGIN
    probs = probs.copy()
    probs[unsure[better]] = read[better]
    return probs
