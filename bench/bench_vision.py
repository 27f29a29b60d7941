"""Frames per second of the full vision path on a 1920x1080 frame, on this CPU.

    .venv/bin/python bench/bench_vision.py --frames 30

Renders one busy table (four rivers, walls, melds) seen by a camera, then times
``TableReader.process`` (rectify with the calibration, detect boxes, classify crops, stabilise)
over repeated frames, and the same frame through the PyPI ``mahjong-detector`` when installed.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    from models.camera import render_frame
    from models.dataset import random_spec
    from models.evaluate import baseline
    from models.faces import load_faces
    from vision.calibration import Calibration
    from vision.detector import Detector
    from vision.reader import TableReader
    from vision.stabiliser import Stabiliser

    rng = np.random.default_rng(args.seed)
    faces = {name: [image] for name, image in load_faces().items()}
    spec = random_spec(rng)
    frame = render_frame(spec, faces, rng, arms=0)
    calibration = Calibration(tuple((float(x), float(y)) for x, y in frame.table_corners))
    reader = TableReader(Detector(), calibration, Stabiliser())
    reader.process(frame.image)  # warm-up: session start, allocations
    times = []
    for _ in range(args.frames):
        start = time.perf_counter()
        reader.process(frame.image)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    tiles = sum(1 for label in frame.labels if label.spot.name != "back")
    print(
        f"ours: {len(frame.labels)} tiles in view ({tiles} faces), median {median * 1000:.1f} ms"
        f" per 1920x1080 frame = {1 / median:.1f} fps, p90 "
        f"{sorted(times)[int(0.9 * len(times))] * 1000:.1f} ms"
    )
    other = baseline()
    if other is None:
        print("mahjong-detector: not installed")
        return
    other(frame.image)
    their = []
    for _ in range(max(args.frames // 3, 3)):
        start = time.perf_counter()
        other(frame.image)
        their.append(time.perf_counter() - start)
    median = statistics.median(their)
    print(f"mahjong-detector 0.0.6: median {median * 1000:.1f} ms per frame = {1 / median:.1f} fps")


if __name__ == "__main__":
    main()
