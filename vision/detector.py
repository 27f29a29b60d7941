"""Tile detection: one interface, ONNX by default, ultralytics optional.

Two networks: a YOLO detector finds tile boxes (class "tile" face up, or "back") on a 640 px view
of a 1024 px table canvas, and a small classifier reads each box's identity and which way up it
lies from a crop of the 1024 px canvas. With a calibration the canvas is the rectified table;
without one the image is scaled so a tile is about canvas size and cut into overlapping windows,
so a ~40 px tile in a 1920x1080 frame is still read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.closeup import MIN_SIDE, CloseupReader
from vision.crop_memory import CropMemory
from vision.crops import (
    CLASSES_OUT,
    best_outputs,
    crop_tile,
    decode,
    flat_centres,
    is_sideways,
    kind_probabilities,
    turned_half,
)
from vision.detector_backends import (
    CANVAS,
    WEIGHTS,
    BoxBackend,
    DetectorError,
    OnnxBoxes,
    crop_probabilities,
    drop_straddlers,
    nms,
    onnx_session,
)
from vision.faces import BACK, Face, face, is_flower
from vision.layout import TILE_W
from vision.row_fill import locate_in_rows
from vision.square_boxes import reread_unsure_faces, settle_square_boxes
from vision.zones import seat_of

CANVAS_TILE_W = TILE_W * CANVAS  # a tile's width on the canvas, as trained
EXPERT_NAME = "expert-int8.onnx"  # the second-opinion classifier the runtime loads


@dataclass(frozen=True)
class Detection:
    face: Face  # a tile (engine Tile) or BACK; str() gives "5p", "E", "3f" or "back"
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 in image pixels
    confidence: float
    orientation: int  # 0/90/180/270: how far the face is turned counter-clockwise

    def to_dict(self) -> dict[str, object]:
        return {
            "tile": str(self.face),
            "box": [round(v, 1) for v in self.box],
            "confidence": round(self.confidence, 4),
            "orientation": self.orientation,
        }


class OnnxClassifier:
    """The crop classifier through ONNX Runtime. The default is the int8 copy of
    ``classifier.onnx`` (models/training/quantize.py): about 1.8x faster, reads the same."""

    def __init__(self, path: Path = WEIGHTS / "classifier-int8.onnx") -> None:
        self.session = onnx_session(path)

    def classify(self, crops: np.ndarray) -> np.ndarray:
        """Probabilities (N x 85) for BGR crops (N x 48 x 36 x 3)."""
        return crop_probabilities(self.session, crops, CLASSES_OUT)


class Detector:
    """``Detector().detect(image)`` -> tiles with boxes in image pixels."""

    def __init__(
        self,
        boxes: BoxBackend | None = None,
        classifier: OnnxClassifier | None = None,
        tile_px: float = 40.0,
        back_confidence: float = 0.8,
        second_look_below: float = 0.8,
        *,
        closeup: CloseupReader | None = None,
        reread_unsure: bool = True,
        expert: OnnxClassifier | None = None,
        use_expert: bool = True,
        expert_below: float = 0.5,
        expert_weight: float = 0.5,
        reader_power: float = 1.0,
    ) -> None:
        """``back_confidence``: a "back" box scoring at least this skips the classifier (a
        face-up tile called "back" by the detector scores 0.46-0.9; walls mostly 0.8-0.95).
        ``second_look_below``: see :meth:`read_crops` (0 turns it off). ``closeup``: the
        reader of large flowers in images read without a calibration (vision.closeup); by
        default the committed one, loaded when first needed. ``reread_unsure``: read unsure
        faces on a table again in a tile-sized box (vision.square_boxes; off for benchmarks).
        ``expert``: the second-opinion classifier (models/training/expert.py; the committed one
        unless ``use_expert`` is False) read on crops whose best kind still scores under
        ``expert_below``, its probabilities mixed in with ``expert_weight`` (a weighted mean).
        ``reader_power``: a face's confidence is the box score times the reader's probability
        raised to this (1, a plain product, was kept: see docs/benchmarks.md)."""
        self.boxes = boxes or OnnxBoxes()
        self.classifier = classifier or OnnxClassifier()
        self.tile_px = tile_px
        self.back_confidence = back_confidence
        self.second_look_below = second_look_below
        self._closeup = closeup
        self.reread_unsure = reread_unsure
        if expert is None and use_expert:
            expert = OnnxClassifier(WEIGHTS / EXPERT_NAME)
        self.expert = expert if use_expert else None
        self.expert_below = expert_below
        self.expert_weight = expert_weight
        self.reader_power = reader_power

    @property
    def closeup(self) -> CloseupReader:
        if self._closeup is None:  # table cameras never need it
            self._closeup = CloseupReader(WEIGHTS / "closeup.onnx")
        return self._closeup

    def detect(self, image: np.ndarray, calibration: Calibration | None = None) -> list[Detection]:
        if image is None or image.ndim != 3 or image.shape[2] != 3 or image.size == 0:
            raise DetectorError("not a colour image")
        if calibration is not None:
            homography = calibration.homography(CANVAS)
            canvas = calibration.rectify(image, CANVAS)
            found = self._read_canvas(canvas, table=True)
            inverse = np.linalg.inv(homography)
            return [_map_box(d, inverse) for d in found]
        return self._detect_windows(image)

    def read_closeup(self, image: np.ndarray, found: Detection, box_score: float) -> Detection:
        """``found`` (in ``image`` pixels) re-read by the close-up reader when it is a flower
        showing at least MIN_SIDE px of the image on its short side: flower, way up and
        confidence (``box_score``, the detector's, times the reader's probability) are then the
        reader's. Anything else is returned as it is."""
        h, w = image.shape[:2]
        x1, y1, x2, y2 = found.box
        shown = min(min(x2, w) - max(x1, 0), min(y2, h) - max(y1, 0))  # inside the image
        if not is_flower(found.face) or shown < MIN_SIDE:
            return found
        name, upside_down, probability = self.closeup.flower(image, found.box)
        orientation = (90 if is_sideways(found.box) else 0) + 180 * upside_down
        return Detection(face(name), found.box, box_score * probability, orientation)

    def detect_table(self, canvas: np.ndarray, memory: CropMemory | None = None) -> list[Detection]:
        """Detections on an already rectified CANVAS x CANVAS table, in canvas pixels; with a
        ``memory`` (one per video stream) unchanged tiles reuse the last frame's reading."""
        return self._read_canvas(canvas, table=True, memory=memory)

    def _classify(
        self, boxes: np.ndarray, crops: np.ndarray, memory: CropMemory | None
    ) -> np.ndarray:
        if memory is None:
            return self.read_crops(crops)
        return memory.read_through(boxes, crops, self.read_crops)

    def read_crops(self, crops: np.ndarray) -> np.ndarray:
        """Classifier outputs; a crop whose best kind scores under ``second_look_below`` is read
        again turned half round, and the two readings averaged (upright and upside-down
        outputs swapped back): a blurred numeral often reads better one way up."""
        probs = self.classifier.classify(crops)
        unsure = np.flatnonzero(kind_probabilities(probs).max(axis=1) < self.second_look_below)
        if len(unsure):
            turned = np.ascontiguousarray(crops[unsure, ::-1, ::-1])
            probs[unsure] = (probs[unsure] + turned_half(self.classifier.classify(turned))) / 2
        if self.expert is not None:
            doubt = np.flatnonzero(kind_probabilities(probs).max(axis=1) < self.expert_below)
            if len(doubt):
                second = self.expert.classify(np.ascontiguousarray(crops[doubt]))
                weight = self.expert_weight
                probs[doubt] = (1 - weight) * probs[doubt] + weight * second
        return probs

    def _read_canvas(
        self,
        canvas: np.ndarray,
        table: bool = False,
        memory: CropMemory | None = None,
        source: tuple[np.ndarray, float, int, int] | None = None,
    ) -> list[Detection]:
        """Detections in canvas pixels. ``source``: (image, scale, left, top) when the canvas is
        a window of ``image`` scaled by ``scale``: large flowers are then read close up."""
        located = locate_in_rows(self.boxes, canvas) if table else self.boxes.locate(canvas)
        boxes, scores, classes = located
        h, w = canvas.shape[:2]
        inside = np.clip(boxes, 0, [w, h, w, h])  # a box must show >= 2 px of the canvas
        sized = np.flatnonzero((inside[:, 2:] - inside[:, :2] >= 2).all(axis=1))
        boxes, scores, classes = boxes[sized], scores[sized], classes[sized]
        if len(boxes) == 0:
            return []
        keep = drop_straddlers(boxes, classes == 0)
        boxes, scores, classes = boxes[keep], scores[keep], classes[keep]
        # a confident, flat "back" needs no identity: skip the classifier for walls
        plain_back = (classes == 1) & (scores >= self.back_confidence)
        plain_back[plain_back] = flat_centres(canvas, boxes[plain_back])
        out: list[Detection] = []
        for box, score in zip(boxes[plain_back], scores[plain_back], strict=True):
            orientation = 90 if box[2] - box[0] > box[3] - box[1] else 0
            out.append(Detection(BACK, _box(box), float(score), orientation))
        faces, face_scores = boxes[~plain_back], scores[~plain_back]
        if len(faces) == 0:
            return out
        crops = np.stack([crop_tile(canvas, box) for box in faces])
        probs = self._classify(faces, crops, memory)
        if table:
            if self.reread_unsure:
                probs = reread_unsure_faces(
                    canvas, faces, probs, self.read_crops, self.second_look_below
                )
            faces, probs = settle_square_boxes(canvas, faces, probs, self.read_crops)
        kinds = kind_probabilities(probs)
        outputs = best_outputs(probs, kinds)
        for box, score, row, kind_row, output in zip(
            faces, face_scores, probs, kinds, outputs, strict=True
        ):
            name, orientation = decode(int(output), box)
            seen = face(name)
            if table and seen is not BACK:
                orientation = _seat_orientation(row, int(output), box, orientation)
            confidence = float(score) * float(kind_row.max()) ** self.reader_power
            found = Detection(seen, _box(box), confidence, orientation)
            if source is not None and is_flower(seen):
                found = self._closeup_in_window(found, source, float(score))
            out.append(found)
        return out

    def _closeup_in_window(
        self, found: Detection, source: tuple[np.ndarray, float, int, int], box_score: float
    ) -> Detection:
        image, scale, left, top = source
        x1, y1, x2, y2 = found.box
        box = ((x1 + left) / scale, (y1 + top) / scale, (x2 + left) / scale, (y2 + top) / scale)
        in_image = Detection(found.face, box, found.confidence, found.orientation)
        read = self.read_closeup(image, in_image, box_score)  # as it was if too small
        return Detection(read.face, found.box, read.confidence, read.orientation)

    def _detect_windows(self, image: np.ndarray) -> list[Detection]:
        scale = CANVAS_TILE_W / self.tile_px
        scaled = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        h, w = scaled.shape[:2]
        step = CANVAS - 128
        found: list[Detection] = []
        for top in range(0, max(h - 128, 1), step):
            for left in range(0, max(w - 128, 1), step):
                window = scaled[top : top + CANVAS, left : left + CANVAS]
                pad_b, pad_r = CANVAS - window.shape[0], CANVAS - window.shape[1]
                window = cv2.copyMakeBorder(
                    window, 0, pad_b, 0, pad_r, cv2.BORDER_CONSTANT, value=(40, 40, 40)
                )
                for d in self._read_canvas(window, source=(image, scale, left, top)):
                    x1, y1, x2, y2 = d.box
                    box = (
                        (x1 + left) / scale,
                        (y1 + top) / scale,
                        (x2 + left) / scale,
                        (y2 + top) / scale,
                    )
                    found.append(Detection(d.face, box, d.confidence, d.orientation))
        if not found:
            return []
        keep = nms(np.array([d.box for d in found]), np.array([d.confidence for d in found]), 0.5)
        return [found[i] for i in sorted(keep.tolist())]


def _box(values: np.ndarray) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = (float(v) for v in values)
    return x1, y1, x2, y2


def _seat_orientation(probs: np.ndarray, best: int, box: np.ndarray, read: int) -> int:
    """On a rectified table, a face that reads the same both ways up (1p, 8p, white dragon...)
    takes the orientation its seat gives it: tiles face their owner, a claimed tile turned 90.
    ``best``: the output the face was read as (``best_outputs``)."""
    pair = probs[best - best % 2 : best - best % 2 + 2]
    if pair.max() < 4 * pair.min():  # the classifier cannot tell up from down
        x1, y1, x2, y2 = (float(v) for v in box)
        seat = seat_of((x1 + x2) / 2 / CANVAS, (y1 + y2) / 2 / CANVAS)
        wide = x2 - x1 > y2 - y1
        return (seat * 90 + (90 if wide != (seat % 2 == 1) else 0)) % 360
    return read


def _map_box(d: Detection, matrix: np.ndarray) -> Detection:
    x1, y1, x2, y2 = d.box
    corners = np.array([[[x1, y1]], [[x2, y1]], [[x2, y2]], [[x1, y2]]], np.float64)
    mapped = cv2.perspectiveTransform(corners, matrix).reshape(-1, 2)
    (x1, y1), (x2, y2) = mapped.min(axis=0), mapped.max(axis=0)
    return Detection(
        d.face, (float(x1), float(y1), float(x2), float(y2)), d.confidence, d.orientation
    )
