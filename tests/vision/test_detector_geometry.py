"""Detector plumbing without the box network: boxes found on the rectified canvas or in windows
come back in image pixels where the tiles are (a backend that returns the true boxes stands in
for YOLO; the committed classifier is real)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from models.drawn.camera import render_frame
from models.evaluation.metrics import iou
from vision.calibration import Calibration
from vision.crops import BACK_INDEX, CLASSES_OUT, TILE_NAMES, best_outputs, decode
from vision.detector import Detector
from vision.detector_backends import CANVAS, anchor_grid, decode_boxes, drop_straddlers
from vision.layout import TableSpec


class TruthBoxes:
    """Returns given boxes (in the coordinates of the image it is handed) as "tile" faces."""

    threshold = 0.5

    def __init__(self, boxes: np.ndarray) -> None:
        self.boxes = boxes
        self.calls = 0

    def locate(
        self, image: np.ndarray, floor: float | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.calls += 1
        return self.boxes, np.full(len(self.boxes), 0.9), np.zeros(len(self.boxes), np.int64)


def test_calibrated_detections_map_back_to_image_pixels(faces) -> None:
    spec = TableSpec(concealed=[0] * 4, walls=[(0, 0)] * 4)
    spec.rivers = [["3m", "4m", "5m"], ["E"], ["C", "F"], ["9s"]]
    frame = render_frame(spec, faces, np.random.default_rng(3), arms=0, distortion=0.0)
    corners = tuple((float(x), float(y)) for x, y in frame.table_corners)
    calibration = Calibration(corners)
    homography = calibration.homography(CANVAS)
    canvas_boxes = []
    for label in frame.labels:
        quad = cv2.perspectiveTransform(label.corners.reshape(-1, 1, 2), homography).reshape(-1, 2)
        canvas_boxes.append([*quad.min(axis=0), *quad.max(axis=0)])
    detector = Detector(boxes=TruthBoxes(np.array(canvas_boxes)))
    found = detector.detect(frame.image, calibration)
    assert len(found) == len(frame.labels) == 7
    overlaps = iou(np.array([lab.box for lab in frame.labels]), np.array([d.box for d in found]))
    assert np.all(np.diag(overlaps) > 0.85)


def test_uncalibrated_image_is_read_in_windows_at_tile_scale() -> None:
    image = np.full((900, 2000, 3), 90, np.uint8)
    detector = Detector(boxes=TruthBoxes(np.array([[100.0, 100.0, 133.0, 145.0]])), tile_px=40)
    found = detector.detect(image)
    scale = 40 / (0.032 * CANVAS)
    assert detector.boxes.calls == 2  # 2000 px * 0.82 -> two overlapping 1024 px windows
    lefts = sorted(round(d.box[0]) for d in found)
    assert lefts[0] == round(100 * scale)
    assert all(abs((d.box[2] - d.box[0]) - 33 * scale) < 1 for d in found)


def test_a_face_box_straddling_two_touching_tiles_is_dropped() -> None:
    left, right = [100.0, 100.0, 140.0, 153.0], [140.0, 100.0, 180.0, 153.0]
    straddler = [118.0, 101.0, 160.0, 152.0]  # half of each: NMS keeps it (IoU < 0.5 with both)
    lone = [300.0, 100.0, 340.0, 153.0]
    boxes = np.array([left, straddler, right, lone])
    kept = drop_straddlers(boxes, np.ones(4, bool))
    assert kept.tolist() == [0, 2, 3]


def test_in_a_packed_river_the_straddler_goes_not_the_tiles_it_covers() -> None:
    # boxes of a held-out frame (seed 9000): each a little larger than its tile, so a tile's
    # box overlaps all its neighbours' and, with the straddler over 77 % of it, is covered
    # 1.17 times in sum, more than the straddler itself (1.08). Only the straddler is covered
    # by two boxes at once, half by each tile.
    boxes = np.array(
        [
            [510.0, 714.0, 548.0, 765.0],  # an 8p under the straddler
            [542.0, 714.0, 578.0, 763.0],  # the 7p to its right
            [518.0, 713.0, 573.0, 764.0],  # the straddler (score 0.55; the tiles 0.84-0.88)
            [474.0, 717.0, 513.0, 766.0],  # the rest of the row and the rows above and below
            [574.0, 718.0, 610.0, 767.0],
            [475.0, 671.0, 512.0, 718.0],
            [509.0, 671.0, 545.0, 719.0],
            [541.0, 671.0, 578.0, 720.0],
            [575.0, 671.0, 613.0, 719.0],
            [474.0, 760.0, 511.0, 808.0],
            [510.0, 762.0, 548.0, 810.0],
        ]
    )
    assert drop_straddlers(boxes, np.ones(len(boxes), bool)).tolist() == [0, 1, *range(3, 11)]


def test_a_second_box_over_one_turned_tile_is_dropped() -> None:
    # a claimed tile lying sideways, boxed twice (once as if upright): one box covers the other
    # by 80 % or more, so only one tile is reported there (seed 1000, hand 3: the duplicate
    # became a second "1p" track and the pung read as loose tiles for 60 frames)
    turned = [144.0, 48.0, 190.0, 85.0]
    inside = [147.0, 46.0, 184.0, 86.0]  # 37x40, 85 % under the other
    neighbours = [[107.0, 49.0, 143.0, 94.0], [190.0, 51.0, 224.0, 98.0]]
    boxes = np.array([neighbours[0], turned, inside, neighbours[1]])
    assert drop_straddlers(boxes, np.ones(4, bool)).tolist() == [0, 1, 3]


def test_touching_tilted_tiles_and_wall_backs_are_kept() -> None:
    # neighbours whose boxes overlap a little (tiles turned a few degrees) are all tiles
    row = np.array([[100.0 + 38 * i, 100.0, 142.0 + 38 * i, 153.0] for i in range(6)])
    assert drop_straddlers(row, np.ones(6, bool)).tolist() == list(range(6))
    # a back box covered by two others is a wall's second tier, not a straddler
    wall = np.array([[0.0, 0.0, 40.0, 53.0], [20.0, 0.0, 60.0, 53.0], [40.0, 0.0, 80.0, 53.0]])
    assert drop_straddlers(wall, np.zeros(3, bool)).tolist() == [0, 1, 2]
    assert drop_straddlers(wall, np.ones(3, bool)).tolist() == [0, 2]
    # a tile in a tight meld, its box a little wide, a third covered by each neighbour: a tile
    tight = np.array([[0.0, 0.0, 40.0, 53.0], [26.0, 0.0, 66.0, 53.0], [52.0, 0.0, 92.0, 53.0]])
    assert drop_straddlers(tight, np.ones(3, bool)).tolist() == [0, 1, 2]


def test_box_logits_decode_to_distances_from_their_anchor() -> None:
    anchors, strides = anchor_grid(640)
    assert len(anchors) == 80 * 80 + 40 * 40 + 20 * 20
    assert tuple(anchors[81]) == (1.5, 1.5) and strides[81] == 8  # row by row, cell centres
    assert tuple(anchors[6400]) == (0.5, 0.5) and strides[6400] == 16
    picks = np.array([81, 6400 + 41])
    logits = np.full((64, 2), -30.0, np.float32)
    sides = [(2, 3, 4, 5), (1, 1, 1, 1)]  # left, top, right, bottom, in cells
    for column, distances in enumerate(sides):
        for side, cells in enumerate(distances):
            logits[side * 16 + cells, column] = 30.0  # all weight on one distance bin
    boxes = decode_boxes(logits, anchors[picks], strides[picks])
    np.testing.assert_allclose(boxes[0], [(1.5 - 2) * 8, (1.5 - 3) * 8, 5.5 * 8, 6.5 * 8])
    np.testing.assert_allclose(boxes[1], [0.5 * 16, 0.5 * 16, 2.5 * 16, 2.5 * 16])
    logits[:16, 0] = 0.0  # an even spread over the 16 bins: the left distance is their mean
    assert decode_boxes(logits, anchors[picks], strides[picks])[0, 0] == np.float32((1.5 - 7.5) * 8)


def test_degenerate_and_outside_boxes_are_dropped_not_crashed_on(faces) -> None:
    """A backend may return a zero-width box or one off the canvas; the crop would be empty."""
    boxes = np.array(
        [[100, 100, 133, 146], [200, 200, 200, 240], [-50, -50, -10, -5], [1030, 1040, 1070, 1090]],
        np.float32,
    )
    canvas = np.full((CANVAS, CANVAS, 3), 90, np.uint8)
    found = Detector(boxes=TruthBoxes(boxes)).detect_table(canvas)
    assert [tuple(round(v) for v in d.box) for d in found] == [(100, 100, 133, 146)]


class BackBoxes(TruthBoxes):
    """Calls every given box a confident "back", as the detector does to some blurred faces."""

    def locate(
        self, image: np.ndarray, floor: float | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.calls += 1
        return self.boxes, np.full(len(self.boxes), 0.9), np.ones(len(self.boxes), np.int64)


def test_a_face_called_a_confident_back_is_still_read(faces) -> None:
    spec = TableSpec(concealed=[0] * 4, walls=[(0, 4), (0, 0), (0, 0), (0, 0)])
    spec.rivers = [["9s", "7s", "4s"], [], ["9s"], []]
    frame = render_frame(spec, faces, np.random.default_rng(5), arms=0, distortion=0.0)
    calibration = Calibration(tuple((float(x), float(y)) for x, y in frame.table_corners))
    homography = calibration.homography(CANVAS)
    canvas = calibration.rectify(frame.image, CANVAS)
    truth, boxes = [], []
    for label in frame.labels:
        quad = cv2.perspectiveTransform(label.corners.reshape(-1, 1, 2), homography).reshape(-1, 2)
        boxes.append([*quad.min(axis=0), *quad.max(axis=0)])
        truth.append(label.spot.name)
    assert truth.count("back") == 4 and len(truth) == 8  # four stacks seen from above, four faces
    canvas = cv2.GaussianBlur(canvas, (0, 0), 1.5)  # a blurred frame, as when it happens
    found = Detector(boxes=BackBoxes(np.array(boxes))).detect_table(canvas)
    overlaps = iou(np.array(boxes), np.array([d.box for d in found]))
    read = [str(found[int(row.argmax())].face) for row in overlaps]
    assert read == truth


class SplitClassifier:
    """Reads every crop as 2f upright 0.40, else 3f: 0.32 upright, 0.28 upside down."""

    def classify(self, crops: np.ndarray) -> np.ndarray:
        row = np.zeros(CLASSES_OUT, np.float32)
        two, three = TILE_NAMES.index("2f"), TILE_NAMES.index("3f")
        row[2 * two], row[2 * three], row[2 * three + 1] = 0.40, 0.32, 0.28
        return np.tile(row, (len(crops), 1))


def _best(row: np.ndarray) -> int:
    return int(best_outputs(row[None])[0])


def test_the_kind_named_is_the_likeliest_over_both_ways_up() -> None:
    """A blurred face whose one kind's probability splits between its two ways up is that kind,
    not the kind that wins a single output; its confidence is the kind's, as it always was."""
    row = SplitClassifier().classify(np.zeros((1, 48, 36, 3), np.uint8))[0]
    assert decode(_best(row), (0, 0, 36, 48)) == ("3f", 0)
    row[2 * TILE_NAMES.index("3f") + 1] = 0.33  # upside down now the likelier way up
    assert decode(_best(row), (0, 0, 48, 36)) == ("3f", 270)
    back = np.zeros(CLASSES_OUT, np.float32)
    back[[0, 1, BACK_INDEX]] = 0.3, 0.3, 0.4  # 1m 0.6 over both ways up beats back
    assert decode(_best(back), (0, 0, 36, 48)) == ("1m", 0)
    back[BACK_INDEX] = 0.7
    assert decode(_best(back), (0, 0, 36, 48))[0] == "back"
    canvas = np.full((CANVAS, CANVAS, 3), 200, np.uint8)
    boxes = np.array([[500, 100, 536, 148]], np.float32)  # a river tile of the top seat
    detector = Detector(  # no second look: it would even the two ways up out
        boxes=TruthBoxes(boxes),
        classifier=SplitClassifier(),  # type: ignore[arg-type]
        second_look_below=0.0,
        use_expert=False,
        reread_unsure=False,
    )
    (found,) = detector.detect_table(canvas)
    assert str(found.face) == "3f" and found.confidence == pytest.approx(0.9 * 0.6, abs=1e-3)
