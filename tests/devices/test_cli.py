"""`tilesight table` against a real `tilesight table-emulator` subprocess."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tilesight.cli import main


@pytest.fixture
def emulator_process() -> Iterator[tuple[subprocess.Popen[str], str]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tilesight.cli", "table-emulator", "--pty", "--time-scale",
         "0.001", "--seed", "11"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    port = proc.stdout.readline().strip()
    assert port, proc.stderr.read() if proc.stderr else "emulator printed nothing"
    yield proc, port
    if proc.poll() is None:
        proc.kill()
        proc.communicate()


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    assert main(["table", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_table_commands_against_emulator(emulator_process, capsys) -> None:  # type: ignore[no-untyped-def]
    proc, port = emulator_process
    info = run_json(capsys, "info", "--port", port)
    assert info["protocol"] == "1.0" and "tiles_144" in info["capabilities"]  # type: ignore[index]
    status = run_json(capsys, "status", "--port", port)
    assert status["state"] == "idle" and status["fault"] is None  # type: ignore[index]
    shuffled = run_json(capsys, "shuffle", "--port", port, "--tiles", "136")
    assert shuffled == {"tile_count": 136, "side_counts": [34, 34, 34, 34]}
    assert run_json(capsys, "raise", "--port", port) == {"tile_count": 136}
    dice = run_json(capsys, "dice", "--port", port, "--dice", "3")
    assert len(dice["values"]) == 3 and dice["total"] == sum(dice["values"])  # type: ignore[index,arg-type]
    assert main(["table", "events", "--port", port, "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    names = [e["event"] for e in events]
    assert names[0] == "boot" and "shuffle_done" in names and names[-1] == "dice_rolled"
    assert [e["counter"] for e in events] == list(range(1, len(events) + 1))
    # refused command: clear message, exit status 2, no traceback
    assert main(["table", "raise", "--port", port]) == 2
    err = capsys.readouterr().err
    assert "refused raise_walls: wrong_state (state raised)" in err and "Traceback" not in err

    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=10)
    report = json.loads(out.strip().splitlines()[-1])
    assert report["executed"]["start_shuffle"] == 1 and report["executed"]["raise_walls"] == 1
    assert report["naks"] == {"wrong_state": 1}


def test_emulator_over_tcp_and_sigint_report(capsys) -> None:  # type: ignore[no-untyped-def]
    proc = subprocess.Popen(
        [sys.executable, "-m", "tilesight.cli", "table-emulator", "--listen", "127.0.0.1:0",
         "--time-scale", "0.001"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith("socket://127.0.0.1:")
        assert run_json(capsys, "dice", "--port", url)["total"] >= 2  # type: ignore[index,operator]
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=10)
        assert json.loads(out.strip().splitlines()[-1])["executed"]["roll_dice"] == 1
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["table", "status", "--port", "/nonexistent/tty", "--timeout", "0.2"], "/nonexistent/tty"),
        (["table-emulator", "--listen", "nohost"], "'nohost'"),
        (["table-emulator", "--pty", "--fault-rate", "2"], "--fault-rate"),
        (["table-emulator", "--pty", "--time-scale", "0"], "--time-scale"),
    ],
)
def test_bad_input_is_one_clear_line(argv: list[str], message: str, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.timeout(60)
def test_events_follow_streams_new_events_until_sigint(make_emulator) -> None:  # type: ignore[no-untyped-def]
    from devices.driver import TableDriver

    emulator = make_emulator(time_scale=0.001, seed=4)
    port = emulator.start_pty()
    follow = subprocess.Popen(
        [sys.executable, "-m", "tilesight.cli", "table", "events", "--port", port, "--follow",
         "--json"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert follow.stdout is not None
        first = json.loads(follow.stdout.readline())
        assert first["event"] == "boot" and first["counter"] == 1
        with TableDriver(port) as table:
            values = table.roll_dice().values
        while (line := follow.stdout.readline()) and json.loads(line).get("event") != "dice_rolled":
            pass
        assert json.loads(line)["values"] == list(values)
        follow.send_signal(signal.SIGINT)
        assert follow.wait(10) == 0
    finally:
        if follow.poll() is None:
            follow.kill()
        follow.communicate()
