"""The camera path of ``tilesight run``: a real video file decoded by OpenCV, read by the real
detector, supervised (a stream that ends is reported offline and reopened)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.art.faces import load_faces
from models.drawn.camera import render_frame
from tests.service.conftest import Probe, wait_until
from tilesight.camera_feed import CameraFeed
from tilesight.config import ServiceConfig
from tilesight.demo.broker import MosquittoBroker
from tilesight.input_workers import input_workers
from tilesight.outbox import Outbox
from tilesight.service import TableService
from tilesight.supervisor import Supervisor
from tilesight.table_engine import TableEngine
from tilesight.topics import TableTopics
from vision.calibration import Calibration
from vision.layout import TableSpec

#: The river every seat shows in the video (one row of six).
RIVER = ["1m", "2p", "3s", "E", "C", "9m"]


@pytest.fixture(scope="module")
def table_video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    spec = TableSpec(concealed=[0] * 4)
    spec.rivers = [list(RIVER) for _ in range(4)]
    faces = {name: [image] for name, image in load_faces().items()}
    corners = np.float32([[260, 40], [900, 50], [890, 690], [250, 680]])
    frame = render_frame(
        spec,
        faces,
        np.random.default_rng(4),
        frame_size=(1152, 720),
        arms=0,
        corners=corners,
        distortion=0.0,
    )
    folder = tmp_path_factory.mktemp("camera")
    video = folder / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (1152, 720))
    for _ in range(4):
        writer.write(frame.image)
    writer.release()
    calibration = folder / "calibration.json"
    calibration.write_text(
        Calibration(tuple((float(x), float(y)) for x, y in frame.table_corners)).to_json()
    )
    return video, calibration


@pytest.mark.slow
def test_camera_worker_reads_frames_and_is_supervised(
    broker: MosquittoBroker, table_video: tuple[Path, Path]
):
    video, calibration = table_video
    config = ServiceConfig.model_validate(
        {
            "tournament": "cup",
            "table": "T09",
            "mqtt": {"url": broker.url},
            "cameras": [{"source": str(video), "fps": 100}],
            "calibration": {"path": str(calibration)},
            "detector": {"stable_frames": 1},
        }
    )
    service = TableService(
        topics=TableTopics("cup", "T09"),
        engine=TableEngine(table_id="T09", procedure="wsom", rules="mcr"),
        outbox=Outbox(":memory:"),
        endpoint=config.mqtt.endpoint(),
        will_delay_s=0,
    )
    feed = CameraFeed(config, service)
    supervisor = Supervisor(min_backoff_s=0.2, max_backoff_s=0.2)
    for name, work in input_workers(config, None, feed):
        supervisor.add(name, work, on_status=lambda status, n=name: service.set_link(n, status))
    service.start()
    feed.new_hand(())

    def states() -> list[dict]:
        return [json.loads(m.payload) for m in probe.on("/state")]

    def camera_links() -> list[str]:
        return [state.get("links", {}).get("camera", "") for state in states()]

    try:
        with Probe(broker.url, "cam-probe") as probe:
            # Subscribe and see the service's first state before any camera runs: a snapshot
            # is retained (latest only), so changes made before the link is up are not seen.
            probe.subscribe("tilesight/v1/cup/T09/state")
            wait_until(lambda: bool(states()), 30, "the service's first state")
            supervisor.start()
            wait_until(lambda: supervisor.restarts("camera") >= 2, 60, "two reopened streams")
            wait_until(
                lambda: {"online", "offline"} <= set(camera_links()), 30, "online and offline"
            )
            seen = states()
    finally:
        supervisor.stop()
        service.stop()
    assert feed.frames >= 8  # every frame of the file, read twice
    links = [state["links"].get("camera") for state in seen]
    assert "online" in links and "offline" in links, links
    details = [state["link_detail"].get("camera", "") for state in seen]
    assert any("the stream ended" in detail for detail in details), details
    hand = service.engine.snapshot()["hand"]
    assert hand is not None and all(s["concealed_count"] == 13 for s in hand["seats"][1:])
    # What was read: every seat's river is the video's, tile for tile, once: a reopened stream
    # shows the same table, which its reader, started from the engine's hand, knows already.
    for seat in hand["seats"]:
        assert seat["river"] == [RIVER], seat


def test_the_readers_waits_are_seconds_whatever_the_camera_rate() -> None:
    from tilesight.camera_feed import hold_frames_for

    defaults = {"hold_frames": 12, "self_draw_frames": 20, "clear_frames": 20}
    assert hold_frames_for(10) == defaults  # the reader's defaults
    assert hold_frames_for(30) == {"hold_frames": 36, "self_draw_frames": 60, "clear_frames": 60}
    assert hold_frames_for(0.5) == {"hold_frames": 2, "self_draw_frames": 3, "clear_frames": 3}


def _kept(fps: float, arrivals: list[float]) -> list[float]:
    from tilesight.camera_stream import FrameLimiter

    limiter = FrameLimiter(fps)
    return [t for t in arrivals if limiter.keep(t)]


def test_the_frame_limiter_keeps_a_camera_at_its_rate_despite_jitter() -> None:
    # a 10 frames/s camera whose frames arrive up to 30 ms early or late; config fps = 10:
    # every frame is kept (a limiter due one period after each kept frame kept about 2 in 3)
    jitter = np.random.default_rng(1).uniform(-0.03, 0.03, 100)
    arrivals = [0.1 * n + float(j) for n, j in enumerate(jitter)]
    assert len(_kept(10, arrivals)) == 100


def test_the_frame_limiter_keeps_the_configured_rate_of_a_faster_camera() -> None:
    rng = np.random.default_rng(2)
    for camera_fps in (20, 25, 30, 60):
        arrivals = sorted(
            n / camera_fps + float(rng.uniform(0, 0.01)) for n in range(10 * camera_fps)
        )
        kept = _kept(10, arrivals)
        assert 99 <= len(kept) <= 101, (camera_fps, len(kept))  # 10 s: 10 a second
        assert np.diff(kept).min() > 0.035  # never two at once (up to half a period early)


def test_the_frame_limiter_builds_no_backlog_after_a_stall() -> None:
    # 10 frames/s, then nothing read for 1 s (the detector stalled): the frames buffered
    # meanwhile arrive at once; one of them is kept, then the rate goes on from there
    arrivals = [0.1 * n for n in range(10)] + [2.0 + 0.001 * n for n in range(10)]
    arrivals += [2.1 + 0.1 * n for n in range(10)]
    kept = _kept(10, arrivals)
    assert kept[:10] == arrivals[:10]
    assert kept[10:] == [2.0, *arrivals[20:]]
