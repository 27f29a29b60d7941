"""Whether a calibration can be used on a camera's frames: every zone the reader needs inside.

A zone that leaves the frame is a river, wall or hand row the camera cannot see: tiles there
would go unread and the referee would get false alerts. ``tilesight calibrate`` checks it before
writing a calibration and ``tilesight run`` before it reads a frame; both use :func:`problems`.
"""

from __future__ import annotations

import numpy as np

from vision.calibration import Calibration, CalibrationError
from vision.zones import zone_polygons

#: The table's own outline in table units, for drawing.
TABLE_OUTLINE = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]


def zone_outlines(calibration: Calibration) -> dict[str, np.ndarray]:
    """Every zone (``seat0.river`` ...) as a polygon in image pixels (N x 2)."""
    return {
        name: calibration.to_image(np.array(polygon, np.float64))
        for name, polygon in zone_polygons().items()
    }


def zone_label(name: str) -> str:
    """``seat2.hand_row`` -> ``seat 2 hand row``."""
    seat, zone = name.split(".")
    return f"seat {seat.removeprefix('seat')} {zone.replace('_', ' ')}"


def outside_by(polygon: np.ndarray, size: tuple[int, int]) -> float:
    """How many pixels the polygon reaches beyond a ``(width, height)`` frame (0: inside)."""
    width, height = size
    low = -polygon.min(axis=0)
    high = polygon.max(axis=0) - np.array([width - 1, height - 1])
    return float(max(0.0, *low, *high))


def corner_order_problem(calibration: Calibration) -> str | None:
    """Why the corners cannot be TL, TR, BR, BL of the table going clockwise, or None."""
    quad = np.array(calibration.corners, np.float64)
    edges = np.roll(quad, -1, axis=0) - quad
    following = np.roll(edges, -1, axis=0)
    turns = edges[:, 0] * following[:, 1] - edges[:, 1] * following[:, 0]  # > 0: clockwise (y down)
    if np.all(turns > 0):
        return None
    if np.all(turns < 0):
        return (
            "the corners go anticlockwise in the image (a mirrored camera image, or the corners "
            "given in the wrong order: clockwise from the corner at seat 0's far left)"
        )
    return "the corners do not make a convex four-sided table (two of them swapped?)"


def problems(calibration: Calibration, size: tuple[int, int]) -> list[str]:
    """What stops this calibration from reading ``(width, height)`` frames (empty: usable)."""
    found = []
    order = corner_order_problem(calibration)
    if order is not None:
        found.append(order)
    outside = {
        name: outside_by(polygon, size) for name, polygon in zone_outlines(calibration).items()
    }
    leaving = [f"{zone_label(n)} ({px:.0f} px)" for n, px in outside.items() if px > 0]
    if leaving:
        found.append(f"zones leave the {size[0]}x{size[1]} frame: " + ", ".join(leaving))
    return found


def check_fits(calibration: Calibration, size: tuple[int, int], name: str) -> None:
    """Raise :class:`CalibrationError` naming ``name`` (a file, a source) and every problem."""
    found = problems(calibration, size)
    if found:
        raise CalibrationError(f"{name}: " + "; ".join(found))
