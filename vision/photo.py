"""Reading tiles in a photograph taken from anywhere: any scale, any turn, a tilted camera.

``PhotoReader().read(image)`` -> ``PhotoTile`` values: each tile's kind (engine notation or
``back``), its face as four corners in image pixels (top-left, top-right, bottom-right,
bottom-left of the face as its owner reads it, so the quad carries the tile's turn), the
confidence, and the next likeliest kinds (a referee is shown what the reader doubted).

Unlike the table camera (vision.detector: a calibrated, rectified table at a known scale), a
photo has no calibration and no known tile size: the reader finds the scale itself.
"""

from __future__ import annotations

from dataclasses import replace

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
from vision.photo_single import one_tile
from vision.photo_stretch import (
    AS_IS,
    Squeeze,
    bordered,
    squeezed,
    stretch_of,
    stretched_back,
    sure_faces,
)
from vision.photo_tile import (  # noqa: F401 (re-exported: vision.photo's tile and its cuts)
    CLOSE_CALL,
    DOUBT_BELOW,
    DOUBT_BOX,
    PHOTO_MIN_CONFIDENCE,
    VOUCHED_BOX,
    VOUCHED_READING,
    PhotoTile,
    runners_up,
)

PHOTO_CLASSIFIER = "photo-classifier.onnx"
# Boxes the detector scores from BOX_FLOOR are read; one scored under it (down to VOUCHED_BOX) is
# kept only when the classifier is sure of a face on it (VOUCHED_READING): a tile the detector
# half-missed, a standing tile seen from the front. Measured on the real evaluation photos with
# the detector of 2026-12-07: hk-table-rf read right 0.907 -> 0.915, riichi-webcam-rf 0.747 ->
# 0.774, tile-free views still 0.98 silent (0.93 instead of 0.95: 0.94 silent).
BOX_FLOOR = 0.3
CUT_OFF = 0.1  # a quad reaching this much of its width past the photo's edge is cut off
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
        pixels, and the squeeze that undid the stretch (AS_IS: none). A photo with under 3 sure
        faces that looks like one tile's face is read as that tile (vision.photo_single)."""
        tiles = self.read_as_is(image, full)
        if sure_faces(tiles) < 3 and (single := one_tile(image, self.detector.read_crops)):
            return image, [single], AS_IS
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
    return PhotoTile(name, _points(upright), score * probability, runners_up(kinds), score)


def _points(quad: np.ndarray) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in np.asarray(quad).reshape(4, 2))
