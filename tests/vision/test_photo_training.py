"""Smoke tests of the photo scene generator (Blender) and the photo detector's training, on a
tiny budget: `make test-training` installs what they need (the training extra in .venv, Blender's
Python module in .venv-render) and runs them; plain `make test` skips them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
RENDER_PYTHON = Path(os.environ.get("TILESIGHT_RENDER_PYTHON", ROOT / ".venv-render/bin/python"))


@pytest.mark.render
def test_a_scene_renders_with_labels_on_the_tiles_it_shows(tmp_path: Path) -> None:
    if not RENDER_PYTHON.is_file():
        pytest.skip(f"no Blender Python at {RENDER_PYTHON} (make test-training)")
    from models.scenes.assets import write_faces

    write_faces(tmp_path / "assets", None)  # our own faces only; no light probes: a grey sky
    out = tmp_path / "out"
    command = [
        str(RENDER_PYTHON),
        "-m",
        "models.scenes.render",
        "--assets",
        str(tmp_path / "assets"),
    ]
    command += ["--out", str(out), "--seeds", "6:7", "--samples", "2", "--percent", "50"]
    subprocess.run(
        command,
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    record = json.loads((out / "labels" / "000006.json").read_text())
    image = cv2.imread(str(out / "images" / record["image"]))
    assert image is not None and image.shape[:2] == (record["height"], record["width"])
    seen = [t for t in record["tiles"] if t["visible"] >= 0.5]
    assert len(seen) >= 3
    for tile in seen:  # a labelled face is tile-coloured, not the table: brighter than the frame
        quad = np.asarray(tile["corners"], np.int32)
        mask = np.zeros(image.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, quad, 1)
        if tile["name"] != "back" and mask.sum() > 30:
            assert image[mask > 0].mean() > image.mean() - 10, tile


@pytest.mark.training
def test_the_photo_detector_trains_from_the_table_one_and_exports(tmp_path: Path) -> None:
    pytest.importorskip("ultralytics", reason="training extra (make test-training)")
    from models.photo.train import export, initial_checkpoint, train, write_data
    from vision.photo_boxes import PhotoBoxes

    photos = tmp_path / "photos"
    (photos / "images").mkdir(parents=True)
    (photos / "labels").mkdir()
    rng = np.random.default_rng(0)
    for i in range(4):  # light tiles on dark felt, their boxes as the labels
        image = np.full((320, 320, 3), (40, 90, 30), np.uint8)
        tiles = []
        for j in range(5):
            x, y = 20 + 60 * j, int(rng.integers(40, 240))
            cv2.rectangle(image, (x, y), (x + 36, y + 48), (225, 235, 240), -1)
            tiles.append({"tile": "5p", "box": [x, y, x + 36, y + 48]})
        cv2.imwrite(str(photos / "images" / f"{i}.jpg"), image)
        label = {"image": f"{i}.jpg", "width": 320, "height": 320, "tiles": tiles}
        (photos / "labels" / f"{i}.json").write_text(json.dumps(label))
    cards = tmp_path / "cards" / "images"
    cards.mkdir(parents=True)
    cv2.imwrite(str(cards / "table.jpg"), np.full((320, 320, 3), (30, 60, 120), np.uint8))
    data = write_data([], tmp_path / "run", real=[photos], negatives=[cards.parent], val_share=0.5)
    images = sorted((data.parent / "train" / "images").glob("photos-*"))
    backgrounds = list(data.parent.glob("*/labels/cards-table.txt"))
    assert len(backgrounds) == 1 and backgrounds[0].read_text() == ""
    init = initial_checkpoint(tmp_path / "run", images)
    best = train(data, tmp_path / "run", 0.002, init, batch=2, size=160, workers=0)
    onnx = export(best, tmp_path / "photo-detector.onnx")
    assert Path(f"{onnx}.sha256").is_file()
    found = PhotoBoxes(onnx, threshold=0.0).find(cv2.imread(str(images[0])))
    assert isinstance(found, list)
    assert sys.modules.get("torch") is not None  # it trained with torch, not a stub


def test_tile_free_photos_become_backgrounds_with_empty_labels(tmp_path: Path) -> None:
    from models.photo.train import write_backgrounds

    folder = tmp_path / "card-tables"
    (folder / "images").mkdir(parents=True)
    for name in ("a.jpg", "b.PNG"):
        cv2.imwrite(str(folder / "images" / name), np.zeros((8, 8, 3), np.uint8))
    (folder / "images" / "notes.txt").write_text("not a photo")
    out = tmp_path / "all"
    assert write_backgrounds(folder, out) == 2
    assert sorted(p.name for p in (out / "images").iterdir()) == [
        "card-tables-a.jpg",
        "card-tables-b.png",
    ]
    labels = sorted((out / "labels").iterdir())
    assert [p.name for p in labels] == ["card-tables-a.txt", "card-tables-b.txt"]
    assert all(p.read_text() == "" for p in labels)
