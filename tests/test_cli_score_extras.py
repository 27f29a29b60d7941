"""`tilesight score` passes rule-set facts through: `--extra KEY=JSON` and `"extras"` in --jsonl."""

from __future__ import annotations

import io
import json

import pytest

from tilesight import cli

HONOUR_HAND = "1m5m9m2p6p1s4s8s3m7p2s9p4m"  # no shape: only the discards can make it a win
ALL_PUNGS = "111222333444m5m"  # one colour + all pungs, waiting on 5m


def _score(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object]]:
    code = cli.main(["score", "--rules", "qujing", "--json", *argv])
    return code, json.loads(capsys.readouterr().out)


def _fans(result: dict[str, object]) -> set[str]:
    fans = result["fans"]
    assert isinstance(fans, list)
    return {str(f["id"]) for f in fans}


def test_extra_own_discards_makes_ten_winds(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [HONOUR_HAND, "--win-tile", "5s"]
    code, plain = _score(argv, capsys)
    assert code == 1 and plain["valid"] is False
    code, ten = _score([*argv, "--extra", 'own_discards="ESWNCFPEES"'], capsys)
    assert code == 0 and ten["valid"] is True and _fans(ten) == {"ten-winds"}


def test_extra_kong_discard_adds_the_fan(capsys: pytest.CaptureFixture[str]) -> None:
    _, without = _score([ALL_PUNGS, "--win-tile", "5m"], capsys)
    _, with_flag = _score([ALL_PUNGS, "--win-tile", "5m", "--extra", "kong_discard=true"], capsys)
    assert "kong-discard" not in _fans(without)
    assert _fans(with_flag) == _fans(without) | {"kong-discard"}
    assert int(str(with_flag["total"])) > int(str(without["total"]))


@pytest.mark.parametrize(
    ("extra", "quoted"),
    [("own_discards=ESWN", "'ESWN'"), ("kong_discard", "'kong_discard'"), ("=1", "'=1'")],
)
def test_bad_extras_get_a_clear_error(
    extra: str, quoted: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["score", "--rules", "qujing", ALL_PUNGS, "--win-tile", "5m", "--extra", extra])
    captured = capsys.readouterr()
    assert code == 2 and quoted in captured.err and "Traceback" not in captured.err


def test_jsonl_extras_pass_through_and_bad_ones_are_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        {"hand": HONOUR_HAND, "win_tile": "5s", "extras": {"own_discards": "ESWNCFPEES"}},
        {"hand": ALL_PUNGS, "win_tile": "5m", "extras": ["kong_discard"]},
        {"hand": HONOUR_HAND, "win_tile": "5s", "extras": {"own_discards": "ES?"}},
        {"hand": ALL_PUNGS, "win_tile": "5m", "extra": {}},
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(json.dumps(x) + "\n" for x in lines)))
    assert cli.main(["score", "--rules", "qujing", "--jsonl"]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["valid"] for r in results] == [True, False, False, False]
    assert _fans(results[0]) == {"ten-winds"}
    assert "'extras' must be a JSON object" in results[1]["error"]
    assert "ES?" in results[2]["error"]
    assert "unknown field(s) ['extra']" in results[3]["error"]
