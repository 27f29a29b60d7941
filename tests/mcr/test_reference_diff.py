"""Differential test against PyMahjongGB over random winning hands of every shape and flag.

Fan lists must be identical except for the documented differences (docs/scoring.md):
1. one melded + one concealed kong: the seed's Melded Kong + Concealed Kong, where PyMahjongGB
   has its extra fan 82 "Concealed Kong and Melded Kong";
2. a "wait" on a tile whose four copies the winner holds is no wait (default rules only;
   ``reference_waits=True`` counts it as PyMahjongGB does, and then the lists are identical).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine.mcr.ruleset import FANS, FANS_BY_ID, MCRRules
from engine.rulesets import ScoreResult
from tests.mcr.handgen import RandomWin, random_win

mahjong_gb = pytest.importorskip("MahjongGB")
BY_NAME = {f.name: int(f.id) for f in FANS}
COMBINED_KONGS = "Concealed Kong and Melded Kong"
WAIT_FANS = {77, 78, 79}


def reference_fans(win: RandomWin) -> dict[int, int]:
    fans: Counter[int] = Counter()
    for points, count, chinese, english in mahjong_gb.MahjongFanCalculator(
        **win.reference_args(), verbose=True
    ):
        if english == COMBINED_KONGS:  # documented difference 1
            fans[74] += 1
            fans[67] += 1
            continue
        fan = FANS_BY_ID[BY_NAME[english]]
        assert (fan.chinese, fan.points) == (chinese, points), english
        fans[int(fan.id)] += count
    return dict(fans)


def ours(result: ScoreResult) -> dict[int, int]:
    return {int(f.id): f.count for f in result.fans}


def total(fans: dict[int, int]) -> int:
    return sum(FANS_BY_ID[i].points * n for i, n in fans.items())


def compare(hands: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    default, reference = MCRRules(), MCRRules(reference_waits=True)
    mismatches: list[str] = []
    shapes: Counter[str] = Counter()
    flags: Counter[str] = Counter()
    for _ in range(hands):
        win = random_win(rng)
        expected = reference_fans(win)
        like_reference = reference.score(win.request)
        got = ours(like_reference)
        if got != expected:
            mismatches.append(f"{win.request} ours={got} reference={expected}")
        plain = ours(default.score(win.request))
        if plain != got:
            # Only a wait the reference does not count can differ (and it may tip the choice
            # between equal arrangements).
            assert total(plain) - total(got) in (0, 1), (str(win.request.hand), plain, got)
            assert WAIT_FANS & plain.keys(), (str(win.request.hand), plain, got)
        shapes["melds" if win.request.hand.melds else "concealed"] += 1
        for flag in ("self_drawn", "last_of_kind", "last_tile", "kong_replacement", "robbing_kong"):
            flags[flag] += bool(getattr(win.request, flag))
        for fan in got:
            shapes[f"fan{fan}"] += 1
    return {"mismatches": mismatches, "shapes": shapes, "flags": flags}


def test_reference_agreement_quick() -> None:
    report = compare(1000, seed=7)
    assert report["mismatches"] == []


@pytest.mark.slow
def test_reference_agreement_10000_hands() -> None:
    report = compare(10_000, seed=2026)
    assert report["mismatches"] == []
    assert all(report["flags"][f] > 50 for f in report["flags"]), report["flags"]
    seen = {int(k[3:]) for k in report["shapes"] if k.startswith("fan")}
    assert seen >= set(range(1, 82)) - {43}, sorted(set(range(1, 82)) - seen)
