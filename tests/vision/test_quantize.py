"""The int8 classifier recipe (models/training/quantize.py) reproduces a classifier that reads
like the
float one. Needs the ``onnx`` package (training extra)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.detector import OnnxClassifier
from vision.detector_backends import WEIGHTS

pytestmark = pytest.mark.training
pytest.importorskip("onnx", reason="training extra (pip install -e '.[train]')")


def test_quantized_classifier_agrees_with_the_float_one(tmp_path: Path) -> None:
    from models.training.quantize import calibration_batches, quantize_classifier

    target = quantize_classifier(WEIGHTS / "classifier.onnx", tmp_path / "int8.onnx", tables=2)
    crops = next(calibration_batches(tables=1, seed=5))  # another table than calibration's
    batch = (crops.transpose(0, 2, 3, 1) * 255).round().astype(np.uint8)
    exact = OnnxClassifier(WEIGHTS / "classifier.onnx").classify(batch)
    quick = OnnxClassifier(target).classify(batch)
    assert target.stat().st_size < (WEIGHTS / "classifier.onnx").stat().st_size / 2
    assert float(np.mean(exact.argmax(axis=1) == quick.argmax(axis=1))) >= 0.95
