"""Frames per second of the full vision path on a 1920x1080 frame, on this CPU.

    .venv/bin/python bench/bench_vision.py --frames 30

Renders one busy table (four rivers, walls, melds) filmed still (each frame with its own light,
noise and JPEG), then times ``TableReader.process`` (rectify with the calibration, detect boxes,
classify crops, stabilise) twice: with every crop classified in every frame (the worst case, as
when everything on the table changes at once) and as a video, where tiles that have not changed
keep their last reading (vision/crop_memory.py). Each mode runs first alone, as deployed, and
then again with every frame also going through the PyPI ``mahjong-detector`` (when installed)
right after ours, so both are timed under the same load (each also slows the other: the two
networks evict each other's weights and buffers from the caches between frames), and last
interleaved with its ONNX Runtime session made not to busy-wait, as ours never does: with its
default session its worker threads spin after each of its frames and take the two cores from
the frame of ours that follows.
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
    parser.add_argument("--second-look-below", type=float, default=None, help="0: off")
    parser.add_argument("--back-confidence", type=float, default=None)
    parser.add_argument("--no-expert", action="store_true", help="no second-opinion classifier")
    args = parser.parse_args()

    from models.art.faces import load_faces
    from models.drawn.camera import render_frame
    from models.drawn.dataset import random_spec
    from models.evaluation.evaluate import baseline
    from vision.calibration import Calibration
    from vision.detector import Detector
    from vision.reader import TableReader
    from vision.stabiliser import Stabiliser

    rng = np.random.default_rng(args.seed)
    faces = {name: [image] for name, image in load_faces().items()}
    spec = random_spec(rng)
    frame = render_frame(spec, faces, rng, arms=0)
    corners, seed = frame.table_corners.astype(np.float32), int(rng.integers(1 << 30))
    # a still table filmed: every frame has its own light, noise and JPEG (rendered beforehand)
    video = [
        render_frame(spec, faces, rng, arms=0, corners=corners, distortion=0.0, table_seed=seed)
        for _ in range(args.frames)
    ]
    calibration = Calibration(tuple((float(x), float(y)) for x, y in corners))
    tiles = sum(1 for label in video[0].labels if label.spot.name != "back")
    other = baseline()
    if other is not None:
        other(video[0].image)  # warm-up
    options = {"second_look_below": args.second_look_below, "back_confidence": args.back_confidence}
    chosen = {k: v for k, v in options.items() if v is not None}  # the rest: Detector's defaults
    if args.no_expert:
        chosen["use_expert"] = False
    print(f"a busy table: {len(video[0].labels)} tiles in view ({tiles} faces)")
    if other is not None:
        _time_theirs_alone(other, [shot.image for shot in video])

    def new_reader() -> TableReader:
        reader = TableReader(Detector(**chosen), calibration, Stabiliser())
        reader.process(video[0].image)  # warm-up: session start, allocations
        return reader

    # alone first (as deployed: nothing else between our frames), then interleaved with
    # mahjong-detector, so both see the same load and each other's effect on the caches; last
    # (for both kinds of run) with its session made not to busy-wait, as ours never does
    for together in ("alone", "interleaved", "fair") if other is not None else ("alone",):
        if together == "fair":
            _stop_their_busy_waiting()
            other(video[0].image)  # warm-up of the new session
            _time_theirs_alone(other, [shot.image for shot in video], " without busy-waiting")
        for name, fresh in (("every tile read each frame", True), ("still table, video", False)):
            _time_mode(
                f"{name}, {MODES[together]}",
                new_reader(),
                video,
                fresh,
                other=other,
                together=together,
            )
    if other is None:
        print("mahjong-detector: not installed")


MODES = {
    "alone": "alone",
    "interleaved": "interleaved",
    "fair": "interleaved, neither runtime busy-waiting",
}


def _stop_their_busy_waiting() -> None:
    """mahjong-detector's session rebuilt with ours's thread setting: ONNX Runtime's default
    worker threads spin for a while after each run, and on two cores that spinning takes the
    CPU from whatever runs next (our frame, when interleaved); ours never spin
    (vision.detector_backends.onnx_session)."""
    import sys

    import onnxruntime as ort

    module = sys.modules["mahjong_detector.predict"]
    options = ort.SessionOptions()
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    module.threadlocal.session = ort.InferenceSession(
        str(module.model_path), options, providers=["CPUExecutionProvider"]
    )


def _time_mode(  # type: ignore[no-untyped-def]
    label: str, reader, video: list, fresh: bool, *, other, together: str
) -> None:
    """Our frame times (with mahjong-detector's right after each unless ``together`` is
    "alone"), then the report line(s)."""
    from vision.crop_memory import CropMemory

    times, theirs = [], []
    for shot in video:
        if fresh:
            reader.memory = CropMemory()  # nothing remembered: the worst case
        start = time.perf_counter()
        reader.process(shot.image)
        times.append(time.perf_counter() - start)
        if together != "alone" and other is not None:
            start = time.perf_counter()
            other(shot.image)
            theirs.append(time.perf_counter() - start)
    _report(label, times, theirs, None if fresh else reader.memory)


def _time_theirs_alone(other, images: list[np.ndarray], how: str = "") -> None:  # type: ignore[no-untyped-def]
    times = []
    for image in images:
        start = time.perf_counter()
        other(image)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(
        f"mahjong-detector 0.0.6{how} alone: median {median * 1000:.1f} ms = {1 / median:.1f} fps"
    )


def _report(name: str, times: list[float], theirs: list[float], memory) -> None:  # type: ignore[no-untyped-def]
    """Our median and p90 (with ``memory``, the video mode's crop reuse); theirs beside."""
    median = statistics.median(times)
    reused = "" if memory is None else f"; {memory.reused} crops reused, {memory.read} read"
    print(
        f"ours, {name}: median {median * 1000:.1f} ms per 1920x1080 frame = "
        f"{1 / median:.1f} fps, p90 {sorted(times)[int(0.9 * len(times))] * 1000:.1f} ms{reused}"
    )
    if theirs:
        their_median = statistics.median(theirs)
        ratios = statistics.median(o / t for o, t in zip(times, theirs, strict=True))
        print(
            f"  mahjong-detector 0.0.6 on the same frames, interleaved: median "
            f"{their_median * 1000:.1f} ms = {1 / their_median:.1f} fps; ours/theirs per "
            f"frame, median {ratios:.2f}"
        )


if __name__ == "__main__":
    main()
