"""`tilesight replay --rules qujing` and `tilesight score --rules qujing` end to end."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine.actions import Deal, Discard, HandStart, Win, action_to_dict
from engine.notation import parse_tile, parse_tiles
from tests.qujing.test_table import HANDS
from tilesight import cli


def _write_log(path: Path) -> None:
    actions = [HandStart(dealer=0)]
    actions += [Deal(seat=s, tiles=parse_tiles(h)) for s, h in enumerate(HANDS)]
    actions += [Discard(seat=0, tile=parse_tile("5m")), Win(seat=1), Win(seat=2)]
    path.write_text("".join(json.dumps(action_to_dict(a)) + "\n" for a in actions))


def test_replay_scores_two_winners_with_qujing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "two-winners.tablelog"
    _write_log(log)
    code = cli.main(["replay", str(log), "--procedure", "qujing", "--rules", "qujing", "--strict"])
    out = capsys.readouterr().out
    assert code == 0
    wins = [e for e in map(json.loads, out.splitlines()) if e["type"] == "win_declared"]
    assert [(w["seat"], w["score"]["total"], w["score"]["payments"]) for w in wins] == [
        (1, 2, {"discarder": 8, "each_other": 0}),
        (2, 1, {"discarder": 4, "each_other": 0}),
    ]
    assert {f["id"] for f in wins[0]["score"]["fans"]} == {"all-pungs", "one-colour"}


def test_unknown_rule_set_names_the_known_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "g.tablelog"
    _write_log(log)
    assert cli.main(["replay", str(log), "--rules", "qujng"]) == 2
    assert "qujing" in capsys.readouterr().err


def test_score_command_with_qujing_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["score", "111222333444m5m", "--win-tile", "5m", "--rules", "qujing", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0
    assert result["total"] == 2
    assert result["payments"] == {"discarder": 8, "each_other": 0}


def test_score_jsonl_with_qujing_rules(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        {"hand": "111222333m5m{4444m}", "win_tile": "5m", "kong_replacement": True},
        {"hand": "123m456p789s123s5p", "win_tile": "5p"},
        {"hand": "123m456p789s123s5p", "win_tile": "5p", "self_drawn": True},
        {"hand": "123m456p789s5p[123s]", "win_tile": "5p"},
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(json.dumps(x) + "\n" for x in lines)))
    assert cli.main(["score", "--jsonl", "--rules", "qujing"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["valid"], r["total"], r["payments"]) for r in out] == [
        (True, 3, {"each_other": 12}),
        (False, 0, None),
        (True, 0, {"each_other": 1}),
        (False, 0, None),
    ]
    assert out[1]["error"] == "a plain win (no fan) may only be self-drawn"
    assert "no chow" in out[3]["error"]
