"""Real photo data: our labels for the untagged camerash crops, kept apart from the held-out
photos, and the evaluation that lays the held-out photos on rendered tables."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.art.faces import class_names
from models.drawn.dataset import UNTAGGED_LABELS, camerash_crops, camerash_photos
from models.evaluation.evaluate import rendered_scenes
from models.evaluation.evaluate_real import real_table_faces, real_table_summary
from vision.detector import Detector

SHARED = Path(__file__).resolve().parents[3] / "shared" / "datasets"
PHOTOS = SHARED / "camerash-tiles"
needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason="../shared/datasets absent")


def _labels() -> list[dict[str, str]]:
    with UNTAGGED_LABELS.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_every_untagged_label_names_a_face_once() -> None:
    rows = _labels()
    names = [row["image-name"] for row in rows]
    assert len(names) == len(set(names)) == 1050
    counts = Counter(row["tile"] for row in rows)
    designs = [n for n in class_names() if n != "back"]
    assert set(counts) == set(designs)  # every design, nothing else
    assert min(counts.values()) >= 5


def _thumbs(images: list[np.ndarray]) -> np.ndarray:
    out = []
    for image in images:
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(grey, (12, 16), interpolation=cv2.INTER_AREA).astype(np.float32)
        small = small.ravel() - small.mean()
        out.append(small / (np.linalg.norm(small) + 1e-6))
    return np.stack(out)


@needs_photos
def test_no_untagged_photo_copies_a_held_out_one() -> None:
    untagged = camerash_crops(PHOTOS, "untagged")
    held_out = camerash_crops(PHOTOS, "eval")
    assert len(untagged) == 1050
    similarity = _thumbs([i for _, i in untagged]) @ _thumbs([i for _, i in held_out]).T
    assert similarity.max() < 0.98  # the same photo scores > 0.99
    training = camerash_photos(SHARED)
    assert len(training) == len(untagged) + len(camerash_crops(PHOTOS, "train"))


@needs_photos
def test_held_out_photos_laid_on_a_table_are_read() -> None:
    faces, classes = real_table_faces(SHARED)
    assert "1m" not in classes and len(classes) == 41  # no held-out 1m photo
    scenes = rendered_scenes(Detector(), 1, 7000, None, faces=faces)
    summary = real_table_summary(scenes, classes)
    assert summary["face_tiles"] > 40
    assert summary["accuracy_kinds"] > 0.85
    assert 0 <= summary["accuracy_flowers"] <= summary["flowers_read_as_flowers"] <= 1
    assert set(summary["recall"]) <= set(classes)
