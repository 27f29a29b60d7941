"""The calibration preview: the table outline and every zone drawn on the camera's own frame.

What a technician checks before a session: each river, wall and hand row lies over the table
where that seat's tiles will be. Zones that leave the frame are drawn red and listed at the top.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.calibration_check import (
    TABLE_OUTLINE,
    outside,
    problems,
    zone_label,
    zone_outlines,
)

#: BGR colour of each zone kind; red marks a zone outside the frame.
ZONE_COLOURS = {
    "river": (255, 191, 0),
    "wall": (0, 165, 255),
    "hand_row": (255, 64, 255),
    "play": (255, 191, 0),
}
TABLE_COLOUR = (0, 255, 255)
MARKER_COLOUR = (0, 220, 0)
RED = (0, 0, 255)


def draw_preview(
    image: np.ndarray,
    calibration: Calibration,
    markers: dict[int, np.ndarray] | None = None,
    game: str = "mahjong",
) -> np.ndarray:
    """A copy of ``image`` with the table, its zones (labelled by seat), the four corners and
    the ArUco markers found, if any; ``game``: whose zones (a Gouji table: six seats' plays)."""
    height, width = image.shape[:2]
    scale = max(width, height) / 1280
    line = max(1, round(2 * scale))
    out = image.copy()
    zones = zone_outlines(calibration, game)
    beyond = outside(calibration, (width, height), game)
    colours = {
        name: RED if beyond[name] > 0 else ZONE_COLOURS[name.split(".")[1]] for name in zones
    }
    shaded = out.copy()
    for name, polygon in zones.items():
        cv2.fillPoly(shaded, [_pixels(polygon)], colours[name], cv2.LINE_AA)
    out = cv2.addWeighted(shaded, 0.3, out, 0.7, 0)
    for name, polygon in zones.items():
        cv2.polylines(out, [_pixels(polygon)], True, colours[name], line, cv2.LINE_AA)
    table = calibration.to_image(np.array(TABLE_OUTLINE))
    cv2.polylines(out, [_pixels(table)], True, TABLE_COLOUR, 2 * line, cv2.LINE_AA)
    for quad in (markers or {}).values():
        cv2.polylines(out, [_pixels(quad)], True, MARKER_COLOUR, line, cv2.LINE_AA)
    centre = calibration.to_image(np.array([[0.5, 0.5]]))[0]
    for index, corner in enumerate(np.array(calibration.corners)):
        point = (round(float(corner[0])), round(float(corner[1])))
        cv2.circle(out, point, 3 * line, TABLE_COLOUR, -1, cv2.LINE_AA)
        outward = (corner - centre) / max(float(np.linalg.norm(corner - centre)), 1.0)
        _label(out, str(index), corner + outward * 22 * scale, 0.8 * scale, TABLE_COLOUR)
    for name, polygon in zones.items():
        seat, zone = int(name[4]), name.split(".")[1]
        sides = {1: 1, 3: 3} if zone in ("wall", "hand_row") else {}  # along a side seat's rows
        turns = sides.get(seat, 0)
        white = (255, 255, 255)
        _label(
            out, zone_label(name), polygon.mean(axis=0), 0.45 * scale, white, quarter_turns=turns
        )
    for row, problem in enumerate(problems(calibration, (width, height), game)):
        _label(out, problem, (8 * line, (12 + 26 * row) * scale), 0.55 * scale, RED, centred=False)
    return out


def _pixels(polygon: np.ndarray) -> np.ndarray:
    """Integer points for OpenCV, clipped so a wild corner cannot overflow."""
    points = np.clip(np.round(np.asarray(polygon)), -1e6, 1e6)
    return points.astype(np.int32).reshape(-1, 1, 2)


def _label(
    image: np.ndarray,
    text: str,
    at: np.ndarray | tuple[float, float],
    font_scale: float,
    colour: tuple[int, int, int],
    *,
    quarter_turns: int = 0,
    centred: bool = True,
) -> None:
    """Text on a darkened box, turned ``quarter_turns`` x 90 degrees counter-clockwise (a side
    seat's label reads along its rows), centred on ``at`` or with its top-left there."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    thickness = max(1, round(2 * font_scale))
    (w, h), baseline = cv2.getTextSize(text, font, font_scale, thickness)
    pad = max(2, round(4 * font_scale))
    patch = np.zeros((h + baseline + 2 * pad, w + 2 * pad, 3), np.uint8)
    cv2.putText(patch, text, (pad, pad + h), font, font_scale, colour, thickness, cv2.LINE_AA)
    patch = np.ascontiguousarray(np.rot90(patch, quarter_turns))
    ph, pw = patch.shape[:2]
    x0 = round(float(at[0]) - (pw / 2 if centred else 0))
    y0 = round(float(at[1]) - (ph / 2 if centred else 0))
    x1, y1 = max(x0, 0), max(y0, 0)
    x2, y2 = min(x0 + pw, image.shape[1]), min(y0 + ph, image.shape[0])
    if x1 >= x2 or y1 >= y2:
        return
    region = (image[y1:y2, x1:x2] * 0.35).astype(np.uint8)
    letters = patch[y1 - y0 : y2 - y0, x1 - x0 : x2 - x0]
    ink = letters.max(axis=2, keepdims=True).astype(np.float32) / 255  # every colour has a 255
    blended = region * (1 - ink) + letters
    image[y1:y2, x1:x2] = np.clip(blended, 0, 255).astype(np.uint8)
