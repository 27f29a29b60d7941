"""The camera path of ``tilesight run``: a real video file decoded by OpenCV, read by the real
detector, supervised (a stream that ends is reported offline and reopened)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.camera import render_frame
from models.faces import load_faces
from tests.service.conftest import Probe, wait_until
from tilesight.broker import MosquittoBroker
from tilesight.camera_feed import CameraFeed
from tilesight.config import ServiceConfig
from tilesight.outbox import Outbox
from tilesight.pipeline import TableEngine, input_workers
from tilesight.service import TableService
from tilesight.supervisor import Supervisor
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

    assert hold_frames_for(10) == {"hold_frames": 12, "self_draw_frames": 20}  # the defaults
    assert hold_frames_for(30) == {"hold_frames": 36, "self_draw_frames": 60}
    assert hold_frames_for(0.5) == {"hold_frames": 2, "self_draw_frames": 3}  # never none
