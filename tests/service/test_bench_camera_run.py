"""bench/bench_camera_run.py's own parts: the simulated hand as a camera sees it, and its live
MJPEG camera read through the project's capture (``vision.capture.frames``)."""

from __future__ import annotations

import importlib.util
import sys
import threading
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np

from vision.capture import Source, frames

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_camera_run.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_camera_run", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_each_visible_change_is_a_state_and_the_hand_ends_laid_down() -> None:
    (plan,) = _bench().plan_hands("wsom", 3, 1, None)
    assert len(plan.specs) == len(plan.changes) + 1  # the deal, then one state per change
    assert [c.state for c in plan.changes] == list(range(1, len(plan.specs)))
    assert plan.changes[-1].kind == "win" and plan.changes[-1].event == "win_declared"
    assert sum(c.kind == "discard" for c in plan.changes) <= len(plan.discards)
    assert any(e["type"] == "win_declared" for e in plan.truth)


def test_the_camera_stream_plays_its_states_in_order_and_moves_on_while_unwatched() -> None:
    bench = _bench()
    shades = [0, 100, 200]
    jpegs = [cv2.imencode(".jpg", np.full((72, 96, 3), v, np.uint8))[1].tobytes() for v in shades]
    stream = bench.CameraStream(50.0)
    stream.load(jpegs, [2, 2, 2])
    stop = threading.Event()
    seen = []
    for _, image in frames(Source(stream.url), stop=stop):
        seen.append(round(float(image.mean()), -2))
        if len(seen) == 3:
            break
    assert seen == [0, 0, 100]
    assert stream.wait(lambda: stream.client is None, 5)  # the reader went away
    assert stream.skip_to_next_state() == 2  # the table moved on meanwhile
    stream.server.shutdown()


def test_a_reader_primed_mid_hand_reports_nothing_on_the_unchanged_table() -> None:
    """Found by bench/bench_camera_run.py --kills: with the config's default stable_frames = 3
    the stabiliser, which starts empty, confirmed nothing in the first two frames, that empty
    table settled and was published (every river tile taken, then reported again as new). A
    primed reader now feeds its stabiliser confirm_frames + settle_frames frames first."""
    from engine import actions as act
    from engine.simulate.actions import demo_hands
    from engine.table import Table
    from models.art.faces import load_faces
    from models.drawn.camera import render_frame
    from models.drawn.visible_table import VisibleTable
    from models.evaluation.perception_check import installed_camera
    from vision.calibration import Calibration
    from vision.detector import Detector
    from vision.engine_bridge import ActionBridge
    from vision.observed import DiscardSeen
    from vision.reader import TableReader
    from vision.resume import prime_reader
    from vision.stabiliser import Stabiliser

    # the engine as a camera-only table holds it 8 discards in, as after a restart
    table, engine, bridge = VisibleTable(), Table("wsom"), ActionBridge("wsom")
    for action in bridge.start(0):
        engine.apply(action)
    for action in next(iter(demo_hands("wsom", 3, 1))).actions:
        if isinstance(action, act.Discard) and table.apply(action):
            assert action.tile is not None
            for bridged in bridge.actions(DiscardSeen(action.seat, action.tile)):
                engine.apply(bridged)
            if len(table.truth) == 8:
                break
    assert [k for k, *_ in table.truth] == ["discard"] * 8  # no claim among them
    faces = {name: [image] for name, image in load_faces().items()}
    corners = installed_camera(1920, 1080, np.random.default_rng(1))
    frame = render_frame(
        table.spec,
        faces,
        np.random.default_rng(2),
        arms=0,
        corners=corners,
        distortion=0.0,
        table_seed=5,
    )
    calibration = Calibration(tuple((float(x), float(y)) for x, y in frame.table_corners))
    reader = TableReader(Detector(), calibration, Stabiliser(confirm_frames=3))  # the default
    assert prime_reader(reader, engine.snapshot())
    events = [e for _ in range(8) for e in reader.process(frame.image)]
    assert events == []
