"""Tiles missed or misread on rendered tables under several reading settings, over the same
canvases: the second-opinion classifier (models/training/expert.py) on unsure crops or not, and the
tile-sized second reading of unsure faces (vision.square_boxes.reread_unsure_faces) or not.

    PYTHONPATH=. .venv/bin/python bench/bench_reading.py --seeds 9100 9000 5000 --frames 48

Seeds 9000, 9100 and 5000 are tuning seeds (used for neither training nor the report); the
report's held-out seeds are 1000 and 3000. Frames are rendered and rectified as in
``models.evaluation.evaluate.rendered_scenes``; an error is a true tile not read as its kind at
confidence
0.3 or more, split three ways: "unboxed" (no detection over it at any confidence: the
detector's misses), "faint" (boxed, but only under 0.3: the detector's score times the
reader's probability) and "wrong" (read as another kind at 0.3 or more). Settings:
``noreread`` (neither the expert nor the tile-sized second reading), ``none`` (no expert),
``default`` (the Detector's defaults) or ``BELOW:WEIGHT[:POWER]`` (the expert reads crops
whose best kind scores under BELOW; its probabilities count WEIGHT in a weighted mean; a face's
confidence is the box score times the reader's probability to the POWER, 1 by default).
"false" counts detections matching no true tile; "faces" those of them read as a face.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any


def detector_for(setting: str, expert_path: Path, boxes_path: Path) -> Any:
    from vision.detector import Detector, OnnxClassifier
    from vision.detector_backends import OnnxBoxes

    boxes = OnnxBoxes(boxes_path)
    if setting == "noreread":
        return Detector(boxes, use_expert=False, reread_unsure=False)
    if setting == "none":
        return Detector(boxes, use_expert=False)
    if setting == "default":
        return Detector(boxes)
    below, weight, *power = setting.split(":")
    return Detector(
        boxes,
        expert=OnnxClassifier(expert_path),
        expert_below=float(below),
        expert_weight=float(weight),
        reader_power=float(power[0]) if power else 1.0,
    )


def main() -> None:
    import cv2
    import numpy as np

    from models.art.faces import class_names, load_faces
    from models.drawn.camera import TABLE_PX, canvas_labels, render_frame
    from models.drawn.dataset import random_spec
    from models.evaluation.metrics import Sample, reading_errors
    from vision.calibration import Calibration
    from vision.detector import EXPERT_NAME
    from vision.detector_backends import WEIGHTS

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, nargs="+", default=[9100, 9000])
    parser.add_argument("--frames", type=int, default=48)
    parser.add_argument("--expert", type=Path, default=WEIGHTS / EXPERT_NAME)
    parser.add_argument("--detector", type=Path, default=WEIGHTS / "detector.onnx")
    parser.add_argument("--settings", nargs="+", default=["noreread", "none", "default"])
    args = parser.parse_args()
    detectors = {
        setting: detector_for(setting, args.expert, args.detector) for setting in args.settings
    }
    faces = {name: [image] for name, image in load_faces().items()}
    names = class_names()
    for seed in args.seeds:
        rng = np.random.default_rng(seed)
        samples: dict[str, list[Sample]] = {key: [] for key in detectors}
        seconds = dict.fromkeys(detectors, 0.0)
        for _ in range(args.frames):
            frame = render_frame(random_spec(rng), faces, rng)
            side = float(np.linalg.norm(frame.table_corners[1] - frame.table_corners[0]))
            clicked = frame.table_corners + rng.normal(0, 0.003 * side, (4, 2))
            calibration = Calibration(tuple((float(x), float(y)) for x, y in clicked))
            homography = calibration.homography(TABLE_PX)
            canvas = cv2.warpPerspective(frame.image, homography, (TABLE_PX, TABLE_PX))
            labelled = canvas_labels(frame, homography, min_visible=0.5)
            truth = [(label.spot.name, box) for label, box in labelled]
            for key, detector in detectors.items():
                start = time.perf_counter()
                found = detector.detect_table(canvas)
                seconds[key] += time.perf_counter() - start
                predicted = [(str(d.face), d.box, d.confidence) for d in found]
                samples[key].append(Sample(truth, predicted))
        for key, sample in samples.items():
            read = reading_errors(sample, names)
            under = ", ".join(f"{n} {v:.3f}" for n, v in read.under)
            print(
                f"seed {seed} {key:>15}: mAP50 {read.map50:.4f}, errors {read.errors} "
                f"({read.unboxed} unboxed, {read.faint} faint, "
                f"{read.wrong} wrong), "
                f"false {read.false} ({read.false_faces} faces), "
                f"{1000 * seconds[key] / args.frames:.0f} ms a table; "
                f"under 0.98: {under or 'none'}",
                flush=True,
            )


if __name__ == "__main__":
    main()
