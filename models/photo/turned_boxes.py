"""Oriented tile boxes for labelled photos that their publisher turned.

The real training photos come in copies turned by up to 45 degrees (the publisher's
augmentation), each tile labelled by the axis-aligned box around its turned outline. A
rectangle ``w`` x ``h`` turned by ``t`` has the box ``W = w|cos t| + h|sin t|``,
``H = w|sin t| + h|cos t|``, so knowing the photo's turn (``obb_set.dominant_turn``: the
strongest straight edges) gives back each tile's own rectangle. The two equations grow
ill-conditioned towards 45 degrees, so only photos turned ``max_turn`` or less are fitted,
and a turned photo whose fitted tiles overlap each other much is left out: its tiles did not
all lie at the photo's turn (a tray at an angle). Photos lying square keep their boxes
whatever the overlap (standing tiles' whole-tile boxes overlap in the publisher's labels).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

Box = tuple[float, float, float, float]


def turned_quad(box: Box, turn_degrees: float) -> np.ndarray | None:
    """The corners (4 x 2, clockwise on the image) of the rectangle turned ``turn_degrees``
    whose axis-aligned box is ``box``; None when no such rectangle of fair shape exists."""
    x1, y1, x2, y2 = box
    width, height = x2 - x1, y2 - y1
    turn = math.radians(turn_degrees)
    cos, sin = abs(math.cos(turn)), abs(math.sin(turn))
    determinant = cos * cos - sin * sin
    if width <= 0 or height <= 0 or determinant < 0.25:
        return None
    w = (width * cos - height * sin) / determinant
    h = (height * cos - width * sin) / determinant
    if w < 0.25 * width or h < 0.25 * height or not 0.33 < w / h < 3.0:
        return None
    rotation = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    local = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    return np.asarray(local @ rotation.T + [(x1 + x2) / 2, (y1 + y2) / 2], np.float64)


def overlap_share(quads: list[np.ndarray], shape: tuple[int, int], scale: float = 0.25) -> float:
    """How much of the area the ``quads`` cover is covered twice or more (0 for tiles that
    only touch), measured on a grid ``scale`` times the photo's size."""
    height, width = max(1, int(shape[0] * scale)), max(1, int(shape[1] * scale))
    count = np.zeros((height, width), np.uint8)
    for quad in quads:
        mask = np.zeros_like(count)
        cv2.fillPoly(mask, [np.round(quad * scale).astype(np.int32)], 1)
        count += mask
    covered = int((count > 0).sum())
    return float((count > 1).sum()) / covered if covered else 0.0


def fitted_quads(
    boxes: list[Box],
    turn_degrees: float,
    shape: tuple[int, int],
    *,
    max_turn: float = 30.0,
    max_overlap: float = 0.3,
    square: float = 5.0,
) -> list[np.ndarray] | None:
    """Every tile's turned rectangle, or None when the photo cannot be fitted (turned more
    than ``max_turn``, a box with no fair rectangle, or, turned more than ``square``
    degrees, rectangles overlapping more than ``max_overlap`` of their area)."""
    if abs(turn_degrees) > max_turn:
        return None
    if abs(turn_degrees) < 1.0:
        turn_degrees = 0.0  # dominant_turn's bins are a degree wide: a square photo reads +-0.5
    quads = [turned_quad(box, turn_degrees) for box in boxes]
    if any(quad is None for quad in quads):
        return None
    fitted = [quad for quad in quads if quad is not None]
    if abs(turn_degrees) > square and overlap_share(fitted, shape) > max_overlap:
        return None
    return fitted
