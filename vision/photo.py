"""Reading tiles in a photograph taken from anywhere: any scale, any turn, a tilted camera.

``PhotoReader().read(image)`` -> ``PhotoTile`` values: each tile's kind (engine notation or
``back``), its face as four corners in image pixels (top-left, top-right, bottom-right,
bottom-left of the face as its owner reads it, so the quad carries the tile's turn), the
confidence, and the next likeliest kinds (a referee is shown what the reader doubted).

Unlike the table camera (vision.detector: a calibrated, rectified table at a known scale), a
photo has no calibration and no known tile size: the reader finds the scale itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from vision.crops import CROP_H, CROP_W, TILE_NAMES, best_outputs, kind_probabilities
from vision.detector import Detector, OnnxClassifier
from vision.detector_backends import WEIGHTS
from vision.photo_boxes import OrientedBox, PhotoBoxes, squared_to_edges
from vision.photo_quads import (  # noqa: F401 (warp_crop, box_corners: re-exported)
    box_corners,
    grown_quad,
    reading_quads,
    upright_quads,
    warp_crop,
)
from vision.photo_stretch import (
    AS_IS,
    Squeeze,
    bordered,
    squeezed,
    stretch_of,
    stretched_back,
)

DOUBT_BELOW = 0.6  # a reading whose kind scores under this is named as doubted
# ... and one on a box the detector scored under this, whatever it reads (until 2026-12-07, late,
# the product of the two was held to DOUBT_BELOW: sure faces on a rack's standing tiles, boxes
# scored 0.5-0.6, were all doubted)
DOUBT_BOX = 0.4
CLOSE_CALL = 0.25  # ... or whose runner-up is within this of it
PHOTO_CLASSIFIER = "photo-classifier.onnx"
# The least confidence a photo's tile is reported at (``tilesight detect``; the evaluation): on
# the real evaluation photos 0.4 keeps 0.86 of the boxes right and 0.88 of tile-free views
# silent, 0.3 only 0.79 and 0.62 (docs/vision.md, "Photographs").
PHOTO_MIN_CONFIDENCE = 0.4
# Boxes the detector scores from BOX_FLOOR are read; one scored under it (down to VOUCHED_BOX) is
# kept only when the classifier is sure of a face on it (VOUCHED_READING): a tile the detector
# half-missed, a standing tile seen from the front. Measured on the real evaluation photos with
# the detector of 2026-12-07: hk-table-rf read right 0.907 -> 0.915, riichi-webcam-rf 0.747 ->
# 0.774, tile-free views still 0.98 silent (0.93 instead of 0.95: 0.94 silent).
BOX_FLOOR = 0.3
CUT_OFF = 0.1  # a quad reaching this much of its width past the photo's edge is cut off
VOUCHED_BOX = 0.2
VOUCHED_READING = 0.95
# Each box is read at these geometries (along, across: its length and width scaled; shift: its
# centre moved along it, a share of its length) and the surest reading kept: the detector's box
# holds a tile's face and sometimes stops short of an end, and a numeral or a row of circles cut
# off there misreads (7p as 6p, 3p as 2p). Chosen on the real training photos
# (models/photo/box_crops.py); the classifier learned crops cut at them.
GEOMETRIES: tuple[tuple[float, float, float], ...] = (
    (1.0, 1.0, 0.0),
    (1.15, 1.08, 0.0),
    (1.25, 1.12, 0.0),
    (1.15, 1.08, 0.08),
    (1.15, 1.08, -0.08),
)


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


def photo_classifier() -> Detector:
    """The crop reading of the photo path: the photo classifier (models/photo/classifier.py,
    whole tiles at any angle) with the table path's second look at unsure crops; the table
    classifier where the photo one is absent."""
    path = WEIGHTS / PHOTO_CLASSIFIER
    if path.is_file():
        return Detector(classifier=OnnxClassifier(path), use_expert=False)
    return Detector()


class PhotoReader:
    """Reads every tile in a photo with no hint of scale (see the module docstring)."""

    def __init__(self, boxes: PhotoBoxes | None = None, detector: Detector | None = None) -> None:
        self.boxes = boxes if boxes is not None else PhotoBoxes(threshold=VOUCHED_BOX)
        self.detector = detector if detector is not None else photo_classifier()

    def read(
        self, image: np.ndarray, full: bool = False, unstretch: bool = True
    ) -> list[PhotoTile]:
        """Every tile in ``image``, in its pixels; a photo its publisher stretched is read
        squeezed back (vision.photo_stretch; ``unstretch=False``: as it is)."""
        _, tiles, squeeze = self.read_unstretched(image, full, unstretch)
        return [stretched_back(t, squeeze) for t in tiles]

    def read_unstretched(
        self, image: np.ndarray, full: bool = False, unstretch: bool = True
    ) -> tuple[np.ndarray, list[PhotoTile], Squeeze]:
        """The photo as taken (its publisher's stretch undone), its tiles in that photo's
        pixels, and the squeeze that undid the stretch (AS_IS: none)."""
        tiles = self.read_as_is(image, full)
        squeeze = stretch_of(self.read_as_is, image, tiles) if unstretch else AS_IS
        if squeeze == AS_IS:
            return image, tiles, squeeze
        image = squeezed(image, squeeze)
        framed, border = bordered(image)
        tiles = [stretched_back(t, AS_IS, border) for t in self.read_as_is(framed, full)]
        return image, [replace(t, cut_off=_cut_off(t.quad, image.shape)) for t in tiles], squeeze

    def read_as_is(self, image: np.ndarray, full: bool = False) -> list[PhotoTile]:
        """Every tile in ``image`` taken as it is (see :meth:`read`)."""
        found = [squared_to_edges(image, box) for box in self.boxes.find(image, full=full)]
        if not found:
            return []
        quads: list[np.ndarray] = []  # the face as found, each way round, per crop
        crops: list[np.ndarray] = []
        owners: list[int] = []
        for index, box in enumerate(found):
            faces = upright_quads(box.corners)
            for geometry in GEOMETRIES:
                for face, cut in zip(faces, reading_quads(box.corners, *geometry), strict=True):
                    quads.append(face)
                    crops.append(warp_crop(image, cut, (CROP_W, CROP_H)))
                    owners.append(index)
        probs = self.detector.read_crops(np.stack(crops))
        kinds = kind_probabilities(probs)
        best_of: dict[int, int] = {}
        for row, owner in enumerate(owners):  # of the geometries and ways round, the surest
            if owner not in best_of or kinds[row].max() > kinds[best_of[owner]].max():
                best_of[owner] = row
        tiles = []
        for owner, row in sorted(best_of.items()):
            tile = _tile(found[owner], quads[row], probs[row], kinds[row])
            tile = replace(tile, cut_off=_cut_off(tile.quad, image.shape))
            if tile.box_score >= BOX_FLOOR or tile.vouched:
                tiles.append(tile)
        return tiles


def _cut_off(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether the photo's edge cuts ``quad`` by more than CUT_OFF of its shorter side."""
    h, w = shape[:2]
    margin = CUT_OFF * min(
        float(np.linalg.norm(quad[1] - quad[0])), float(np.linalg.norm(quad[3] - quad[0]))
    )
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    return bool(lo[0] < -margin or lo[1] < -margin or hi[0] > w + margin or hi[1] > h + margin)


def _tile(box: OrientedBox, quad: np.ndarray, probs: np.ndarray, kinds: np.ndarray) -> PhotoTile:
    """The reading of one box: the classifier's kind (or back), the quad turned the way up the
    classifier reads it, the runners-up."""
    score = float(box.score)
    output = int(best_outputs(probs[None], kinds[None])[0])
    order = np.argsort(-kinds)
    names = [*TILE_NAMES, "back"]
    name = names[order[0]]
    if name == "back":  # the detector finds tiles; which side shows is the classifier's call
        return PhotoTile("back", _points(quad), score * float(kinds[order[0]]), box_score=score)
    upright = quad if output % 2 == 0 else np.roll(quad, 2, axis=0)
    probability = float(kinds[order[0]])
    alternatives = tuple(
        (names[i], round(float(kinds[i]), 4)) for i in order[1:4] if kinds[i] >= 0.02
    )
    return PhotoTile(name, _points(upright), score * probability, alternatives, score)


def _points(quad: np.ndarray) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in np.asarray(quad).reshape(4, 2))
