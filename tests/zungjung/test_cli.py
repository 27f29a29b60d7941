"""``tilesight score --rules zung-jung``: plain, --json and --jsonl, with the same shapes as MCR."""

from __future__ import annotations

import io
import json

import pytest

from tilesight.cli import main


def test_plain_output_lists_the_patterns(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["score", "222s444m666p888pWW", "--rules", "zung-jung", "--self-drawn"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Four Concealed Triplets" in out and "4.2.3" in out
    assert "total 160" in out and "each other seat pays 160" in out


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["score", "[CCC] 11222333p 99m", "--win-tile", "1p", "--rules", "zj", "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code == 0
    assert result["total"] == 170 and result["valid"] is True and result["error"] is None
    assert {"id": "5.1.3", "name": "Three Identical Sequences", "points": 120, "count": 1} in (
        result["fans"]
    )
    assert result["payments"]["discarder"] == 460 and result["payments"]["each_other"] == 25


def test_jsonl_keeps_order_and_reports_errors_per_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        {"hand": "[CCC] 11222333p 99m", "win_tile": "1p", "self_drawn": True},
        {"hand": "[234s] 567s 345m 66p 99p", "win_tile": "6p"},
        "not json",
        {"hand": "1111m 222m 333m 44m 5m", "win_tile": "1m"},
        {"hand": "EESSWWNNCCFFP", "win_tile": "P"},
    ]
    text = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["score", "--jsonl", "--rules", "wmc"]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["total"] for r in results] == [170, 1, 0, 0, 320]
    assert [r["valid"] for r in results] == [True, False, False, False, True]
    assert results[0]["payments"] == {"each_other": 170}
    assert "chicken" in results[1]["error"]
    assert "not JSON" in results[2]["error"]
    assert "5 copies of 1m" in results[3]["error"]
    assert [f["id"] for f in results[4]["fans"]] == ["3.4"]


def test_unknown_rule_set_is_a_clear_cli_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "123m", "--rules", "zung-jong"]) == 2
    assert "unknown rule set 'zung-jong'" in capsys.readouterr().err
