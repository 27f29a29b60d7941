"""An 8-bit copy of the tile classifier for the CPU runtime (ONNX Runtime static quantization).

    .venv/bin/python -m models.training.quantize   # models/weights/classifier-int8.onnx + checksum

The classifier runs once per face crop, up to ~80 crops a frame, and costs about as much as the
detector; with int8 weights and activations it runs ~1.8x faster on this CPU and reads the same
(docs/benchmarks.md). The float ``classifier.onnx`` stays the source of truth: training and
fine-tuning load it (``models.training.classifier.network_from_onnx``) and this command is re-run
after.
Activation ranges come from crops of rendered tables cut from the detector's own boxes (seed 99,
never a training or evaluation seed), so the ranges are those the runtime sees.

The detector is not quantized: measured the same way, int8 doubled its misses (its SiLU layers
and box regression lose too much), and it ran no faster.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from vision.detector_backends import WEIGHTS

INT8_NAME = "classifier-int8.onnx"


def calibration_batches(tables: int = 24, seed: int = 99) -> Iterator[np.ndarray]:
    """Per rendered table, the crops the runtime would classify (N x 3 x 48 x 36 float)."""
    from models.art.faces import load_faces
    from models.drawn.camera import TABLE_PX, render_frame
    from models.drawn.dataset import random_spec
    from vision.calibration import Calibration
    from vision.crops import crop_tile
    from vision.detector_backends import OnnxBoxes

    rng = np.random.default_rng(seed)
    faces = {name: [image] for name, image in load_faces().items()}
    boxes_backend = OnnxBoxes()
    for _ in range(tables):
        frame = render_frame(random_spec(rng), faces, rng)
        corners = tuple((float(x), float(y)) for x, y in frame.table_corners)
        canvas = Calibration(corners).rectify(frame.image, TABLE_PX)
        boxes, _, _ = boxes_backend.locate(canvas)
        if len(boxes):
            crops = np.stack([crop_tile(canvas, box) for box in boxes])
            yield crops.transpose(0, 3, 1, 2).astype(np.float32) / 255


def quantize_classifier(
    source: Path = WEIGHTS / "classifier.onnx",
    target: Path = WEIGHTS / INT8_NAME,
    tables: int = 24,
) -> Path:
    """Write the int8 classifier (QDQ, per-channel weights) quantized from ``source``."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Crops(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self.batches = ({"crops": batch} for batch in calibration_batches(tables))

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.batches, None)

    with tempfile.TemporaryDirectory() as scratch:
        prepared = Path(scratch) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared))
        quantize_static(
            str(prepared),
            str(target),
            Crops(),
            quant_format=QuantFormat.QDQ,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            per_channel=True,
            reduce_range=True,  # 7-bit weights: no int16 saturation on AVX2-only CPUs
            calibrate_method=CalibrationMethod.MinMax,
        )
    return target


def main() -> None:
    from models.training.train import write_checksum

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=WEIGHTS / "classifier.onnx")
    parser.add_argument("--target", type=Path, default=WEIGHTS / INT8_NAME)
    parser.add_argument("--tables", type=int, default=24)
    args = parser.parse_args()
    target = quantize_classifier(args.source, args.target, args.tables)
    print(f"wrote {target} ({target.stat().st_size} bytes), sha256 {write_checksum(target)}")


if __name__ == "__main__":
    main()
