"""The committed ONNX weights load (checksums match) and read a rendered river accurately."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from models.drawn.camera import render_frame
from models.evaluation.metrics import iou
from vision.calibration import Calibration
from vision.detector import Detector
from vision.detector_backends import WEIGHTS
from vision.layout import TableSpec

# Measured on exactly these rendered rivers when the weights were committed: 131/144 = 0.910 read
# right, orientation right for 130/131 of those (0.992). The thresholds leave a margin below that.
MIN_RIVER_ACCURACY = 0.82
MIN_ORIENTATION_ACCURACY = 0.92


@pytest.mark.parametrize(
    "name",
    [
        "detector.onnx",
        "classifier.onnx",
        "classifier-int8.onnx",
        "closeup.onnx",
        "expert.onnx",
        "expert-int8.onnx",
        "photo-detector.onnx",
        "photo-classifier.onnx",
    ],
)
def test_weights_match_their_checksums(name: str) -> None:
    path = WEIGHTS / name
    recorded = (WEIGHTS / f"{name}.sha256").read_text().split()[0]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == recorded
    assert path.stat().st_size < 6_000_000


def test_committed_model_reads_rendered_rivers(faces) -> None:
    from engine.tiles import ALL_TILES

    rng = np.random.default_rng(11)
    names = [str(t) for t in ALL_TILES]
    detector = Detector()
    right = oriented = total = 0
    for _ in range(2):
        spec = TableSpec(concealed=[0] * 4)
        spec.rivers = [[names[i] for i in rng.integers(0, len(names), 18)] for _ in range(4)]
        frame = render_frame(spec, faces, rng, arms=0)
        corners = tuple((float(x), float(y)) for x, y in frame.table_corners)
        found = detector.detect(frame.image, Calibration(corners))
        boxes = np.array([d.box for d in found]).reshape(-1, 4)
        for label in frame.labels:
            if label.spot.zone != "river":
                continue
            total += 1
            overlaps = iou(np.array([label.box]), boxes)[0]
            if overlaps.size and overlaps.max() >= 0.5:
                best = found[int(overlaps.argmax())]
                right += str(best.face) == label.spot.name
                oriented += str(best.face) == label.spot.name and (
                    best.orientation == label.spot.orientation
                )
    assert total == 2 * 4 * 18
    assert right / total >= MIN_RIVER_ACCURACY, f"read {right}/{total} river tiles"
    assert oriented / max(right, 1) >= MIN_ORIENTATION_ACCURACY


def test_int8_classifier_reads_like_the_float_one(faces) -> None:
    """The runtime's int8 classifier (models/training/quantize.py) gives the float network's
    outputs on
    crops of a rendered table, sharp and softened. Quantized without ``reduce_range`` it picked
    the same outputs on sharp crops but, on CPUs without VNNI (AVX2 only: int16 saturation),
    its probabilities moved by up to 0.31 and it missed 258 instead of 63 held-out tiles."""
    import cv2

    from vision.crops import crop_tile
    from vision.detector import OnnxClassifier

    rng = np.random.default_rng(5)
    spec = TableSpec(concealed=[0] * 4)
    names = [n for n in faces if n != "back"]
    spec.rivers = [[names[i] for i in rng.integers(0, len(names), 18)] for _ in range(4)]
    frame = render_frame(spec, faces, rng, arms=0)
    crops = np.stack(
        [crop_tile(frame.image, label.box) for label in frame.labels if label.spot.zone == "river"]
    )
    assert len(crops) == 72
    soft = [
        cv2.resize(cv2.resize(c, (24, 32), interpolation=cv2.INTER_AREA), (36, 48)) for c in crops
    ]
    for batch in (crops, np.stack(soft)):
        exact = OnnxClassifier(WEIGHTS / "classifier.onnx").classify(batch)
        quick = OnnxClassifier().classify(batch)
        agree = float(np.mean(exact.argmax(axis=1) == quick.argmax(axis=1)))
        assert agree >= 0.95, f"int8 and float agree on {agree:.3f} of crops"
        assert np.abs(exact - quick).max() < 0.1, np.abs(exact - quick).max()


def test_committed_detector_ends_at_raw_logits_and_scores() -> None:
    """models/training/detector_head.py cut the export's decoding off; the runtime decodes (see
    test_detector_geometry) and OnnxBoxes still reads plain exports with one output."""
    from vision.detector_backends import OnnxBoxes

    outputs = OnnxBoxes().session.get_outputs()
    assert [(o.name, o.shape) for o in outputs] == [
        ("box_logits", [1, 64, 8400]),
        ("scores", [1, 2, 8400]),
    ]


class PlainExport:
    """The committed detector as a plain ultralytics export would answer: one output of
    N x (centre x, centre y, width, height, one score per class), decoded for every anchor."""

    def __init__(self, cut) -> None:  # type: ignore[no-untyped-def]
        from vision.detector_backends import anchor_grid, decode_boxes

        self.cut = cut
        self.anchors, self.strides = anchor_grid(640)
        self.decode = decode_boxes

    def run(self, names, feed):  # type: ignore[no-untyped-def]
        logits, scores = self.cut.run(names, feed)
        boxes = self.decode(logits[0], self.anchors, self.strides)
        centre_size = np.column_stack(
            [(boxes[:, :2] + boxes[:, 2:]) / 2, boxes[:, 2:] - boxes[:, :2]]
        )
        return [np.concatenate([centre_size.T, scores[0]])[None]]


def test_a_plain_one_output_export_reads_the_same_boxes(faces) -> None:
    from vision.detector_backends import OnnxBoxes

    frame = render_frame(TableSpec(), faces, np.random.default_rng(8))
    corners = tuple((float(x), float(y)) for x, y in frame.table_corners)
    canvas = Calibration(corners).rectify(frame.image, 1024)
    cut = OnnxBoxes()
    plain = OnnxBoxes()
    plain.session = PlainExport(cut.session)
    boxes, scores, classes = cut.locate(canvas)
    plain_boxes, plain_scores, plain_classes = plain.locate(canvas)
    assert len(boxes) > 50
    assert np.allclose(plain_boxes, boxes, atol=1e-2)
    assert np.allclose(plain_scores, scores) and (plain_classes == classes).all()


def test_a_crop_turned_half_round_reads_the_same_once_its_outputs_are_swapped(faces) -> None:
    """The second look (Detector.read_crops) averages a crop's outputs with those of the crop
    turned 180 degrees; ``turned_half`` must map the latter back: same design, same way up."""
    from vision.crops import crop_tile, turned_half
    from vision.detector import OnnxClassifier

    rng = np.random.default_rng(6)
    spec = TableSpec(concealed=[0] * 4)
    names = [n for n in faces if n != "back"]
    spec.rivers = [[names[i] for i in rng.integers(0, len(names), 12)] for _ in range(4)]
    frame = render_frame(spec, faces, rng, arms=0)
    labels = [label for label in frame.labels if label.spot.zone == "river"]
    crops = np.stack([crop_tile(frame.image, label.box) for label in labels])
    classifier = OnnxClassifier()
    straight = classifier.classify(crops).argmax(axis=1)
    turned = turned_half(classifier.classify(np.ascontiguousarray(crops[:, ::-1, ::-1])))
    assert float(np.mean(turned.argmax(axis=1) == straight)) >= 0.9
    plain = Detector(second_look_below=0.0, use_expert=False).read_crops(crops)
    second = Detector(second_look_below=1.01, use_expert=False).read_crops(crops)
    assert np.allclose(second, (plain + turned) / 2, atol=1e-5)
