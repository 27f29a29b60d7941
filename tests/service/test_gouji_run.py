"""``tilesight run`` with a Gouji table config: a real process and a real Mosquitto; actions
arrive as ``cmd/action`` (the card camera: test_gouji_card_camera.py), a SIGTERM and a restart
carry the game on from the journal, and every event is stored and published once."""

from __future__ import annotations

import json
import signal
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.actions import Action, action_to_dict
from engine.gouji.match_table import GoujiTable
from engine.gouji.simulate import simulate_match, table_actions
from tests.service.conftest import TILESIGHT, Probe, wait_until
from tilesight.demo.broker import MosquittoBroker
from tilesight.outbox import Outbox

ROOT = "tilesight/v1/hall/G1"
REPLY = f"{ROOT}/reply/ref"


def _start(config: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [TILESIGHT, "run", "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _stop(process: subprocess.Popen[str]) -> str:
    process.send_signal(signal.SIGTERM)
    out, _ = process.communicate(timeout=30)
    assert process.returncode == 0, out
    return out


def _send(probe: Probe, actions: list[Action], first: int) -> None:
    for n, action in enumerate(actions, start=first):
        body = json.dumps({"action": action_to_dict(action)})
        probe.command(f"{ROOT}/cmd/action", body, reply_to=REPLY, correlation=str(n).encode())
        wait_until(lambda n=n: len(probe.on("/reply/ref")) > n, 10, f"the answer to action {n}")


def _state(probe: Probe) -> dict[str, Any]:
    return dict(json.loads(probe.on(f"{ROOT}/state")[-1].payload))


@pytest.mark.slow
def test_run_a_gouji_table_restart_and_carry_on(broker: MosquittoBroker, tmp_path: Path) -> None:
    game = simulate_match(8, max_games=1).games[0]
    actions = [replace(a, at=1767225600.0 + n) for n, a in enumerate(table_actions(game)[:60])]
    config = tmp_path / "gouji.toml"
    config.write_text(
        f'tournament = "hall"\ntable = "G1"\ngame = "gouji"\ngouji_variant = "qingdao"\n'
        f'[mqtt]\nurl = "{broker.url}"\nwill_delay_s = 0\n'
        f'[outbox]\npath = "{tmp_path / "outbox.sqlite"}"\n'
    )
    with Probe(broker.url, "ref") as probe:
        probe.subscribe(f"{ROOT}/#")
        process = _start(config)
        try:
            wait_until(lambda: probe.on(f"{ROOT}/state"), 20, "the first state")
            _send(probe, actions[:30], 0)
        finally:
            _stop(process)
        assert all(json.loads(m.payload)["ok"] for m in probe.on("/reply/ref"))
        process = _start(config)
        try:
            wait_until(lambda: any(m.payload == b"online" for m in probe.on("/status")[-1:]), 20)
            _send(probe, actions[30:], 30)
            expected = GoujiTable(table_id="G1")
            for action in actions:
                expected.apply(action)
            want = expected.snapshot()
            wait_until(lambda: _state(probe)["game"]["seats"] == want["seats"], 10, "the state")
        finally:
            out = _stop(process)
    assert "replayed 60 journaled actions" in out, out  # 30 actions, 30 command records
    state = _state(probe)["game"]
    assert state["rules"] == "gouji" and state["trick"] == want["trick"]
    plays = [json.loads(m.payload) for m in probe.on("/events/cards_played")]
    assert {p["schema"] for p in plays} == {"tilesight.gouji-event/1"}
    outbox = Outbox(tmp_path / "outbox.sqlite")
    try:
        rows = outbox.between("G1", 1, 1, 10**6)
        assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
        assert all(r.sent for r in rows)
        handled = [r for r in rows if r.type == "command_handled"]
        assert len(handled) == len(actions)  # every command logged once, none replayed twice
    finally:
        outbox.close()


def _run_refused(config: Path) -> subprocess.CompletedProcess[str]:
    """``tilesight run`` on ``config``, which it should refuse at start."""
    return subprocess.run(
        [TILESIGHT, "run", "--config", str(config)],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_gouji_table_refuses_a_second_camera_and_unknown_variants(tmp_path: Path) -> None:
    config = tmp_path / "gouji.toml"
    base = 'tournament = "hall"\ntable = "G1"\ngame = "gouji"\n'
    config.write_text(base + '[[cameras]]\nsource = "0"\n[[cameras]]\nsource = "1"\n')
    done = _run_refused(config)
    assert done.returncode == 2 and "one overhead card camera" in done.stderr, done.stderr
    config.write_text(base + '[[cameras]]\nsource = "0"\n')  # one camera: it needs corners
    done = _run_refused(config)
    assert done.returncode == 2 and "[calibration] path" in done.stderr, done.stderr
    config.write_text(base + 'gouji_variant = "nowhere"\n')
    done = _run_refused(config)
    assert done.returncode == 2 and "nowhere" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
