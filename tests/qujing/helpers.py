"""Helpers for Qujing tests: build a WinRequest from notation and score it."""

from __future__ import annotations

from typing import Any

from engine.notation import parse_hand, parse_tile
from engine.qujing import QujingRuleSet
from engine.rulesets import ScoreResult, WinRequest


def request(hand: str, win: str, **flags: Any) -> WinRequest:
    extras = {k: flags.pop(k) for k in ("own_discards", "kong_discard") if k in flags}
    return WinRequest(hand=parse_hand(hand), win_tile=parse_tile(win), extras=extras, **flags)


def score(hand: str, win: str, rules: QujingRuleSet | None = None, **flags: Any) -> ScoreResult:
    return (rules or QujingRuleSet()).score(request(hand, win, **flags))


def fan_ids(result: ScoreResult) -> list[str]:
    return sorted(str(f.id) for f in result.fans)
