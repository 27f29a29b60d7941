"""The MCR (Chinese Official, 1998 national rules) rule set: scoring and settlement.

A win needs 8 points without flowers; flowers add 1 point each to the total. Settlement uses
base 8 (seed 001, §16.1 of the table-procedure digest): on a self-drawn win each other seat
pays 8 + F; on a discard the discarder pays 8 + F and the two others 8; robbing a kong, the
konger pays as the discarder. Penalty points are the table's business, not the scorer's.
"""

from __future__ import annotations

from typing import Any

from engine.mcr import fans_high, fans_low, fans_mid
from engine.mcr.shapes import mcr_arrangements, mcr_is_win, mcr_wait_candidates, prefer_on_tie
from engine.rulesets import Payments, ScoreResult, WinRequest, register
from engine.scoring.context import HandError, build_contexts
from engine.scoring.evaluator import Pattern, evaluate

FANS: tuple[Pattern, ...] = (*fans_high.FANS, *fans_mid.FANS, *fans_low.FANS)
FANS_BY_ID: dict[int | str, Pattern] = {f.id: f for f in FANS}
#: Chinese fan names as PyMahjongGB prints them, plus the shorter forms Botzone records use.
CHINESE_ALIASES: dict[str, int] = {"边张": 77, "嵌张": 78, "单钓将": 79, "坎张": 78}
MINIMUM = 8
BASE = 8

assert [f.id for f in FANS] == list(range(1, 82)), "MCR fans must be numbered 1-81 in order"


def fan_id_from_chinese(name: str) -> int:
    """The fan id for a Chinese fan name (PyMahjongGB's or Botzone's wording)."""
    for fan in FANS:
        if fan.chinese == name:
            return int(fan.id)
    if name in CHINESE_ALIASES:
        return CHINESE_ALIASES[name]
    raise KeyError(f"not an MCR fan name: {name!r}")


class MCRRules:
    """Chinese Official rules: 81 fans, 8-point minimum, base-8 settlement."""

    name: str = "mcr"
    aliases: tuple[str, ...] = ("chinese-official", "chinese official", "guobiao", "gb", "mcr-1998")
    allows_chow: bool = True
    max_winners_per_discard: int = 1
    minimum: int = MINIMUM
    base: int = BASE

    def __init__(self, *, reference_waits: bool = False, **options: Any) -> None:
        """``reference_waits=True`` counts a tile whose four copies the winner holds as a wait,
        as PyMahjongGB does (by default such a hand still has a unique wait)."""
        if options:
            raise TypeError(f"unknown MCR options: {sorted(options)}")
        self.reference_waits = reference_waits

    def score(self, request: WinRequest) -> ScoreResult:
        try:
            contexts = build_contexts(
                request,
                mcr_arrangements,
                is_win=mcr_is_win,
                wait_candidates=mcr_wait_candidates,
                live_waits_only=not self.reference_waits,
            )
        except HandError as exc:
            return ScoreResult(total=0, valid=False, error=str(exc))
        best = evaluate(FANS, contexts, prefer_on_tie)
        if best is None:  # build_contexts guarantees an arrangement; kept for type safety
            return ScoreResult(total=0, valid=False, error="not a winning hand")
        if best.base < MINIMUM:
            return ScoreResult(
                total=best.total,
                valid=False,
                fans=best.fans,
                error=f"false win: {best.base} points without flowers, {MINIMUM} needed",
            )
        if best.context.self_drawn:
            payments = Payments(each_other=BASE + best.total)
        else:
            payments = Payments(each_other=BASE, discarder=BASE + best.total)
        return ScoreResult(total=best.total, valid=True, fans=best.fans, payments=payments)

    def settle(
        self, result: ScoreResult, *, winner: int, discarder: int | None
    ) -> tuple[int, int, int, int]:
        """Score changes for seats 0-3; ``discarder`` is the konger for a robbed kong."""
        if not result.valid:
            raise ValueError(f"cannot settle an invalid win: {result.error}")
        if not 0 <= winner <= 3 or (discarder is not None and not 0 <= discarder <= 3):
            raise ValueError(f"seats are 0-3, got winner={winner} discarder={discarder}")
        if discarder == winner:
            raise ValueError("the winner cannot be the discarder")
        deltas = [0, 0, 0, 0]
        for seat in range(4):
            if seat == winner:
                continue
            pays = BASE + result.total if discarder in (None, seat) else BASE
            deltas[seat] -= pays
            deltas[winner] += pays
        return (deltas[0], deltas[1], deltas[2], deltas[3])


register(MCRRules.name, MCRRules, aliases=MCRRules.aliases, winning_shape=mcr_is_win)
