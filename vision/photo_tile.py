"""A tile read in a photograph (vision.photo): its kind, its face's quad, how sure the reading
is, and when it is shown to people or doubted."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.crops import TILE_NAMES

DOUBT_BELOW = 0.6  # a reading whose kind scores under this is named as doubted
# ... and one on a box the detector scored under this, whatever it reads (until 2026-12-07, late,
# the product of the two was held to DOUBT_BELOW: sure faces on a rack's standing tiles, boxes
# scored 0.5-0.6, were all doubted)
DOUBT_BOX = 0.4
CLOSE_CALL = 0.25  # ... or whose runner-up is within this of it
# The least confidence a photo's tile is reported at (``tilesight detect``; the evaluation): on
# the real evaluation photos 0.4 keeps 0.86 of the boxes right and 0.88 of tile-free views
# silent, 0.3 only 0.79 and 0.62 (docs/vision.md, "Photographs").
PHOTO_MIN_CONFIDENCE = 0.4
VOUCHED_BOX = 0.2  # (see BOX_FLOOR in vision/photo.py)
VOUCHED_READING = 0.95


def runners_up(kinds: np.ndarray) -> tuple[tuple[str, float], ...]:
    """The three likeliest kinds after the best (42 designs + back), from 0.02 up."""
    names = [*TILE_NAMES, "back"]
    order = np.argsort(-kinds)
    return tuple((names[i], round(float(kinds[i]), 4)) for i in order[1:4] if kinds[i] >= 0.02)


@dataclass(frozen=True)
class PhotoTile:
    """One tile read in a photo."""

    tile: str  # engine notation ("5p", "E", "3f") or "back"
    corners: tuple[tuple[float, float], ...]  # TL, TR, BR, BL of the face as read upright, px
    confidence: float  # the detector's box score times the reading's probability
    alternatives: tuple[tuple[str, float], ...] = field(default=())  # runners-up, likeliest first
    box_score: float = 1.0  # the detector's score of the box alone
    cut_off: bool = False  # partly outside the photo: a face half seen, maybe another player's

    @property
    def quad(self) -> np.ndarray:
        return np.asarray(self.corners, np.float64).reshape(4, 2)

    @property
    def centre(self) -> tuple[float, float]:
        x, y = self.quad.mean(axis=0)
        return float(x), float(y)

    @property
    def box(self) -> tuple[float, float, float, float]:
        """The axis-aligned bound of the face, x1, y1, x2, y2 px."""
        lo, hi = self.quad.min(axis=0), self.quad.max(axis=0)
        return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])

    @property
    def width(self) -> float:
        """Across the face (its short side as laid), px: the mean of top and bottom edges."""
        q = self.quad
        return float((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2)

    @property
    def height(self) -> float:
        """Along the face, bottom to top, px: the mean of the two side edges."""
        q = self.quad
        return float((np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2)

    @property
    def up(self) -> tuple[float, float]:
        """Unit vector from the face's bottom edge to its top edge, in image axes (y down)."""
        q = self.quad
        v = (q[0] + q[1]) / 2 - (q[3] + q[2]) / 2
        n = float(np.linalg.norm(v)) or 1.0
        return float(v[0] / n), float(v[1] / n)

    @property
    def angle(self) -> float:
        """How far the face is turned counter-clockwise in the image, degrees in [0, 360)."""
        ux, uy = self.up
        return float(np.degrees(np.arctan2(-ux, -uy)) % 360)

    @property
    def orientation(self) -> int:
        """:attr:`angle` to the nearest quarter turn (as vision.detector.Detection's)."""
        return int(round(self.angle / 90) % 4 * 90)

    @property
    def doubted(self) -> bool:
        """True when the reading is unsure (its kind scores under DOUBT_BELOW, or a runner-up is
        close behind) or the box is (the detector scored it under DOUBT_BOX: maybe no tile; the
        photo's edge cuts it off)."""
        if self.probability < DOUBT_BELOW or self.box_score < DOUBT_BOX or self.cut_off:
            return True
        return bool(self.alternatives) and self.alternatives[0][1] > self.probability - CLOSE_CALL

    @property
    def probability(self) -> float:
        """The reading's own probability: how sure the classifier is of the kind, the box's
        score aside (the runners-up are given on the same scale)."""
        return self.confidence / self.box_score if self.box_score > 0 else self.confidence

    @property
    def vouched(self) -> bool:
        """A face the classifier is sure of on a box the detector scored low (see BOX_FLOOR),
        whole in the photo (a face the edge cuts off vouches for nothing)."""
        sure = self.box_score >= VOUCHED_BOX and self.probability >= VOUCHED_READING
        return self.tile != "back" and sure and not self.cut_off

    @property
    def flower_probability(self) -> float:
        """For a flower, how sure the reading is of a flower, whichever: its own kind's
        probability and its runners-up that are flowers (0 for any other tile). The seasons
        look alike, and a flower counts the same whichever it is."""
        if not self.tile.endswith("f"):
            return 0.0
        return self.probability + sum(p for name, p in self.alternatives if name.endswith("f"))

    def reported(self, least: float = PHOTO_MIN_CONFIDENCE) -> bool:
        """Shown to people: confident enough, vouched for by a sure reading, or a flower
        confidently a flower (named as its likeliest, doubted when that is unsure)."""
        sure_flower = self.box_score * self.flower_probability >= least
        return self.confidence >= least or self.vouched or sure_flower

    def to_dict(self) -> dict[str, object]:
        x1, y1, x2, y2 = self.box
        return {
            "tile": self.tile,
            "box": [round(x1, 1), round(y1, 1), round(x2, 1), round(y2, 1)],
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "confidence": round(self.confidence, 4),
            "orientation": self.orientation,
            "angle": round(self.angle, 1),
            "alternatives": [[name, round(p, 4)] for name, p in self.alternatives],
            "doubted": self.doubted,
            "cut_off": self.cut_off,
        }
