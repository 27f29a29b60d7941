"""The rule set's contract: clear errors for impossible hands, options, settlement, doctests."""

from __future__ import annotations

import doctest
from typing import Any

import pytest

import engine.zungjung.payments
import engine.zungjung.rules
import engine.zungjung.values
from engine.notation import parse_hand, parse_tile
from engine.rulesets import ScoreResult, WinRequest, find_rules
from engine.zungjung import ZungJung

RULES = ZungJung()


def _score(hand: str, win: str, **flags: Any) -> ScoreResult:
    return RULES.score(WinRequest(parse_hand(hand), parse_tile(win), **flags))


@pytest.mark.parametrize(
    ("hand", "win", "flags", "message"),
    [
        ("1111m 222m 333m 44m 5m", "1m", {}, "5 copies of 1m"),
        ("123m 456m 789m 11p 22p 3p", "3p", {}, "needs 14 tiles"),
        ("123m 456m 789m 11p 2p", "3p", {}, "needs 14 tiles"),
        ("123m 456m 789m 11p 23s", "5s", {}, "not a winning hand"),
        ("123m 456m 789m 11p 22s", "2s", {"flowers": 2}, "no bonus tiles"),
        ("123m 456m 789m 11p 22s", "2s", {"self_drawn": True, "robbing_kong": True}, "robbing"),
    ],
)
def test_impossible_hands_get_a_clear_error(
    hand: str, win: str, flags: dict[str, Any], message: str
) -> None:
    result = _score(hand, win, **flags)
    assert not result.valid
    assert message in (result.error or "")
    assert result.to_json()["error"] == result.error


def test_bad_option_values_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown Zung Jung value profile 'v9'"):
        find_rules("zung-jung", profile="v9")
    with pytest.raises(ValueError, match=r"unknown Zung Jung pattern id '11\.1'"):
        ZungJung(values={"11.1": 5})
    with pytest.raises(ValueError, match="non-negative int"):
        ZungJung(values={"4.1": -3})


def test_json_shape_matches_the_mcr_contract() -> None:
    out = _score("[CCC] 11222333p 99m", "1p").to_json()
    assert set(out) == {"total", "valid", "fans", "payments", "error"}
    assert out["total"] == 170 and out["valid"] is True
    assert {"id": "5.1.3", "name": "Three Identical Sequences", "points": 120, "count": 1} in (
        out["fans"]
    )
    assert out["payments"]["discarder"] == 460 and out["payments"]["each_other"] == 25
    assert "immunity" in out["payments"]


def test_self_drawn_payments_have_only_each_other() -> None:
    payments = _score("[CCC] 11222333p 99m", "1p", self_drawn=True).to_json()["payments"]
    assert payments == {"each_other": 170}


def test_a_bad_discard_log_never_loses_the_win() -> None:
    extras = {"discards": [(0, "5m")], "seat": 3}  # does not end with the winning tile
    result = _score("[CCC] 11222333p 99m", "1p", extras=extras)
    assert result.valid and result.total == 170
    assert result.payments is not None
    assert "not applied" in result.payments.details["immunity"]
    assert RULES.settle(result, winner=3, discarder=1) == (-25, -460, -25, 510)


def test_settle_refuses_invalid_results_and_a_responsible_winner() -> None:
    with pytest.raises(ValueError, match="invalid result"):
        RULES.settle(ScoreResult(0, False, error="x"), winner=0, discarder=1)
    result = _score("[CCC] 11222333p 99m", "1p")
    with pytest.raises(ValueError, match="cannot be the responsible"):
        RULES.settle(result, winner=1, discarder=1)


def test_kong_replacement_win_is_paid_as_self_drawn() -> None:
    result = _score("[CCCC] 234s 567m 34p 99m", "5p", kong_replacement=True)
    assert result.total == 25  # 3.1 + 4.3.1 + 9.2
    assert RULES.settle(result, winner=0, discarder=None) == (75, -25, -25, -25)


@pytest.mark.parametrize(
    "module", [engine.zungjung.payments, engine.zungjung.rules, engine.zungjung.values]
)
def test_doctests(module: Any) -> None:
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0
