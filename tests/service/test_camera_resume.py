"""A camera-only ``tilesight run`` killed with SIGKILL mid-hand and restarted: the hand goes on
from the journal, reconciled with what the camera now sees (a discard made while the process was
down is read as one), nothing is abandoned, and the events on MQTT have no gap and no duplicate.

The camera is a rendered video file (the real detector reads it); the broker a real Mosquitto.
"""

from __future__ import annotations

import copy
import json
import shutil
import signal
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine import actions as act
from engine.simulate.actions import demo_hands
from models.art.faces import load_faces
from models.drawn.camera import render_frame
from models.drawn.visible_table import VisibleTable
from tests.service.conftest import TILESIGHT, Probe, wait_until
from tilesight.demo.broker import MosquittoBroker
from vision.calibration import Calibration
from vision.layout import TableSpec

SIZE = (1152, 720)
CORNERS = np.float32([[260, 40], [900, 50], [890, 690], [250, 680]])
FRAMES = 5  # per state of the table: enough to confirm (3) and settle (2)
BEFORE, AFTER = 6, 5  # visible changes before the kill, and after it (the first while down)


def _states() -> tuple[list[TableSpec], list[tuple[int, str]], list[int]]:
    """The table after each visible change of a simulated wsom hand's first plays, its
    discards in order (the truth), and how many of them each state shows played."""
    hand = next(iter(demo_hands("wsom", 3, 1)))
    table, states, discards, played = VisibleTable(), [], [], []
    for action in hand.actions:
        if isinstance(action, act.Discard):
            discards.append((action.seat, str(action.tile)))
        if table.apply(action):
            states.append(copy.deepcopy(table.spec))
            played.append(len(discards))
        if len(states) == BEFORE + AFTER:
            break
    return states, discards, played


def _video(path: Path, specs: list[TableSpec], tail: int) -> tuple[tuple[float, float], ...]:
    """Each table state ``FRAMES`` frames, the last ``tail`` frames more (a camera that keeps
    watching); returns the table's corners in the frame."""
    faces = {name: [image] for name, image in load_faces().items()}
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, SIZE)
    corners: tuple[tuple[float, float], ...] = ()
    for index, spec in enumerate(specs):
        frame = render_frame(
            spec,
            faces,
            np.random.default_rng(4),
            frame_size=SIZE,
            arms=0,
            corners=CORNERS,
            distortion=0.0,
            table_seed=7,
        )
        corners = tuple((float(x), float(y)) for x, y in frame.table_corners)
        for _ in range(FRAMES + (tail if index == len(specs) - 1 else 0)):
            writer.write(frame.image)
    writer.release()
    return corners


@pytest.mark.slow
def test_a_camera_only_table_killed_mid_hand_carries_the_hand_on(
    broker: MosquittoBroker, tmp_path: Path
) -> None:
    states, truth, played = _states()
    corners = _video(tmp_path / "before.avi", [VisibleTable().spec, *states[:BEFORE]], tail=400)
    # restarted, the camera sees the table as play left it: a discard more made meanwhile
    _video(tmp_path / "after.avi", states[BEFORE:], tail=400)
    calibration = tmp_path / "calibration.json"
    calibration.write_text(Calibration(corners).to_json())
    camera = tmp_path / "camera.avi"
    shutil.copy(tmp_path / "before.avi", camera)
    config = tmp_path / "table.toml"
    config.write_text(
        f'tournament = "hall"\ntable = "T07"\nprocedure = "wsom"\nlog_level = "INFO"\n'
        f'[mqtt]\nurl = "{broker.url}"\nwill_delay_s = 0\n'
        f'[outbox]\npath = "{tmp_path / "outbox.sqlite"}"\n'
        f'[calibration]\npath = "{calibration}"\n'  # [detector] stable_frames: 3, the default
        f'[[cameras]]\nsource = "{camera}"\nfps = 100\n'
    )
    discards_before, truth = played[BEFORE - 1], truth[: played[-1]]

    def delivered(probe: Probe) -> list[dict]:
        return [json.loads(m.payload) for m in probe.messages if "/events/" in m.topic]

    def events(probe: Probe) -> list[dict]:
        """Each event once: a row the killed process stored and sent but never saw acknowledged
        is sent again after the restart (MQTT QoS 1 is at least once; consumers keep the first
        copy of an event_id, as score capture keeps the first of a seq)."""
        first: dict[str, dict] = {}
        for event in delivered(probe):
            first.setdefault(event["event_id"], event)
        return list(first.values())

    def discarded(probe: Probe) -> list[tuple[int, str]]:
        return [(e["seat"], e["tile"]) for e in events(probe) if e["type"] == "tile_discarded"]

    run = [TILESIGHT, "run", "--config", str(config)]
    with Probe(broker.url, "ref") as probe:
        probe.subscribe("tilesight/v1/hall/T07/events/#")
        probe.subscribe("tilesight/v1/hall/T07/private/events/#")
        first = subprocess.Popen(run, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_until(lambda: len(discarded(probe)) >= discards_before, 120, "the first plays")
        finally:
            first.send_signal(signal.SIGKILL)  # mid-hand, the camera still watching
            first.wait()
        shutil.copy(tmp_path / "after.avi", camera)
        second = subprocess.Popen(run, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            wait_until(lambda: len(discarded(probe)) >= len(truth), 120, "the hand going on")
        finally:
            second.send_signal(signal.SIGTERM)
            output, _ = second.communicate(timeout=30)
        seen = events(probe)
    assert discarded(probe) == truth, output[-3000:]  # the discard made while down included
    assert "hand 1 resumes" in output, output[-3000:]
    seqs = [e["seq"] for e in seen]
    listed = [(e["seq"], e["type"]) for e in seen]
    assert sorted(seqs) == list(range(1, max(seqs) + 1)), listed  # no gap, no duplicate
    assert len({e["event_id"] for e in seen}) == len(seen)
    copies = delivered(probe)
    assert all(e == next(f for f in seen if f["event_id"] == e["event_id"]) for e in copies)
    assert len(copies) - len(seen) <= 1  # at most the one row in flight at the kill, resent
    assert len({e["epoch"] for e in seen}) == 1
    assert [e["type"] for e in seen].count("hand_started") == 1  # nothing abandoned, no new hand
    assert not [e for e in seen if e["type"] in ("hand_ended", "violation")], seen
