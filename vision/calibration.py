"""Table calibration: the homography between camera pixels and table coordinates (0..1 square).

The four corners are given once, clockwise from the corner at seat 0's left (the top-left of the
rectified view, seat 0 sits at the bottom): from a JSON file written by ``tilesight calibrate``
(or by hand), or found from four ArUco markers (DICT_4X4_50, ids 0-3, one at each corner in that
order). ``image_size`` (optional) is the frame size the corners were measured on: with it,
``tilesight run`` checks the zones fit the frame before any camera is opened.

JSON form::

    {"corners": [[x, y], [x, y], [x, y], [x, y]], "image_size": [1920, 1080]}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np


class CalibrationError(ValueError):
    """The calibration file or image does not give four usable corners."""


@dataclass(frozen=True)
class Calibration:
    """Four table corners in image pixels: TL, TR, BR, BL of the rectified table."""

    corners: tuple[tuple[float, float], ...]
    image_size: tuple[int, int] | None = None  # (width, height) of the frame they were read on

    def __post_init__(self) -> None:
        if len(self.corners) != 4:
            raise CalibrationError(f"need 4 corners, got {len(self.corners)}: {self.corners!r}")
        quad = np.array(self.corners, np.float64)
        if not np.all(np.isfinite(quad)):
            raise CalibrationError(f"corners must be finite numbers: {self.corners!r}")
        d1, d2 = quad[2] - quad[0], quad[3] - quad[1]
        area = 0.5 * abs(float(d1[0] * d2[1] - d1[1] * d2[0]))
        if area < 100:
            raise CalibrationError(
                f"corners enclose no table (area {area:.0f} px²): {self.corners!r}"
            )

    @classmethod
    def from_json(cls, text: str) -> Calibration:
        try:
            data = json.loads(text)
            corners = tuple((float(x), float(y)) for x, y in data["corners"])
            size = data.get("image_size")
            image_size = None if size is None else (int(size[0]), int(size[1]))
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            raise CalibrationError(
                f'not a calibration (want {{"corners": [[x, y] x4]}}): {text[:80]!r}'
            ) from exc
        return cls(corners, image_size)

    @classmethod
    def load(cls, path: Path) -> Calibration:
        try:
            return cls.from_json(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CalibrationError(
                f"cannot read calibration {str(path)!r}: {exc.strerror}"
            ) from exc

    def to_json(self) -> str:
        data: dict[str, object] = {"corners": [list(c) for c in self.corners]}
        if self.image_size is not None:
            data["image_size"] = list(self.image_size)
        return json.dumps(data)

    @classmethod
    def from_aruco(cls, image: np.ndarray) -> Calibration:
        """Corners from ArUco markers 0-3 (DICT_4X4_50); each marker's outer corner is used."""
        height, width = image.shape[:2]
        return cls.from_markers(find_markers(image), (width, height))

    @classmethod
    def from_markers(
        cls, markers: dict[int, np.ndarray], image_size: tuple[int, int] | None = None
    ) -> Calibration:
        """Corners from markers found by :func:`find_markers` (ids 0-3 needed)."""
        missing = [i for i in range(4) if i not in markers]
        if missing:
            raise CalibrationError(f"ArUco markers {missing} not found (found {sorted(markers)})")
        # marker i's corner i (TL, TR, BR, BL order) is the one at the table's corner
        corners = tuple((float(markers[i][i][0]), float(markers[i][i][1])) for i in range(4))
        return cls(corners, image_size)

    def homography(self, size: int) -> np.ndarray:
        """Image pixels -> rectified table pixels of a ``size`` square."""
        square = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
        corners = np.array(self.corners, np.float32)
        return np.asarray(cv2.getPerspectiveTransform(corners, square), np.float64)

    def rectify(self, image: np.ndarray, size: int) -> np.ndarray:
        """The table as a ``size`` square. The pixel maps are computed once per calibration and
        size (a fixed camera reuses them every frame, about a third faster than warping)."""
        fixed, fraction = _rectify_maps(self.corners, size)
        return cv2.remap(image, fixed, fraction, cv2.INTER_LINEAR)

    def to_table(self, points: np.ndarray) -> np.ndarray:
        """Image pixels (N x 2) -> table units (0..1)."""
        return _apply(self.homography(1), points)

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """Table units (N x 2) -> image pixels."""
        return _apply(np.linalg.inv(self.homography(1)), points)


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Every DICT_4X4_50 marker in the image: id -> its four corners (4 x 2, TL TR BR BL as the
    marker reads upright). Ids outside 0-3 are kept so that a wrong sheet can be named."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX  # corners to a tenth px
    detector = cv2.aruco.ArucoDetector(dictionary, parameters)
    found, ids, _ = detector.detectMarkers(image)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), found, strict=True)}


@lru_cache(maxsize=8)
def _rectify_maps(
    corners: tuple[tuple[float, float], ...], size: int
) -> tuple[np.ndarray, np.ndarray]:
    """Fixed-point remap tables (cv2.convertMaps) from table pixels back to image pixels."""
    inverse = np.linalg.inv(Calibration(corners).homography(size))
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32)
    grid = np.stack([xs, ys], axis=-1).reshape(-1, 1, 2)
    source = cv2.perspectiveTransform(grid, inverse).reshape(size, size, 2)
    fixed, fraction = cv2.convertMaps(
        np.ascontiguousarray(source[..., 0]),
        np.ascontiguousarray(source[..., 1]),
        cv2.CV_16SC2,
    )
    return fixed, fraction


def _apply(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, matrix).reshape(-1, 2)
