"""Suit pips and the joker's star as plain geometry (our own drawing), filled with OpenCV.

Each shape is drawn into a box (x0, y0, x1, y1 px) of an image, optionally upside down, with
anti-aliased fixed-point polygons and circles.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

SHIFT = 4
_ONE = 1 << SHIFT


def _fixed(points: np.ndarray) -> np.ndarray:
    return np.round(points * _ONE).astype(np.int32)


def _unit_shape(kind: str) -> tuple[list[np.ndarray], list[tuple[float, float, float]]]:
    """Polygons and circles (x, y, r) in a unit box, y down, for ``kind`` in ``s h d c star``."""
    polys: list[np.ndarray] = []
    circles: list[tuple[float, float, float]] = []
    if kind == "d":
        polys.append(np.array([(0.5, 0.0), (0.92, 0.5), (0.5, 1.0), (0.08, 0.5)]))
    elif kind == "h":
        circles += [(0.27, 0.28, 0.26), (0.73, 0.28, 0.26)]
        polys.append(np.array([(0.03, 0.36), (0.5, 1.0), (0.97, 0.36), (0.5, 0.2)]))
    elif kind == "s":
        circles += [(0.27, 0.6, 0.24), (0.73, 0.6, 0.24)]
        polys.append(np.array([(0.04, 0.53), (0.5, 0.0), (0.96, 0.53), (0.5, 0.75)]))
        polys.append(np.array([(0.5, 0.62), (0.66, 1.0), (0.34, 1.0)]))
    elif kind == "c":
        circles += [(0.5, 0.25, 0.22), (0.25, 0.57, 0.22), (0.75, 0.57, 0.22)]
        polys.append(np.array([(0.42, 0.4), (0.58, 0.4), (0.68, 1.0), (0.32, 1.0)]))
        polys.append(np.array([(0.35, 0.4), (0.65, 0.4), (0.65, 0.6), (0.35, 0.6)]))
    elif kind == "star":
        pts = []
        for i in range(10):
            radius = 0.5 if i % 2 == 0 else 0.2
            angle = -math.pi / 2 + i * math.pi / 5
            pts.append((0.5 + radius * math.cos(angle), 0.53 + radius * math.sin(angle)))
        polys.append(np.array(pts))
    else:
        raise ValueError(f"unknown pip {kind!r}")
    return polys, circles


def draw_pip(
    image: np.ndarray,
    kind: str,
    box: tuple[float, float, float, float],
    colour: tuple[int, int, int],
    *,
    rotate180: bool = False,
) -> None:
    """Fill the pip ``kind`` (``s h d c`` or ``star``) into ``box`` of ``image``."""
    polys, circles = _unit_shape(kind)
    x0, y0, x1, y1 = box
    size = np.array([x1 - x0, y1 - y0])

    def place(points: np.ndarray) -> np.ndarray:
        if rotate180:
            points = 1.0 - points
        return points * size + (x0, y0)

    cv2.fillPoly(image, [_fixed(place(p)) for p in polys], colour, cv2.LINE_AA, SHIFT)
    for cx, cy, r in circles:
        centre = place(np.array([[cx, cy]]))[0]
        radius = r * float(min(size))
        cv2.circle(image, tuple(_fixed(centre)), int(radius * _ONE), colour, -1, cv2.LINE_AA, SHIFT)
