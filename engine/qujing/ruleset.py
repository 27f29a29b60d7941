"""The ``qujing`` rule set: scoring, settlement and the table behaviour Qujing asks for.

Shared engine code finds it by name (``find_rules("qujing", **options)``) and reads its
properties and hooks; nothing outside this package knows it is Qujing.

>>> from engine.notation import parse_hand, parse_tile
>>> rules = QujingRuleSet()
>>> hand = parse_hand("111222333444m 5m")  # one colour + all pungs, waiting on 5m
>>> result = rules.score(WinRequest(hand=hand, win_tile=parse_tile("5m")))
>>> result.total, result.payments.discarder
(2, 8)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.qujing import hands
from engine.qujing.arrangements import DISCARD_STREAK, HandError, build_views
from engine.qujing.options import QujingOptions
from engine.qujing.patterns import WIN_EVENT_IDS, patterns_for
from engine.qujing.table_rules import QujingHandRules, next_dealer
from engine.qujing.view import colours
from engine.rulesets import FanScore, ScoreResult, WinRequest
from engine.scoring.evaluator import Evaluation, evaluate
from engine.table.rules_api import KONG_KINDS, TableRules


@dataclass(slots=True)
class QujingRuleSet:
    """Qujing mahjong (seed 002) under the readings in ``options`` (themselves immutable).

    Not frozen only because :class:`~engine.rulesets.RuleSet` declares plain attributes.
    """

    options: QujingOptions = field(default_factory=QujingOptions)
    name: str = "qujing"
    aliases: tuple[str, ...] = ("qj", "曲靖")
    allows_chow: bool = False
    max_winners_per_discard: int = 3

    # --- scoring ---------------------------------------------------------------------------
    def score(self, request: WinRequest) -> ScoreResult:
        """Score one win; bad or illegal hands give ``valid=False`` with the reason."""
        try:
            contexts = build_views(request, self.options)
        except HandError as exc:
            return ScoreResult(total=0, valid=False, error=str(exc))
        best = evaluate(patterns_for(self.options), contexts)
        if best is None or (best.context.shape == DISCARD_STREAK and not best.fans):
            hand = f"{request.hand} + {request.win_tile}"
            return ScoreResult(total=0, valid=False, error=f"not a winning hand: {hand!r}")
        return self._result(best)

    def _result(self, best: Evaluation) -> ScoreResult:
        ctx, total, fans = best.context, best.total, best.fans
        self_drawn = ctx.self_drawn or (
            ctx.shape == DISCARD_STREAK and self.options.winds_payment == "self-drawn"
        )
        if total == 0:
            plain = hands.PLAIN_WIN
            fans = (FanScore(plain.id, plain.name, plain.chinese, 0),)
            if not self_drawn:
                return self._invalid(fans, "a plain win (no fan) may only be self-drawn")
            if self.options.plain_win_needs_two_colours and len(colours(ctx.counts)) < 2:
                return self._invalid(fans, "a plain win needs tiles of at least two colours")
        elif (
            not self_drawn
            and not self.options.kong_fans_allow_discard_win
            and all(f.id in WIN_EVENT_IDS for f in fans)
        ):
            return self._invalid(fans, "kong fans alone do not allow a win on a discard")
        payments = hands.payments_for(total, self_drawn=self_drawn)
        return ScoreResult(total=total, valid=True, fans=fans, payments=payments)

    @staticmethod
    def _invalid(fans: tuple[FanScore, ...], why: str) -> ScoreResult:
        return ScoreResult(total=0, valid=False, fans=fans, error=why)

    def settle(
        self, result: ScoreResult, *, winner: int, discarder: int | None
    ) -> tuple[int, int, int, int]:
        """Score changes for one winner; a self-drawn-paid result ignores ``discarder``."""
        if not result.valid or result.payments is None:
            raise ValueError(f"cannot settle an invalid win: {result.error}")
        return hands.settle_payments(result.payments, winner=winner, discarder=discarder)

    def settle_many(
        self, results: list[tuple[int, ScoreResult]], *, discarder: int | None
    ) -> tuple[int, int, int, int]:
        """Several winners on one discard: the discarder pays each winner by his own hand."""
        return hands.settle_many(results, discarder=discarder)

    def kong_changes(
        self, kind: str, *, konger: int, discarder: int | None = None
    ) -> tuple[int, int, int, int]:
        """Score changes for a kong when it is made (exposed: the discarder pays, default 2)."""
        if kind not in KONG_KINDS:
            raise ValueError(f"kong kind must be one of {KONG_KINDS}, got {kind!r}")
        if kind == "exposed":
            if discarder is None:
                raise ValueError("an exposed kong needs the discarder of the claimed tile")
            return hands.kong_payment(
                self.options.exposed_kong_payment, 0, konger=konger, discarder=discarder
            )
        each = (
            self.options.concealed_kong_payment
            if kind == "concealed"
            else self.options.added_kong_payment
        )
        return hands.kong_payment(0, each, konger=konger, discarder=None)

    # --- table behaviour (engine.table.rules_api.TableRules hooks) ------------------------
    def hand_rules(self) -> QujingHandRules:
        """Fresh per-hand memory for the furiten, last-tiles and tail rules the table consults."""
        return QujingHandRules(self.options)

    def next_dealer(self, dealer: int, winners: list[int], *, discarder: int | None) -> int:
        """The first winner; the discarder when several won on one discard (§7)."""
        return next_dealer(dealer, winners, discarder=discarder, options=self.options)


def _offers_table_rules(rules: QujingRuleSet) -> TableRules:
    """Type check only: the rule set implements every table hook."""
    return rules


def make_rules(**options: Any) -> QujingRuleSet:
    """Registry factory: ``find_rules("qujing", tail_reading="bloom-only", ...)``."""
    return QujingRuleSet(QujingOptions.from_mapping(options))
