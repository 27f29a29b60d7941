"""``tilesight watch`` on a tiny rendered video: the discards come out as JSON lines, in order,
each once, although an arm crosses the river (real model, real OpenCV video file)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.drawn.camera import random_camera, render_frame
from vision.calibration import Calibration
from vision.layout import MeldSpec, TableSpec

SCRIPT = [(1, "C"), (2, "E"), (3, "9m")]  # (seat, discard) in turn


def _watch(
    tmp_path: Path,
    faces: dict[str, list[np.ndarray]],
    states: list[TableSpec],
    *,
    seed: int,
    frames: int,
    arm_first: bool,
    table_seed: int,
) -> list[dict[str, object]]:
    """Film each table state for ``frames`` frames into an MJPG video (an arm over the table in
    each state's first frame when ``arm_first``), then run ``tilesight watch`` on it."""
    rng = np.random.default_rng(seed)
    corners = random_camera(1920, 1080, rng, span=(0.9, 0.95))
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (1920, 1080))
    truth_corners = None
    for spec in states:
        for i in range(frames):
            frame = render_frame(
                spec,
                faces,
                np.random.default_rng(int(rng.integers(1 << 30))),
                arms=1 if arm_first and i == 0 else 0,
                corners=corners,
                distortion=0.0,
                table_seed=table_seed,
            )
            truth_corners = frame.table_corners
            writer.write(frame.image)
    writer.release()
    calibration = tmp_path / "cal.json"
    calibration.write_text(
        Calibration(tuple((float(x), float(y)) for x, y in truth_corners)).to_json()
    )
    command = "from tilesight.cli import main; raise SystemExit(main())"
    result = subprocess.run(
        [sys.executable, "-c", command, "watch", str(video), "--calibration", str(calibration)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.slow
def test_watch_prints_discards_from_a_video(tmp_path: Path, faces) -> None:
    states = []
    for turns in range(len(SCRIPT) + 1):  # seats 1, 2 and 3 discard in turn
        spec = TableSpec(walls=[(2, 16)] * 4)
        for seat, tile in SCRIPT[:turns]:
            spec.rivers[seat] = [tile]
        states.append(spec)
    events = _watch(tmp_path, faces, states, seed=21, frames=6, arm_first=True, table_seed=5)
    discards = [(e["seat"], e["tile"], e["index"]) for e in events if e["type"] == "discard"]
    assert discards == [(1, "C", 0), (2, "E", 0), (3, "9m", 0)]


@pytest.mark.slow
def test_watch_reports_a_concealed_kong_before_its_seats_discard(tmp_path: Path, faces) -> None:
    """A kong laid end tiles down (the detector rarely finds those backs; the kong probe reads
    them), then the same seat's discard: both come out, once each, kong first."""
    kong = MeldSpec(["back", "7p", "7p", "back"], -1)
    states = []
    for melds, river in (([], []), ([kong], []), ([kong], ["N"])):
        spec = TableSpec(walls=[(2, 16)] * 4)
        spec.melds[2], spec.rivers[2] = list(melds), list(river)
        states.append(spec)
    events = _watch(tmp_path, faces, states, seed=5, frames=7, arm_first=False, table_seed=9)
    read = [(e["type"], e["seat"], e["tile"]) for e in events if "tile" in e]
    assert read == [("concealed_kong", 2, "7p"), ("discard", 2, "N")]
