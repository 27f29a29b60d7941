"""The GPU run's parts that run anywhere: packed faces, rendering against a deadline, the
time-based learning-rate cycle and a classifier trained for a time budget."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from models.training.classifier import one_cycle
from models.training.train_gpu import load_faces, pack_faces, render_until
from vision.crops import CLASSES_OUT, CROP_H, CROP_W


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("faces") / "faces.npz"
    pack_faces(None, target)
    return target


def test_packed_faces_come_back_pixel_for_pixel(packed: Path) -> None:
    from models.drawn.dataset import face_sets

    original = face_sets(None)
    loaded = load_faces(packed)
    assert loaded.keys() == original.keys()
    for name, images in original.items():
        assert len(loaded[name]) == len(images)
        for mine, theirs in zip(loaded[name], images, strict=True):
            assert np.array_equal(mine, theirs)  # PNG is lossless


def test_a_worker_past_its_deadline_renders_nothing(packed: Path, tmp_path: Path) -> None:
    assert render_until(("tables", tmp_path, 7, 1, packed, time.time() - 1)) == []
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("kind", ["tables", "boxes"])
def test_a_worker_renders_whole_chunks_until_its_deadline(
    kind: str, packed: Path, tmp_path: Path
) -> None:
    made = render_until((kind, tmp_path, 7, 1, packed, time.time() + 2))
    assert made == [f"{kind}-{7 + i}" for i in range(len(made))] and made  # a seed per chunk
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(made)  # nothing half-written
    for name in made:
        data = np.load(tmp_path / name / "crops.npz")
        assert data["x"].shape[1:] == (CROP_H, CROP_W, 3)
        assert len(data["x"]) == len(data["y"]) > 20
        assert ((data["y"] >= 0) & (data["y"] < CLASSES_OUT)).all()
        if kind == "tables":  # YOLO images and labels for the detector as well
            assert len(list((tmp_path / name / "images").glob("*.jpg"))) == 1
            assert len(list((tmp_path / name / "labels").glob("*.txt"))) == 1
    if len(made) > 1:  # different seeds, different tables
        first, second = (np.load(tmp_path / n / "crops.npz")["y"] for n in made[:2])
        assert len(first) != len(second) or not np.array_equal(first, second)


def test_the_learning_rate_cycle_warms_up_then_falls_to_nothing() -> None:
    assert one_cycle(0.0) == pytest.approx(0.04)
    assert one_cycle(0.3) == pytest.approx(1.0)
    assert one_cycle(1.0) == pytest.approx(0.0)
    assert one_cycle(2.0) == pytest.approx(0.0) and one_cycle(-1.0) == pytest.approx(0.04)
    rising = [one_cycle(f / 100) for f in range(31)]
    falling = [one_cycle(f / 100) for f in range(30, 101)]
    assert rising == sorted(rising) and falling == sorted(falling, reverse=True)


@pytest.mark.training
def test_a_classifier_trained_for_a_time_budget_stops_and_exports(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="training extra (pip install -e '.[train]')")
    from models.training.classifier import train_classifier

    rng = np.random.default_rng(0)
    for name, count in (("train", 512), ("val", 64)):
        (tmp_path / "data" / name).mkdir(parents=True)
        x = rng.integers(0, 255, (count, CROP_H, CROP_W, 3), dtype=np.uint8)
        y = rng.integers(0, CLASSES_OUT, count)
        np.savez(tmp_path / "data" / name / "crops.npz", x=x, y=y)
    target = tmp_path / "out" / "classifier.onnx"
    accuracy = train_classifier(tmp_path, 0, None, target, seconds=2.0, width=8)
    assert 0.0 <= accuracy <= 1.0
    assert target.stat().st_size > 10_000 and (tmp_path / "classifier.pt").exists()


PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "camerash-tiles"


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="../shared/datasets absent")
def test_photos_pack_as_jpeg_and_come_back_close() -> None:
    import cv2

    from models.drawn.dataset import camerash_crops
    from models.training.train_gpu import encode_face

    for _, photo in camerash_crops(PHOTOS, "train")[:5]:
        face = cv2.resize(photo, (120, 160), interpolation=cv2.INTER_AREA)
        data = encode_face(face)
        assert bytes(data[:2]) == b"\xff\xd8"  # JPEG: half the PNG or less
        back = cv2.imdecode(data, cv2.IMREAD_COLOR)
        assert np.abs(back.astype(int) - face.astype(int)).mean() < 3
