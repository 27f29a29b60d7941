"""Classifier crops cut at the detector's own boxes carry the rendered tile's label."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from models.training.detector_crops import write_detector_crops
from vision.crops import BACK_INDEX, CLASSES_OUT, CROP_H, CROP_W


def test_detector_crops_are_labelled_from_the_render(tmp_path: Path) -> None:
    count = write_detector_crops(tmp_path, tables=1, seed=3, shared=None)
    data = np.load(tmp_path / "crops.npz")
    assert count == len(data["x"]) == len(data["y"]) > 20  # a table has dozens of tiles
    assert data["x"].shape[1:] == (CROP_H, CROP_W, 3) and data["x"].dtype == np.uint8
    assert ((data["y"] >= 0) & (data["y"] < CLASSES_OUT)).all()
    assert (data["y"] == BACK_INDEX).any() and (data["y"] != BACK_INDEX).any()  # walls and faces
