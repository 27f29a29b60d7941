"""The second-opinion classifier (models/training/expert.py): read only on unsure crops, loaded
by default,
and its int8 copy reads like its float source (checksums: test_model.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from models.drawn.camera import render_frame
from vision.crops import TILE_NAMES, crop_tile, kind_probabilities
from vision.detector import Detector, OnnxClassifier
from vision.detector_backends import WEIGHTS
from vision.layout import TableSpec

RIVERS = 4 * 18


@pytest.fixture(scope="module")
def rivers(faces) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    """Crops of four rendered rivers, sharp, then the same smeared along a line (as in a frame
    taken while the camera shook), and each crop's true kind."""
    rng = np.random.default_rng(21)
    spec = TableSpec(concealed=[0] * 4)
    names = [n for n in faces if n != "back"]
    spec.rivers = [[names[i] for i in rng.integers(0, len(names), 18)] for _ in range(4)]
    frame = render_frame(spec, faces, rng, arms=0)
    labels = [label for label in frame.labels if label.spot.zone == "river"]
    assert len(labels) == RIVERS
    crops = [crop_tile(frame.image, label.box) for label in labels]
    kernel = np.zeros((9, 9), np.float32)
    kernel[4, :] = 1 / 9
    smeared = [cv2.filter2D(c, -1, kernel, borderType=cv2.BORDER_REPLICATE) for c in crops]
    kinds = np.array([TILE_NAMES.index(label.spot.name) for label in labels] * 2)
    return np.stack(crops + smeared), kinds


def test_the_expert_is_read_only_on_crops_the_classifier_is_unsure_of(rivers) -> None:
    crops, _ = rivers
    expert = OnnxClassifier(WEIGHTS / "expert-int8.onnx")
    alone = Detector(use_expert=False).read_crops(crops)
    mixed = Detector(expert=expert, expert_below=0.8, expert_weight=0.5).read_crops(crops)
    unsure = kind_probabilities(alone).max(axis=1) < 0.8
    assert 0 < unsure.sum() < len(crops)  # the smeared crops give it something to do
    assert np.array_equal(mixed[~unsure], alone[~unsure])
    second = expert.classify(np.ascontiguousarray(crops[unsure]))
    assert np.allclose(mixed[unsure], (alone[unsure] + second) / 2, atol=1e-6)


def test_the_default_detector_asks_the_committed_expert() -> None:
    assert Detector().expert is not None
    assert Detector(use_expert=False).expert is None


def test_the_int8_expert_reads_like_its_float_source(rivers) -> None:
    crops, _ = rivers
    exact = OnnxClassifier(WEIGHTS / "expert.onnx").classify(crops)
    quick = OnnxClassifier(WEIGHTS / "expert-int8.onnx").classify(crops)
    agree = float(np.mean(exact.argmax(axis=1) == quick.argmax(axis=1)))
    assert agree >= 0.95, f"int8 and float agree on {agree:.3f} of crops"
    assert np.abs(exact - quick).max() < 0.15, np.abs(exact - quick).max()


def test_the_expert_alone_reads_rendered_river_tiles(rivers) -> None:
    crops, kinds = rivers
    read = kind_probabilities(OnnxClassifier(WEIGHTS / "expert-int8.onnx").classify(crops))
    right = read[:, :-1].argmax(axis=1) == kinds
    assert right[:RIVERS].mean() >= 0.95, f"sharp: {right[:RIVERS].mean():.3f}"
    assert right[RIVERS:].mean() >= 0.8, f"smeared: {right[RIVERS:].mean():.3f}"


@pytest.mark.training
def test_an_expert_trained_for_a_time_budget_exports_and_goes_on(tmp_path) -> None:  # type: ignore[no-untyped-def]
    torch = pytest.importorskip("torch", reason="training extra (pip install -e '.[train]')")
    from models.training.expert import build_expert, train_expert
    from vision.crops import CLASSES_OUT, CROP_H, CROP_W

    rng = np.random.default_rng(0)
    for name, count in (("train", 384), ("val", 64)):
        (tmp_path / "data" / name).mkdir(parents=True)
        x = rng.integers(0, 255, (count, CROP_H, CROP_W, 3), dtype=np.uint8)
        np.savez(tmp_path / "data" / name / "crops.npz", x=x, y=rng.integers(0, CLASSES_OUT, count))
    target = tmp_path / "expert.onnx"
    assert 0.0 <= train_expert(tmp_path, ("train",), "val", target, seconds=1.0, width=8) <= 1.0
    state = tmp_path / "expert.pt"
    net = build_expert(8)
    net.load_state_dict(torch.load(state))
    net.eval()
    crops = rng.integers(0, 255, (5, CROP_H, CROP_W, 3), dtype=np.uint8)
    with torch.no_grad():
        expected = torch.softmax(net(torch.from_numpy(crops).permute(0, 3, 1, 2) / 255), 1)
    exported = OnnxClassifier(target).classify(crops)
    assert exported.shape == (5, CLASSES_OUT)
    assert np.allclose(exported, expected.numpy(), atol=1e-4)  # the ONNX is the trained network
    again = tmp_path / "again.onnx"
    train_expert(tmp_path, ("train",), "val", again, seconds=0.5, width=8, init=state)
    assert (tmp_path / "again.pt").exists()


@pytest.mark.training
def test_the_committed_expert_loads_back_from_its_onnx_for_fine_tuning(rivers) -> None:
    torch = pytest.importorskip("torch", reason="training extra (pip install -e '.[train]')")
    from models.training.classifier import _train_mode, network_from_onnx

    crops, _ = rivers
    net = network_from_onnx(WEIGHTS / "expert.onnx").eval()
    exported = OnnxClassifier(WEIGHTS / "expert.onnx").classify(crops)
    batch = torch.from_numpy(crops).permute(0, 3, 1, 2).float() / 255
    with torch.no_grad():
        np.testing.assert_allclose(torch.softmax(net(batch), 1).numpy(), exported, atol=1e-4)
        _train_mode(net, frozen_norm=True)
        net.head[1].p = 0.0  # dropout off, to compare: the folded norms stay as loaded
        np.testing.assert_allclose(torch.softmax(net(batch), 1).numpy(), exported, atol=1e-4)
