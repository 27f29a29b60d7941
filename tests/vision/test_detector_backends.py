"""The detector backends' registry: a name from ``[detector] backend`` builds one, or fails
with the known names."""

from __future__ import annotations

from typing import get_args

import pytest

from tilesight.config import DetectorConfig
from vision.detector_backends import BACKENDS, OnnxBoxes, box_backend


def test_the_registry_lists_what_the_configuration_accepts() -> None:
    accepted = get_args(DetectorConfig.model_fields["backend"].annotation)
    assert set(BACKENDS) == set(accepted)


def test_onnx_without_a_model_loads_the_shipped_weights() -> None:
    assert isinstance(box_backend("onnx", None, 0.4), OnnxBoxes)


def test_ultralytics_needs_a_model_and_an_unknown_name_is_refused() -> None:
    with pytest.raises(ValueError, match=r"needs \[detector\] model"):
        box_backend("ultralytics", None, 0.3)
    with pytest.raises(LookupError, match=r"'yolo'.*known: onnx, ultralytics"):
        box_backend("yolo")
