"""``tilesight replay`` end to end on the shipped examples, broken input and the real sample."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.events import from_dict
from engine.rulesets import UnknownRuleSetError, find_rules
from tilesight.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _replay(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict], str]:
    code = main(["replay", *args])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def _has_mcr() -> bool:
    try:
        find_rules("mcr")
    except UnknownRuleSetError:
        return False
    return True


@pytest.mark.parametrize("name", ["mcr-claims-and-kong", "wsom-camera"])
def test_clean_examples_replay_without_violations(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    code, events, err = _replay(capsys, str(EXAMPLES / f"{name}.tablelog"), "--strict")
    assert code == 0, err
    assert "1 hands, 1 wins, 0 washouts, 0 violations" in err
    for event in events:
        assert from_dict(event).type == event["type"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    win = next(e for e in events if e["type"] == "win_declared")
    if _has_mcr():
        assert any(f["name"] == "Pure Straight" for f in win["score"]["fans"])
        assert sum(win["deltas"]) == 0


def test_simulated_wsom_game_replays_strictly(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "wsom-simulated.tablelog")
    code, events, err = _replay(capsys, path, "--strict")
    assert code == 0, err
    assert "4 hands, 4 wins, 0 washouts, 0 violations" in err
    ended = [e for e in events if e["type"] == "hand_ended"]
    assert [e["hand_number"] for e in ended] == [1, 2, 3, 4]
    assert ended[-1]["scores"] == [sum(e["deltas"][s] for e in ended) for s in range(4)]
    draws = [e for e in events if e["type"] == "tile_drawn"]
    assert all(e["live_left"] is not None and e["live_left"] >= 0 for e in draws)


def test_broken_example_reports_violations_and_strict_exits_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(EXAMPLES / "broken.tablelog")
    code, events, err = _replay(capsys, path)
    assert code == 0
    kinds = {e["kind"] for e in events if e["type"] == "violation"}
    assert {"chow_not_from_upper_seat", "out_of_turn", "fifth_copy"} <= kinds
    code, _events, err = _replay(capsys, path, "--strict")
    assert code == 1
    assert "chow_not_from_upper_seat" in err and "1 violations" in err


def test_public_form_hides_drawn_tiles(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "mcr-claims-and-kong.tablelog")
    _code, events, _err = _replay(capsys, path, "--public")
    draws = [e for e in events if e["type"] in ("tile_drawn", "tiles_dealt")]
    assert draws and all(e["tile" if "tile" in e else "tiles"] is None for e in draws)


def test_unreadable_and_malformed_files_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _events, err = _replay(capsys, str(tmp_path / "missing.tablelog"))
    assert code == 2 and err.count("\n") == 1 and "cannot read" in err
    bad = tmp_path / "bad.tablelog"
    bad.write_text('{"action": "washout"}\n{"action": "discard", "seat": 9\n')
    code, _events, err = _replay(capsys, str(bad))
    assert code == 2 and "line 2: not JSON" in err
    code, _events, err = _replay(capsys, str(bad), "--procedure", "nowhere")
    assert code == 2
    binary = tmp_path / "binary.tablelog"
    binary.write_bytes(b"\xff\xfe\x00")
    code, _events, err = _replay(capsys, str(binary))
    assert code == 2 and "cannot read" in err


def test_botzone_sample(capsys: pytest.CaptureFixture[str], shared_dir: Path) -> None:
    path = shared_dir / "data/mcr-logs/human-sample.txt"
    code, events, err = _replay(capsys, str(path), "--format", "botzone", "--strict")
    assert code == 0, err
    assert "16 hands, 14 wins, 2 washouts, 0 violations" in err
    assert sum(e["type"] == "hand_ended" for e in events) == 16


def test_console_script_runs() -> None:
    path = EXAMPLES / "mcr-claims-and-kong.tablelog"
    done = subprocess.run(
        [sys.executable, "-m", "tilesight.cli", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "1 wins" in done.stderr
    assert done.stdout.count("\n") == len(done.stdout.splitlines()) > 10
