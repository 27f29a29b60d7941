"""Averaging classifier weights (models/training/soup.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.detector_backends import WEIGHTS

pytestmark = pytest.mark.training
onnx = pytest.importorskip("onnx", reason="training extra (pip install -e '.[train]')")

from models.training.soup import SoupError, average_classifiers  # noqa: E402


def _float_weights(path: Path) -> dict[str, np.ndarray]:
    from onnx import numpy_helper

    model = onnx.load(str(path))
    arrays = {w.name: numpy_helper.to_array(w) for w in model.graph.initializer}
    return {k: v for k, v in arrays.items() if np.issubdtype(v.dtype, np.floating)}


def test_the_soup_is_the_mean_of_its_networks(tmp_path: Path) -> None:
    from onnx import numpy_helper

    source = WEIGHTS / "classifier.onnx"
    shifted = onnx.load(str(source))
    for tensor in shifted.graph.initializer:
        array = numpy_helper.to_array(tensor)
        if np.issubdtype(array.dtype, np.floating):
            tensor.CopyFrom(numpy_helper.from_array(array + np.float32(0.5), tensor.name))
    onnx.save(shifted, str(tmp_path / "shifted.onnx"))
    soup = average_classifiers([source, tmp_path / "shifted.onnx"], tmp_path / "soup.onnx")
    before, after = _float_weights(source), _float_weights(soup)
    assert before.keys() == after.keys() and before
    for name, array in before.items():
        np.testing.assert_allclose(after[name], array + 0.25, atol=1e-6)


def test_different_networks_or_one_alone_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SoupError, match="not the same network"):
        average_classifiers(
            [WEIGHTS / "classifier.onnx", WEIGHTS / "closeup.onnx"], tmp_path / "soup.onnx"
        )
    with pytest.raises(SoupError, match="two networks"):
        average_classifiers([WEIGHTS / "classifier.onnx"], tmp_path / "soup.onnx")
    assert not (tmp_path / "soup.onnx").exists()
