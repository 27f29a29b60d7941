"""The committed classifier ONNX loads back into TileNet for fine-tuning, computing the same."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detector import OnnxClassifier
from vision.detector_backends import WEIGHTS

pytestmark = pytest.mark.training
torch = pytest.importorskip("torch", reason="training extra (pip install -e '.[train]')")


def test_network_from_onnx_reads_crops_like_the_export() -> None:
    from models.training.classifier import _train_mode, network_from_onnx

    net = network_from_onnx(WEIGHTS / "classifier.onnx").eval()
    crops = np.random.default_rng(0).integers(0, 256, (6, 48, 36, 3)).astype(np.uint8)
    exported = OnnxClassifier(WEIGHTS / "classifier.onnx").classify(crops)
    batch = torch.from_numpy(crops).permute(0, 3, 1, 2).float() / 255
    with torch.no_grad():
        rebuilt = torch.softmax(net(batch), dim=1).numpy()
        np.testing.assert_allclose(rebuilt, exported, atol=1e-4)
        _train_mode(net, frozen_norm=True)  # fine-tuning keeps the norms' statistics
        net.head[1].p = 0.0  # dropout off, to compare
        frozen = torch.softmax(net(batch), dim=1).numpy()
    np.testing.assert_allclose(frozen, exported, atol=1e-4)
