"""Hard crops: the ones a classifier reads wrong or unsure, kept with their labels."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from models.training.hard_crops import hard_mask, write_hard_crops
from vision.crops import BACK_INDEX, CLASSES_OUT, CROP_H, CROP_W
from vision.detector import OnnxClassifier
from vision.detector_backends import WEIGHTS


def test_wrong_and_unsure_readings_are_hard_and_orientations_count_together() -> None:
    probs = np.zeros((4, CLASSES_OUT), np.float32)
    probs[0, 10] = 0.9  # design 5 upright, labelled design 5 upside down: the kind is right
    probs[1, 12] = 0.9  # design 6, labelled design 5: wrong
    probs[2, 10], probs[2, 11] = 0.35, 0.3  # design 5 at 0.65 summed: sure enough
    probs[3, BACK_INDEX], probs[3, 10] = 0.5, 0.4  # a back read unsure
    labels = np.array([11, 10, 10, BACK_INDEX])
    assert hard_mask(probs, labels).tolist() == [False, True, False, True]


def test_written_set_holds_exactly_the_hard_crops(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    x = rng.integers(0, 256, (40, CROP_H, CROP_W, 3), dtype=np.uint8)
    y = rng.integers(0, CLASSES_OUT, 40)
    (tmp_path / "set").mkdir()
    np.savez(tmp_path / "set" / "crops.npz", x=x, y=y)
    count = write_hard_crops(tmp_path / "hard", [tmp_path / "set"])
    expected = hard_mask(OnnxClassifier(WEIGHTS / "classifier.onnx").classify(x), y)
    written = np.load(tmp_path / "hard" / "crops.npz")
    assert count == int(expected.sum()) == len(written["y"]) > 0
    assert (written["y"] == y[expected]).all() and (written["x"] == x[expected]).all()
