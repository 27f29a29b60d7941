"""The quads of a photo's tiles: a box's corners as the tile reads upright, grown to the crops
the photo classifier reads, and warped to them (used by vision.photo and the photo training)."""

from __future__ import annotations

import cv2
import numpy as np

SQUARE_BELOW = 1.2  # a box closer to square than this is read both ways round


def box_corners(box: tuple[float, float, float, float], orientation: int) -> tuple:
    """The face corners (TL, TR, BR, BL as read upright) of an axis-aligned ``box`` whose face
    is turned ``orientation`` degrees counter-clockwise."""
    x1, y1, x2, y2 = box
    ring = [(x1, y1), (x2, y1), (x2, y2), (x1, y2)]  # the box's TL, TR, BR, BL
    shift = {0: 0, 90: 3, 180: 2, 270: 1}[orientation % 360]
    return tuple(ring[(i + shift) % 4] for i in range(4))


def warp_crop(
    image: np.ndarray, corners: np.ndarray, size: tuple[int, int], pad: float = 0.06
) -> np.ndarray:
    """The quad ``corners`` (TL, TR, BR, BL) warped upright to ``size`` (width, height), with
    ``pad`` of the quad's size kept around it as the table crops keep (vision.crops)."""
    w, h = size
    px, py = w * pad / (1 + 2 * pad), h * pad / (1 + 2 * pad)
    target = np.array([[px, py], [w - px, py], [w - px, h - py], [px, h - py]], np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), target)
    return cv2.warpPerspective(
        image, matrix, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


def upright_quads(corners: np.ndarray) -> list[np.ndarray]:
    """A rotated rectangle's corners as TL, TR, BR, BL with its long side upright (the face's
    top toward the image's top where it can be), and, for a nearly square one (a tile seen
    slanted, its length foreshortened), the same turned a quarter as well."""
    c = np.asarray(corners, np.float64)
    first = np.linalg.norm(c[1] - c[0]) >= np.linalg.norm(c[2] - c[1])
    ring = np.roll(c, -1, axis=0) if first else c  # now c[0]->c[1] is a short side
    top = (ring[0] + ring[1]) / 2
    bottom = (ring[2] + ring[3]) / 2
    if top[1] > bottom[1]:  # keep "up" pointing up the image: upside down is the reader's call
        ring = np.roll(ring, 2, axis=0)
    quads = [ring]
    sides = sorted([np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[2] - c[1])])
    if sides[1] < SQUARE_BELOW * sides[0]:
        quads.append(np.roll(ring, 1, axis=0))
    return quads


def grown_quad(quad: np.ndarray, along: float, across: float, shift: float) -> np.ndarray:
    """``quad`` (TL, TR, BR, BL; TL->BL along the tile) scaled about its centre, ``along`` its
    length and ``across`` its width, its centre moved ``shift`` of its length toward its top."""
    q = np.asarray(quad, np.float64)
    up = ((q[0] + q[1]) - (q[3] + q[2])) / 4  # half the length, toward the top
    right = ((q[1] + q[2]) - (q[0] + q[3])) / 4  # half the width
    centre = q.mean(axis=0) + 2 * up * shift
    up, right = up * along, right * across
    return np.array(
        [centre + up - right, centre + up + right, centre - up + right, centre - up - right]
    )


def reading_quads(
    corners: np.ndarray, along: float = 1.0, across: float = 1.0, shift: float = 0.0
) -> list[np.ndarray]:
    """:func:`upright_quads` of a box, each grown as :func:`grown_quad`."""
    return [grown_quad(q, along, across, shift) for q in upright_quads(corners)]
