"""Picture-style flower faces: every flower, several different faces, numeral and character ink."""

from __future__ import annotations

import numpy as np

from models.art.faces import FACE_H, FACE_W
from models.art.flower_art import flower_faces


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


def test_font_lettered_flowers_need_the_fonts_and_ink_their_top_corner(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """models/art/font_flowers.py (a training-data tool): nothing without CJK fonts installed; with
    them, each flower's faces carry the lettering in a top corner."""
    import importlib.util

    from models.art import font_flowers

    assert font_flowers.installed(font_flowers.CJK_FONTS, root=tmp_path) == []
    faces = font_flowers.font_flower_faces(np.random.default_rng(0), variants=2)
    if not font_flowers.installed(font_flowers.CJK_FONTS) or not importlib.util.find_spec("PIL"):
        assert faces == {}
        return
    assert sorted(faces) == [f"{rank}f" for rank in range(1, 9)]
    for images in faces.values():
        for image in images:
            assert image.shape == (FACE_H, FACE_W, 3)
            top = image[:50].astype(int).sum(axis=2) < 450  # the character, 26-42 px
            assert top.sum() > 40


def test_numbered_flower_faces_carry_numeral_and_crop_both_ways_up() -> None:
    """models/art/numbered_flowers.py (training data): each flower's faces differ, carry ink in the
    top band (numeral and/or character), and cut to 48x36 crops labelled upright and upside
    down for their own flower only; the same seed gives the same faces."""
    from models.art.numbered_flowers import numbered_flower_crops, numbered_flower_faces
    from vision.crops import TILE_NAMES

    faces = numbered_flower_faces(np.random.default_rng(3), variants=4)
    again = numbered_flower_faces(np.random.default_rng(3), variants=4)
    assert sorted(faces) == [f"{rank}f" for rank in range(1, 9)]
    for name, images in faces.items():
        assert len(images) == 4
        assert not np.array_equal(images[0], images[1])
        assert all(np.array_equal(a, b) for a, b in zip(images, again[name], strict=True))
        for image in images:
            assert image.shape == (FACE_H, FACE_W, 3)
            top = image[4:56].astype(int).sum(axis=2) < 450
            assert top.sum() > 30
    crops, labels = numbered_flower_crops(variants=2, copies=4, seed=1)
    assert crops.shape == (8 * 2 * 4, 48, 36, 3)
    first = 2 * TILE_NAMES.index("1f")
    assert set(labels.tolist()) == set(range(first, first + 16))
    assert np.array_equal(labels[:8] // 2, np.full(8, first // 2))
