"""Concealed kongs read on rendered tables: how many of N are reported, and how fast.

    PYTHONPATH=. .venv/bin/python bench/bench_kongs.py --tables 12
    PYTHONPATH=. .venv/bin/python bench/bench_kongs.py --tables 12 --no-probe
    PYTHONPATH=. .venv/bin/python bench/bench_kongs.py --tables 12 --face-down

Each table has a pung and a concealed kong (end tiles face down) in one seat's hand row, three
discards per river, filmed still by an installed 1920x1080 camera for ``--frames`` frames and
read by ``TableReader``. A table counts when exactly its kong is reported, once, and nothing
else is reported as a kong. ``--no-probe`` reads without vision/kong_probe.py (the detector's
own backs only). ``--face-down`` lays each kong all face down (national rules): a table then
counts when exactly one ``face_down_kong`` is reported, for its seat, and no other kong.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

KINDS = ["5p", "E", "9s", "C", "2m", "7p"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--frames", type=int, default=6)
    parser.add_argument("--no-probe", action="store_true")
    parser.add_argument("--face-down", action="store_true")
    args = parser.parse_args()

    from models.art.faces import load_faces
    from models.drawn.camera import render_frame
    from models.evaluation.perception_check import installed_camera
    from vision.calibration import Calibration
    from vision.detector import Detector
    from vision.layout import MeldSpec, TableSpec
    from vision.observed import ConcealedKongSeen, FaceDownKongSeen
    from vision.reader import TableReader
    from vision.stabiliser import Stabiliser

    faces = {name: [image] for name, image in load_faces().items()}
    detector = Detector()
    right, seconds, frames = 0, 0.0, 0
    for seed in range(args.tables):
        rng = np.random.default_rng(seed)
        seat, kind = seed % 4, KINDS[seed % len(KINDS)]
        spec = TableSpec()
        spec.melds[seat] = [
            MeldSpec(["3m", "3m", "3m"], 2),
            MeldSpec(["back"] * 4 if args.face_down else ["back", kind, kind, "back"], -1),
        ]
        spec.rivers = [["1s", "2s", "N"] for _ in range(4)]
        corners = installed_camera(1920, 1080, rng)
        reader: TableReader | None = None
        kongs = []
        for _ in range(args.frames):
            frame = render_frame(
                spec, faces, rng, arms=0, table_seed=seed, corners=corners, distortion=0.0
            )
            if reader is None:
                clicked = tuple((float(x), float(y)) for x, y in frame.table_corners)
                reader = TableReader(
                    detector, Calibration(clicked), Stabiliser(), kong_probe=not args.no_probe
                )
            started = time.perf_counter()
            events = reader.process(frame.image)
            seconds += time.perf_counter() - started
            frames += 1
            kongs += [
                (e.seat, str(e.tile) if isinstance(e, ConcealedKongSeen) else "?")
                for e in events
                if isinstance(e, ConcealedKongSeen | FaceDownKongSeen)
            ]
        right += kongs == [(seat, "?" if args.face_down else kind)]
        laid = "face down" if args.face_down else f"of {kind}"
        print(f"table {seed}: seat {seat} kong {laid}: read {kongs}", flush=True)
    print(
        f"{right}/{args.tables} {'face-down' if args.face_down else 'concealed'} kongs read "
        f"({'without' if args.no_probe else 'with'} the probe); {frames / seconds:.1f} frames/s"
    )


if __name__ == "__main__":
    main()
