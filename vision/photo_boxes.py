"""The photo detector: oriented tile boxes at any scale, through ONNX Runtime.

The network (models/photo/train.py) sees a square window (320 px) and finds tiles about 8-70 px
wide there, at any turn. A photo is read as a pyramid: first the whole image shrunk to one
window, then twice as large in overlapping windows, and so on up to the photo's own pixels. By
default the finer levels are read only while they can still hold tiles the coarser ones miss: when
the coarse level found fewer than ``ENOUGH`` sure boxes (a box or two there may be clutter or a
near tile, with tiles too small for that level elsewhere: its boxes then stand, and the finer
level only adds tiles where it found none), or found tiles small enough (``FINER_BELOW``) that
smaller ones may lie farther off. ``full=True`` reads every level (see docs/benchmarks.md for both).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.detector_backends import WEIGHTS, DetectorError, onnx_session

OVERLAP = 0.25  # of a window, between windows: a tile cut by one lies whole in its neighbour
FINER_BELOW = 0.035  # of a window: a tile this small at a level asks for the next, finer one
ENOUGH, SURE_BOX = 3, 0.5  # ... as do fewer than ENOUGH boxes scored SURE_BOX at a level
LARGEST = 0.23  # of a window: a finer level leaves tiles larger than this to the coarser one
PAD = (114, 114, 114)


@dataclass(frozen=True)
class OrientedBox:
    """A tile's rotated rectangle in image pixels, the long side its length."""

    corners: np.ndarray  # 4 x 2, around the rectangle
    score: float
    back: bool  # the detector's own class (the photo detector has one: tiles; see obb_set)

    @property
    def sides(self) -> tuple[float, float]:
        a = float(np.linalg.norm(self.corners[1] - self.corners[0]))
        b = float(np.linalg.norm(self.corners[2] - self.corners[1]))
        return min(a, b), max(a, b)


def rectangle_corners(xywhr: np.ndarray) -> np.ndarray:
    """N x 4 x 2 corners of rotated rectangles (centre x, y, width, height, angle in radians),
    each ring clockwise on the image (y down) as TL, TR, BR, BL run: a ring taken the other way
    round warps to a mirror image of the tile (until 2026-12-07 every photo crop was one)."""
    x, y, w, h, r = (xywhr[:, i] for i in range(5))
    cos, sin = np.cos(r), np.sin(r)
    along = np.stack([w / 2 * cos, w / 2 * sin], axis=1)
    across = np.stack([-h / 2 * sin, h / 2 * cos], axis=1)
    centre = np.stack([x, y], axis=1)
    return np.stack(
        [
            centre - along - across,
            centre + along - across,
            centre + along + across,
            centre - along + across,
        ],
        axis=1,
    )


class PhotoBoxes:
    """``PhotoBoxes().find(image)`` -> oriented boxes of tile faces and backs, image pixels."""

    def __init__(
        self, path: Path = WEIGHTS / "photo-detector.onnx", threshold: float = 0.3
    ) -> None:
        self.session = onnx_session(path)
        self.input = self.session.get_inputs()[0].name
        self.size = int(self.session.get_inputs()[0].shape[-1])  # the square window, px
        self.threshold = threshold

    def _window(self, window: np.ndarray) -> np.ndarray:
        """Rows of (x, y, w, h, angle, score, class) for one window of at most ``size`` px."""
        h, w = window.shape[:2]
        bottom, right = self.size - h, self.size - w
        padded = cv2.copyMakeBorder(window, 0, bottom, 0, right, cv2.BORDER_CONSTANT, value=PAD)
        blob = padded[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255
        out = self.session.run(None, {self.input: np.ascontiguousarray(blob)})[0][0]
        scores = out[4:-1].max(axis=0)
        keep = scores >= self.threshold
        classes = out[4:-1, keep].argmax(axis=0)
        rows = np.concatenate([out[:4, keep].T, out[-1:, keep].T], axis=1)
        return np.concatenate([rows, scores[keep, None], classes[:, None]], axis=1)

    def level(self, image: np.ndarray, scale: float, keep_large: bool) -> np.ndarray:
        """Every detection at one scale of ``image``, in image pixels (rows as ``_window``)."""
        h, w = image.shape[:2]
        sw, sh = max(1, round(w * scale)), max(1, round(h * scale))
        scaled = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA) if scale != 1 else image
        size, overlap = self.size, round(OVERLAP * self.size)
        found = []
        for top in range(0, max(sh - overlap, 1), size - overlap):
            for left in range(0, max(sw - overlap, 1), size - overlap):
                rows = self._window(scaled[top : top + size, left : left + size])
                if not len(rows):
                    continue
                short = np.minimum(rows[:, 2], rows[:, 3])
                usable = (short >= 5) & (keep_large | (short <= LARGEST * size))
                rows = rows[usable]
                rows[:, 0] += left
                rows[:, 1] += top
                found.append(rows)
        if not found:
            return np.zeros((0, 7), np.float32)
        rows = np.concatenate(found)
        rows[:, :4] /= scale
        return rows

    def find(
        self, image: np.ndarray, full: bool = False, step: float = 2.0, at_least: int = 1
    ) -> list[OrientedBox]:
        """Tiles at every scale: levels ``step`` times apart from the whole photo in one
        window up to its own pixels, at least ``at_least`` of them (``full``: all)."""
        if image is None or image.ndim != 3 or image.size == 0:
            raise DetectorError("not a colour image")
        longest = max(image.shape[:2])
        scale = min(1.0, self.size / longest)
        found = []
        kept = np.zeros((0, 7))  # boxes of levels read further only for want of sure boxes
        for index in range(64):
            rows = self.level(image, scale, keep_large=index == 0)
            if len(kept) and len(rows):  # those stand: a finer level only adds tiles elsewhere
                inside = _in_quads(rows[:, :2], rectangle_corners(kept[:, :5]))
                rows = rows[~inside.any(axis=1)]
            found.append(rows)
            if scale >= 1.0:
                break
            short = np.minimum(rows[:, 2], rows[:, 3]) * scale
            small = not len(rows) or short.min() < FINER_BELOW * self.size
            sure = rows[rows[:, 5] >= SURE_BOX]
            few = len(sure) < ENOUGH
            if not (full or small or few or index + 1 < at_least):
                break
            if few and not small and not full:
                kept = np.concatenate([kept, rows])
            scale = min(1.0, scale * step)
        rows = np.concatenate(found)
        return _suppress(rows)


def _suppress(rows: np.ndarray, iou: float = 0.45) -> list[OrientedBox]:
    """Rotated non-maximum suppression across windows and levels."""
    if not len(rows):
        return []
    rects = [
        ((float(r[0]), float(r[1])), (float(r[2]), float(r[3])), float(np.degrees(r[4])))
        for r in rows
    ]
    keep = cv2.dnn.NMSBoxesRotated(rects, rows[:, 5].astype(float).tolist(), 0.0, iou)
    corners = rectangle_corners(rows[:, :5])
    order = sorted(np.asarray(keep).reshape(-1).tolist(), key=lambda i: -rows[i, 5])
    kept: list[int] = []
    for i in order:  # tiles never lie on one another: a box centred in a better one is a double
        centre = rows[i, :2]
        if not any(
            _inside(centre, corners[k], 0.8) or _inside(rows[k, :2], corners[i], 0.8) for k in kept
        ):
            kept.append(i)
    kept = [i for i in kept if not _straddles(i, kept, corners)]
    return [OrientedBox(corners[i], float(rows[i, 5]), bool(rows[i, 6] == 1)) for i in kept]


_GRID = (np.arange(7) + 0.5) / 7


def _in_quads(points: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """P x Q: whether each point lies inside each convex quad (corners in ring order)."""
    edges = np.roll(quads, -1, axis=1) - quads  # Q x 4 x 2
    rel = points[:, None, None, :] - quads[None]  # P x Q x 4 x 2
    cross = edges[None, ..., 0] * rel[..., 1] - edges[None, ..., 1] * rel[..., 0]
    return (cross >= 0).all(axis=2) | (cross <= 0).all(axis=2)


def _straddles(i: int, kept: list[int], corners: np.ndarray) -> bool:
    """A box lying over two tiles' halves: 80 % of it under two or more other boxes that each
    cover a fifth of it or more (as the table path's vision.detector_backends.drop_straddlers)."""
    others = [k for k in kept if k != i]
    if len(others) < 2:
        return False
    c = corners[i]
    u, v = np.meshgrid(_GRID, _GRID)
    points = c[0] + np.outer(u.ravel(), c[1] - c[0]) + np.outer(v.ravel(), c[3] - c[0])
    inside = _in_quads(points, corners[others])  # points x others
    covering = inside.mean(axis=0) >= 0.2
    return int(covering.sum()) >= 2 and inside[:, covering].any(axis=1).mean() >= 0.8


def _inside(point: np.ndarray, corners: np.ndarray, shrink: float) -> bool:
    """Whether ``point`` lies inside the rectangle ``corners`` shrunk about its centre."""
    centre = corners.mean(axis=0)
    polygon = (centre + (corners - centre) * shrink).astype(np.float32)
    return cv2.pointPolygonTest(polygon, (float(point[0]), float(point[1])), False) >= 0


def edge_turn(image: np.ndarray, corners: np.ndarray) -> float | None:
    """The turn (radians, in [0, pi/2)) of the strongest straight edges inside ``corners``: a
    tile's own outline and its neighbours' seams, which the box's angle only approximates; None
    when the patch has no clear direction."""
    x, y, w, h = cv2.boundingRect(np.round(corners).astype(np.int32))
    x, y = max(x, 0), max(y, 0)
    patch = image[y : y + h, x : x + w]
    if patch.shape[0] < 8 or patch.shape[1] < 8:
        return None
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    angle = np.arctan2(gy, gx) % (np.pi / 2)
    histogram, edges = np.histogram(angle, bins=45, range=(0, np.pi / 2), weights=np.hypot(gx, gy))
    smooth = np.convolve(np.r_[histogram[-2:], histogram, histogram[:2]], np.ones(5) / 5, "valid")
    peak = int(np.argmax(smooth))
    if smooth[peak] < 2.5 * float(np.median(smooth)):
        return None
    return float((edges[peak] + edges[peak + 1]) / 2)


def squared_to_edges(
    image: np.ndarray, box: OrientedBox, most: float = np.radians(25)
) -> OrientedBox:
    """``box`` turned about its centre to the edges it lies on (``edge_turn``), when they are
    within ``most`` of its own angle: crops then stand square to the tile."""
    turn = edge_turn(image, box.corners)
    if turn is None:
        return box
    c = box.corners
    along = c[1] - c[0]
    current = float(np.arctan2(along[1], along[0])) % (np.pi / 2)
    delta = (turn - current + np.pi / 4) % (np.pi / 2) - np.pi / 4
    if abs(delta) > most:
        return box
    centre = c.mean(axis=0)
    cos, sin = np.cos(delta), np.sin(delta)
    turned = (c - centre) @ np.array([[cos, sin], [-sin, cos]]) + centre
    return OrientedBox(turned, box.score, box.back)
