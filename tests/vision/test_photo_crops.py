"""Classifier crops for the photo reader: mirrored photos are turned back, pale backs dropped."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from models.photo.crops import real_crops
from vision.crops import CLASSES_OUT, TILE_NAMES

KIND = TILE_NAMES.index("3m")


def _read(crops: np.ndarray) -> np.ndarray:
    """A stand-in classifier that knows one asymmetric face: dark on its left half."""
    probs = np.full((len(crops), CLASSES_OUT), 0.1 / (CLASSES_OUT - 1))
    left = crops[:, :, :18].mean(axis=(1, 2, 3))
    right = crops[:, :, 18:].mean(axis=(1, 2, 3))
    probs[:, 2 * KIND] = np.where(left < right, 0.9, 0.1 / (CLASSES_OUT - 1))
    return probs / probs.sum(axis=1, keepdims=True)


def _photo(folder: Path, name: str, mirrored: bool) -> None:
    image = np.full((100, 200, 3), 200, np.uint8)
    tiles = []
    for i in range(3):
        x = 20 + 60 * i
        face = np.full((48, 36, 3), 230, np.uint8)
        face[:, :18] = 30  # the face's left half is dark
        image[20:68, x : x + 36] = face[:, ::-1] if mirrored else face
        tiles.append({"tile": "3m", "box": [x, 20, x + 36, 68]})
    cv2.imwrite(str(folder / "images" / f"{name}.png"), image)
    record = {"image": f"{name}.png", "width": 200, "height": 100, "tiles": tiles}
    (folder / "labels" / f"{name}.json").write_text(json.dumps(record))


def test_a_mirrored_photo_is_turned_back_before_its_crops_are_kept(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    _photo(folder, "as_taken", mirrored=False)
    _photo(folder, "flipped", mirrored=True)
    splits = real_crops(folder, _read, val_share=0.0)
    x, y = splits["train"]
    assert len(x) == 6 and len(splits["val"][1]) == 0
    assert set(y.tolist()) == {2 * KIND}  # upright outputs of the true kind
    left, right = x[:, 5:43, 3:15].mean(axis=(1, 2, 3)), x[:, 5:43, 21:33].mean(axis=(1, 2, 3))
    assert (left < right).all()  # every crop as the face really is, none mirrored


def test_synthesized_crops_are_the_faces_upright_or_turned_with_their_labels() -> None:
    from models.art.faces import load_faces
    from models.photo.face_crops import crop_set, synthesize

    faces = load_faces()
    crop = synthesize(faces["C"], np.random.default_rng(0))
    assert crop.shape == (48, 36, 3) and crop.dtype == np.uint8
    red = (crop[..., 2].astype(int) - crop[..., 1]) > 60  # 中 is red: it shows in the crop
    assert red[10:40, 8:28].mean() > 0.05
    library = {"ours": {"C": [faces["C"]], "5p": [faces["5p"]]}, "x-eval": {"C": [faces["C"]]}}
    x, y = crop_set(library, per_face=3, seed=1)
    assert x.shape == (6, 48, 36, 3)  # held-out ("-eval") faces are never used
    assert {int(v) // 2 for v in y} == {TILE_NAMES.index("C"), TILE_NAMES.index("5p")}
