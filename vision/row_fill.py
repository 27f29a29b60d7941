"""A tile the box detector doubted, kept when it lies in line between two tiles it was sure of.

Rivers and revealed hands are rows of touching tiles. A face box scored under the detector's
threshold is still a tile when a sure box touches it on one side and another on the opposite
side, one tile's pitch away each, and it overlaps no sure box by much: nothing else fills a
tile-sized gap in a row. The detector then scores it as at its threshold (the row vouches
for the box; the classifier still says how sure the kind is). Measured on the rendered camera
bench (wsom seed 3 hand 2): a 9s in a revealed hand scored 0.375 between its 8s (0.81) and 4p
(0.86), and without it the hand read one tile short and the win was refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from vision.detector_backends import BoxBackend

#: Boxes scored at least this are candidates (the detector's threshold is its config's).
FLOOR = 0.2
PITCH = (0.7, 1.4)  # a neighbour's centre this many of the box's extents along the row away
ACROSS = 0.35  # ... and at most this much of its extent off the row's line
OVERLAP = 0.25  # the most of the doubted box a sure box may cover
SIZE = (0.6, 1.6)  # its area against each neighbour's


def locate_in_rows(
    backend: BoxBackend, canvas: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``backend.locate`` on a table's ``canvas``, with the doubted boxes :func:`in_line` keeps
    scored as at the threshold (the row vouches for the box)."""
    boxes, scores, classes = backend.locate(canvas, floor=FLOOR)
    threshold = backend.threshold
    kept = in_line(boxes, scores, classes == 0, threshold)
    return boxes[kept], np.maximum(scores[kept], threshold), classes[kept]


def in_line(
    boxes: np.ndarray, scores: np.ndarray, faces: np.ndarray, threshold: float
) -> np.ndarray:
    """Indices of the boxes to keep: every box scored at least ``threshold``, and each face box
    (``faces``: a mask) scored at least FLOOR that lies between two of those in a row, the
    best first (one kept is not a neighbour for the next: no row grows from doubt alone)."""
    sure = scores >= threshold
    keep = sure.copy()
    doubted = np.flatnonzero(~sure & faces & (scores >= FLOOR))
    for index in doubted[np.argsort(-scores[doubted])]:
        if _covered(boxes, keep, index) or not _between(boxes, sure, index):
            continue
        keep[index] = True
    return np.flatnonzero(keep)


def _covered(boxes: np.ndarray, keep: np.ndarray, index: int) -> bool:
    """A kept box covers more than OVERLAP of box ``index``."""
    box = boxes[index]
    others = boxes[keep]
    lo = np.maximum(others[:, :2], box[:2])
    hi = np.minimum(others[:, 2:], box[2:])
    shared = np.prod(np.clip(hi - lo, 0, None), axis=1)
    area = max(float(np.prod(box[2:] - box[:2])), 1e-9)
    return bool((shared / area > OVERLAP).any())


def _between(boxes: np.ndarray, sure: np.ndarray, index: int) -> bool:
    """Sure boxes of its size on both sides of box ``index``, along x or along y."""
    box = boxes[index]
    extent = box[2:] - box[:2]
    area = float(np.prod(extent))
    if area <= 0:
        return False
    others = boxes[sure]
    areas = np.prod(others[:, 2:] - others[:, :2], axis=1) / area
    offset = (others[:, :2] + others[:, 2:]) / 2 - (box[:2] + box[2:]) / 2
    sized = (areas >= SIZE[0]) & (areas <= SIZE[1])
    for along, across in ((0, 1), (1, 0)):
        steps = offset[:, along] / extent[along]
        near = (np.abs(steps) >= PITCH[0]) & (np.abs(steps) <= PITCH[1])
        level = np.abs(offset[:, across]) <= ACROSS * extent[across]
        row = sized & near & level
        if (row & (steps < 0)).any() and (row & (steps > 0)).any():
            return True
    return False
