"""``tilesight run`` and its calibration: refused at start when missing, corrupt or misfitting;
a camera whose frames do not fit stops with a fault instead of retrying; no hand cameras."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.service.conftest import TILESIGHT, wait_until
from tilesight.camera_check import check_first_frame
from tilesight.camera_feed import CameraFeed
from tilesight.config import ConfigError, ServiceConfig, load_config
from tilesight.supervisor import Supervisor, WorkerFaultError
from vision.calibration import Calibration

#: A table filling a 1280x800 frame with every zone inside it.
FITS = ((330.0, 70.0), (1010.0, 105.0), (1040.0, 760.0), (280.0, 730.0))


def _config(tmp_path: Path, calibration: Path, source: str = "table.avi") -> Path:
    path = tmp_path / "table.toml"
    path.write_text(
        f'tournament = "cup"\ntable = "T01"\n[[cameras]]\nsource = "{source}"\n'
        f'[calibration]\npath = "{calibration}"\n'
        f'[mqtt]\nurl = "mqtt://127.0.0.1:9"\n[outbox]\npath = "{tmp_path / "outbox.sqlite"}"\n'
    )
    return path


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "does not exist; make it with: tilesight calibrate"),
        ('{"corners": [[1, 2]', "not a calibration"),
        (
            json.dumps({"corners": FITS, "image_size": [900, 800]}),  # seat 1's rows cut off
            "zones leave the 900x800 frame: seat 0 hand row (57 px), seat 1 wall",
        ),
        (
            json.dumps({"corners": [FITS[1], FITS[0], FITS[3], FITS[2]]}),  # mirrored
            "anticlockwise",
        ),
    ],
)
def test_run_refuses_a_bad_calibration_before_anything_starts(
    tmp_path: Path, content: str | None, expected: str
) -> None:
    calibration = tmp_path / "T01.json"
    if content is not None:
        calibration.write_text(content)
    command = [TILESIGHT, "run", "--config", str(_config(tmp_path, calibration))]
    refused = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    error = refused.stderr.strip()
    assert refused.returncode == 2 and expected in error, error
    assert error.startswith("tilesight run: ") and "\n" not in error
    assert not (tmp_path / "outbox.sqlite").exists()  # refused before the outbox, any thread


def test_config_rejects_hand_cameras_naming_what_exists(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('tournament = "t"\ntable = "T1"\n[[cameras]]\nsource = "0"\nrole = "hand"\n')
    with pytest.raises(ConfigError, match=r"role 'hand' does not exist: only 'overhead'"):
        load_config(path)
    path.write_text('tournament = "t"\ntable = "T1"\n[[cameras]]\nsource = "0"\nseat = 2\n')
    with pytest.raises(ConfigError, match=r"cameras\.0\.seat: Extra inputs are not permitted"):
        load_config(path)


def test_first_frame_must_be_the_size_the_calibration_was_made_on() -> None:
    frame = np.zeros((800, 1280, 3), np.uint8)
    check_first_frame(Calibration(FITS, (1280, 800)), frame, Path("c.json"))  # fits: no fault
    check_first_frame(Calibration(FITS), frame, Path("c.json"))  # no size recorded: zones fit
    with pytest.raises(WorkerFaultError, match=r"gives 640x400 frames but .* made on 1280x800"):
        check_first_frame(Calibration(FITS, (1280, 800)), frame[:400, :640], Path("c.json"))
    with pytest.raises(WorkerFaultError, match="zones leave the 640x400 frame"):
        check_first_frame(Calibration(FITS), frame[:400, :640], Path("c.json"))


def test_a_camera_whose_frames_do_not_fit_stops_with_a_fault(tmp_path: Path) -> None:
    video = tmp_path / "small.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 400))
    for _ in range(3):
        writer.write(np.full((400, 640, 3), 90, np.uint8))
    writer.release()
    calibration = tmp_path / "T01.json"
    calibration.write_text(Calibration(FITS).to_json())  # made for 1280x800, size not recorded
    config = ServiceConfig.model_validate(
        {
            "tournament": "cup",
            "table": "T01",
            "cameras": [{"source": str(video)}],
            "calibration": {"path": str(calibration)},
        }
    )
    statuses: list[str] = []
    feed = CameraFeed(config, service=None)  # type: ignore[arg-type]  # never reaches the engine
    supervisor = Supervisor(min_backoff_s=0.05, max_backoff_s=0.05)
    supervisor.add("camera", feed.worker(config.cameras[0]), on_status=statuses.append)
    supervisor.start()
    try:
        wait_until(lambda: len(statuses) >= 2, 60, "the camera's fault")
        time.sleep(0.5)  # ten back-offs: a retried worker would have come online again
    finally:
        supervisor.stop()
    assert supervisor.restarts("camera") == 0 and feed.frames == 0
    assert statuses[0] == "online" and len(statuses) == 2, statuses
    assert statuses[1].startswith("offline: calibration") and "640x400 frame" in statuses[1]
