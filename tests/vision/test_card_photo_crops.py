"""Training crops from labelled card photos (models/cards/photo_crops.py) on a rendered scene
whose labels are written as a real photo set's are (axis-aligned index boxes, no way up): each
crop on a labelled index gets its face, and its way up from the card's two corners, as the
renderer's truth says; crops far from every index are ``none``; nothing is cut from the
evaluation's set."""

from __future__ import annotations

import numpy as np
import pytest

from models.cards.crops import _match
from models.cards.photo_crops import WEIGHTS, build, photo_crops
from models.cards.scene import HELD_OUT_FROM, render
from vision.card_candidates import NONE, find, output_of
from vision.detector_backends import onnx_session

SEED = HELD_OUT_FROM + 900_005


def test_crops_from_index_boxes_get_the_face_and_the_way_up_the_truth_gives() -> None:
    scene = render(SEED)
    shown = [c for c in scene.cards if c.code and len(c.indices) == 2]
    assert len(shown) >= 3
    record = {
        "cards": [
            {
                "code": c.code,
                "box": None,
                "indices": [[*q.min(0).tolist(), *q.max(0).tolist()] for q in c.indices],
            }
            for c in shown
        ]
    }
    images, labels = photo_crops(
        scene.image, record, onnx_session(WEIGHTS), np.random.default_rng(0), jitters=0
    )
    assert len(images) == len(labels) and images.shape[1:] == (40, 24, 3)
    index = labels[labels != NONE]
    assert len(index) >= 2 * len(shown) * 0.7  # most labelled indices found
    # the same candidates labelled from the renderer's own quads (models.cards.crops)
    quads = [(c.code, q) for c in shown for q in c.indices]
    truth = []
    for candidate in find(scene.image, scene.card_height):
        hit = _match(candidate, [q for _, q in quads])
        if hit is not None:
            truth.append(output_of(str(quads[hit[0]][0]), hit[1]))
    agree = sum(min(list(index).count(v), truth.count(v)) for v in set(truth))
    assert agree >= 0.9 * len(index), (sorted(index), sorted(truth))
    assert (labels == NONE).sum() > 0


def test_the_evaluation_set_is_never_cut_for_training(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="evaluation"):
        build("card-detection-rf", tmp_path / "x.npz")
