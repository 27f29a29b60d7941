"""``tilesight score``: plain table, --json and --jsonl (in-process and as a real process)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilesight.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["score", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_plain_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "123m456p789s11mEEE", "--seat-wind", "S", "--prevalent-wind", "S")
    assert code == 0
    assert "Mixed Straight 花龙" in out and "Pung of Terminals or Honors" in out
    assert "total 11" in out
    assert "payments: discarder 19, each other seat 8" in out


def test_json_with_win_tile_and_flags(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "123m456p789s11mEE", "--win-tile", "E", "--self-drawn", "--flowers", "1", "--json"
    )
    result = json.loads(out)
    assert code == 0 and result["valid"] and result["error"] is None
    assert [f["id"] for f in result["fans"]] == [39, 56, 60, 61, 81]
    assert result["total"] == 17 and result["payments"] == {"each_other": 25}


def test_false_win_exits_1_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "222m456p789s345s99m", "--json")
    result = json.loads(out)
    assert code == 1 and not result["valid"] and result["payments"] is None
    assert "false win" in result["error"]


def test_bad_notation_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "1x3m")
    assert code == 2 and "'1x3m'" in err and "Traceback" not in err
    code, out, _ = run(capsys, "1x3m", "--json")
    assert code == 1 and "unexpected 'x'" in json.loads(out)["error"]
    code, _, err = run(capsys, "123m", "--rules", "nope")
    assert code == 2 and "unknown rule set 'nope'" in err


def test_jsonl_in_order_with_errors_as_results(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        {"hand": "111m 222p 333s 555p 7s", "win_tile": "7s", "flowers": 2},
        "not json",
        {"hand": "19m19s19pESWNCFP", "win_tile": "E", "self_drawn": True, "seat_wind": "W"},
        {"hand": "123m456p789s345s9m", "last_tile": "yes"},
        {"hand": "123m456p789s345s9m", "typo": True},
        {"hand": "11111m456p789s22p2p"},
        {"hand": "123m456p789s345s9x", "win_tile": "9m"},
    ]
    text = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code, out, _ = run(capsys, "--jsonl")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(results) == 7
    assert results[0]["total"] == 77 and results[0]["payments"] == {
        "discarder": 85,
        "each_other": 8,
    }
    assert results[1]["error"].startswith("not JSON")
    assert [f["id"] for f in results[2]["fans"]] == [7, 80]
    assert "'last_tile' must be true or false" in results[3]["error"]
    assert "unknown field" in results[4]["error"]
    assert "5 copies of 1m" in results[5]["error"]
    assert "unexpected 'x'" in results[6]["error"] and "'123m456p789s345s9x'" in results[6]["error"]
    assert all(set(r) == {"total", "valid", "fans", "payments", "error"} for r in results)


def test_jsonl_as_a_real_process() -> None:
    request = {"hand": "123m456p789s11mEE", "win_tile": "E", "prevalent_wind": "E"}
    proc = subprocess.run(
        [sys.executable, "-m", "tilesight.cli", "score", "--jsonl"],
        input=json.dumps(request) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["valid"] and result["total"] == 14
    assert result["fans"][0] == {"id": 39, "name": "Mixed Straight", "points": 8, "count": 1}


_ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 20) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)
_FIELD_VALUES = st.fixed_dictionaries(
    {},
    optional={
        "hand": st.text(alphabet="123456789mspfESWNCFP[]{}< ", max_size=24),
        "win_tile": st.text(alphabet="123456789mspfESWNCFP", max_size=3) | _ANY_JSON,
        "self_drawn": _ANY_JSON,
        "seat_wind": st.sampled_from(["E", "S", "W", "N", "X", "east"]) | _ANY_JSON,
        "flowers": _ANY_JSON,
        "robbing_kong": st.booleans(),
        "kong_replacement": st.booleans(),
    },
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), _FIELD_VALUES.map(json.dumps), _ANY_JSON.map(json.dumps)))
def test_jsonl_lines_never_crash(line: str) -> None:
    from engine.rulesets import find_rules
    from tilesight.commands.score import score_line

    result = score_line(find_rules("mcr"), line)
    assert set(result) == {"total", "valid", "fans", "payments", "error"}
    assert result["valid"] == (result["error"] is None)


def test_rules_option_reaches_every_registered_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.rulesets import rule_set_names

    for name in rule_set_names():
        main(["score", "123m456p789s11mEEE", "--rules", name, "--json"])
        result = json.loads(capsys.readouterr().out)
        assert set(result) == {"total", "valid", "fans", "payments", "error"}, name


def test_jsonl_winds_read_as_letters_or_as_events_write_them() -> None:
    from engine.rulesets import find_rules
    from tilesight.commands.score import score_line

    rules = find_rules("mcr")
    base = {"hand": "123m456p789s11mSS", "win_tile": "S"}
    as_letters = score_line(rules, json.dumps({**base, "seat_wind": "S", "prevalent_wind": "S"}))
    as_numbers = score_line(rules, json.dumps({**base, "seat_wind": 1, "prevalent_wind": 1}))
    assert as_numbers == as_letters and as_letters["valid"]
    assert {f["name"] for f in as_letters["fans"]} >= {"Prevalent Wind", "Seat Wind"}
    bad = score_line(rules, json.dumps({**base, "seat_wind": 4}))
    assert bad["error"] == "seat_wind: expected a wind 0-3 (E S W N), got 4"
