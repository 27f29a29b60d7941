"""The committed detector ONNX rebuilds into a trainable checkpoint that computes the same boxes."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from models.training.onnx_checkpoint import rebuild
from vision.detector_backends import WEIGHTS, anchor_grid, decode_boxes

pytestmark = pytest.mark.training
pytest.importorskip("ultralytics", reason="training extra (pip install -e '.[train]')")


def test_rebuilt_checkpoint_reproduces_the_export(tmp_path: Path) -> None:
    import onnxruntime as ort
    import torch
    from ultralytics import YOLO

    onnx_path = WEIGHTS / "detector.onnx"
    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    size = int(session.get_inputs()[0].shape[-1])
    rng = np.random.default_rng(0)
    images = []
    for i in range(2):  # statistics are measured on images: use two plain synthetic ones
        image = (rng.random((size, size, 3)) * 255).astype(np.uint8)
        path = tmp_path / f"{i}.jpg"
        cv2.imwrite(str(path), image)
        images.append(path)
    loaded = rebuild(onnx_path, tmp_path / "init.pt", images=images, size=size)
    assert loaded > 50
    net = YOLO(str(tmp_path / "init.pt")).model.float().eval()
    blob = rng.random((1, 3, size, size), dtype=np.float32)
    logits, scores = session.run(None, {session.get_inputs()[0].name: blob})  # the cut head
    anchors, strides = anchor_grid(size)
    x1, y1, x2, y2 = decode_boxes(logits[0], anchors, strides).T
    want = np.stack([(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1])
    with torch.no_grad():
        got = net(torch.from_numpy(blob))[0].numpy()[0]  # 4 + classes x anchors, centre and size
    assert got.shape == (4 + len(scores[0]), len(anchors))
    # class scores agree to float noise; boxes to a fraction of a pixel
    assert np.abs(got[4:] - scores[0]).max() < 0.01
    assert np.abs(got[:4] - want).mean() < 0.5
