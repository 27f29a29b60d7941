"""Whether a calibration can be used on a camera's frames: every zone the reader needs inside.

A zone that leaves the frame is a river, wall or hand row the camera cannot see: tiles there
would go unread and the referee would get false alerts. ``tilesight calibrate`` checks it before
writing a calibration and ``tilesight run`` before it reads a frame; both use :func:`problems`.
"""

from __future__ import annotations

import numpy as np

from vision.calibration import Calibration, CalibrationError
from vision.zones import zone_polygons

#: A six-seat card table's play zones in table units (vision.card_seats.TABLE_ZONES, here so
#: that OpenCV-free callers need not import the card reader): x0, y0, x1, y1.
CARD_TABLE_ZONES: tuple[tuple[float, float, float, float], ...] = (
    (0.18, 0.58, 0.50, 1.0),
    (0.50, 0.58, 0.82, 1.0),
    (0.82, 0.12, 1.0, 0.88),
    (0.50, 0.0, 0.82, 0.42),
    (0.18, 0.0, 0.50, 0.42),
    (0.0, 0.12, 0.18, 0.88),
)
#: A card zone reaches the table's edge, which a camera framing the table tightly may cut;
#: cards are laid in its middle, so only this share of it (about its centre) must be in view.
CARD_ZONE_MIDDLE = 0.6

#: The table's own outline in table units, for drawing.
TABLE_OUTLINE = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]


def zone_outlines(calibration: Calibration, game: str = "mahjong") -> dict[str, np.ndarray]:
    """Every zone as a polygon in image pixels (N x 2): a mahjong table's ``seat0.river`` ...,
    a Gouji table's ``seat0.play`` ... (``game``)."""
    polygons = zone_polygons()
    if game == "gouji":
        polygons = {
            f"seat{seat}.play": [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
            for seat, (x0, y0, x1, y1) in enumerate(CARD_TABLE_ZONES)
        }
    return {
        name: calibration.to_image(np.array(polygon, np.float64))
        for name, polygon in polygons.items()
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


def outside(
    calibration: Calibration, size: tuple[int, int], game: str = "mahjong"
) -> dict[str, float]:
    """Each zone's pixels beyond a ``(width, height)`` frame (0: in view): a tile zone whole, a
    card zone's middle (:data:`CARD_ZONE_MIDDLE`)."""
    share = CARD_ZONE_MIDDLE if game == "gouji" else 1.0
    out = {}
    for name, polygon in zone_outlines(calibration, game).items():
        centre = polygon.mean(axis=0)
        out[name] = outside_by(centre + (polygon - centre) * share, size)
    return out


def problems(calibration: Calibration, size: tuple[int, int], game: str = "mahjong") -> list[str]:
    """What stops this calibration from reading ``(width, height)`` frames of a ``game``
    table (empty: usable)."""
    found = []
    order = corner_order_problem(calibration)
    if order is not None:
        found.append(order)
    beyond = outside(calibration, size, game)
    leaving = [f"{zone_label(n)} ({px:.0f} px)" for n, px in beyond.items() if px > 0]
    if leaving:
        found.append(f"zones leave the {size[0]}x{size[1]} frame: " + ", ".join(leaving))
    return found


def check_fits(
    calibration: Calibration, size: tuple[int, int], name: str, game: str = "mahjong"
) -> None:
    """Raise :class:`CalibrationError` naming ``name`` (a file, a source) and every problem."""
    found = problems(calibration, size, game)
    if found:
        raise CalibrationError(f"{name}: " + "; ".join(found))
