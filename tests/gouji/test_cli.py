"""The checking contract through ``tilesight.cli.main`` with stdin and stdout (issue 42 item 2)."""

from __future__ import annotations

import io
import json

import pytest

from tilesight import cli


def run_jsonl(
    verb: str,
    lines: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *extra: str,
) -> list[dict[str, object]]:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert cli.main(["gouji", verb, "--jsonl", *extra]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_judge_jsonl(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        '{"current": ["2","7","7","7","7"], "play": ["8","8","8","8","8"]}',
        '{"current": [], "play": ["K","K"]}',
        '{"current": ["Q","Q","Q"], "play": ["K","K"]}',
        '{"current": ["7","7","RJ"], "play": ["8","8","BJ"]}',
        '{"current": [], "play": ["7","8"]}',
        "",
        '{"current": [], "play": ["3","3","2"], "hand": ["3","3","2"]}',
    ]
    results = run_jsonl("judge", lines, monkeypatch, capsys)
    assert [(r["legal"], r["beats"], r["gouji"], r["error"]) for r in results] == [
        (True, True, False, None),
        (True, False, True, None),
        (False, False, True, None),
        (False, False, True, None),
        (False, False, False, None),
        (True, False, False, None),
    ]


def test_judge_bad_lines_never_stop(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        "not json",
        "[1, 2]",
        '{"current": [], "play": ["X"]}',
        '{"current": "7 7", "play": ["8", "8"]}',
        '{"current": ["7", "9"], "play": ["8", "8"]}',
        '{"play": ["8"], "colour": "red"}',
        '{"current": []}',
        '{"current": ["7"], "play": ["8"]}',
    ]
    results = run_jsonl("judge", lines, monkeypatch, capsys)
    assert len(results) == len(lines)
    assert all(set(r) == {"legal", "beats", "gouji", "error"} for r in results)
    assert all(isinstance(r["error"], str) and not r["legal"] for r in results[:-1])
    assert "'X'" in str(results[2]["error"])
    assert results[-1] == {"legal": True, "beats": True, "gouji": False, "error": None}


def test_judge_with_options(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ['{"current": [], "play": ["2"]}', '{"current": [], "play": ["3","2"]}']
    default = run_jsonl("judge", lines, monkeypatch, capsys)
    assert [(r["legal"], r["gouji"]) for r in default] == [(True, False), (True, False)]
    tcy = run_jsonl(
        "judge", lines, monkeypatch, capsys, "--variant", "tcy", "--option", "bie_san=true"
    )
    assert [(r["legal"], r["gouji"]) for r in tcy] == [(True, True), (False, False)]


def test_settle_jsonl(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        '{"finish_order": [0, 1, 2, 3, 4, 5]}',
        '{"finish_order": [0, 2, 4, 1, 3, 5]}',
        '{"finish_order": [0, 1, 2]}',
        '{"finish_order": [0, 0, 1, 2, 3, 4]}',
        '{"finish_order": [0, 1, 2, 3, 4, 6]}',
        '{"finish_order": "012345"}',
        '{"finish_order": [0, 1, 2, 3, 4, true]}',
        "{}",
        "nonsense",
    ]
    results = run_jsonl("settle", lines, monkeypatch, capsys)
    assert results[0] == {"scores": [4, 2, 0, 0, -2, -4], "alliances": [2, -2], "error": None}
    assert results[1] == {"scores": [4, 0, 2, -2, 0, -4], "alliances": [6, -6], "error": None}
    assert len(results) == len(lines)
    assert all(r["scores"] is None and isinstance(r["error"], str) for r in results[2:])


def test_one_shot_forms(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["gouji", "judge", "8 8 8 8 8", "--current", "2 7 7 7 7"]) == 0
    assert json.loads(capsys.readouterr().out)["beats"] is True
    assert cli.main(["gouji", "settle", "5", "4", "3", "2", "1", "0"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == [-4, -2, 0, 0, 2, 4]
    assert cli.main(["gouji", "judge", "--variant", "nope", "8"]) == 2
    assert "qingdao" in capsys.readouterr().err


def test_simulate_prints_events(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["gouji", "simulate", "--seed", "3"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert events[0]["type"] == "game_start" and events[-1]["type"] == "game_over"
