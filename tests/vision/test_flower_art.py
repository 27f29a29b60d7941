"""Picture-style flower faces: every flower, several different faces, numeral and character ink."""

from __future__ import annotations

import numpy as np

from models.faces import FACE_H, FACE_W
from models.flower_art import flower_faces


def test_each_flower_gets_distinct_picture_faces_with_corner_ink() -> None:
    faces = flower_faces(np.random.default_rng(0), variants=3)
    assert sorted(faces) == [f"{rank}f" for rank in range(1, 9)]
    for images in faces.values():
        assert len(images) == 3
        assert all(image.shape == (FACE_H, FACE_W, 3) for image in images)
        assert not np.array_equal(images[0], images[1])
        for image in images:  # numeral and character: dark ink in both top corners
            top = image[8:48].astype(int).sum(axis=2) < 450
            assert top[:, : FACE_W // 2].sum() > 20
            assert top[:, FACE_W // 2 :].sum() > 20
