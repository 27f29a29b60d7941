"""The ``zung-jung`` rule set: Alan Kwan's Zung Jung v3.3, the World Mahjong Contest's scoring.

Scoring: the shared decomposer gives every arrangement (4 sets + pair, Seven Pairs, Thirteen
Terminals), the shared evaluator scores each with the 44 declared units, the limit rule is applied
to each (a listed limit alone, otherwise the sum capped at the limit), and the best value wins
(Freedom of Count, compared after the limit: digest §5.6). A hand under ``minimum`` is a false win.

Settlement: the formal-competition scheme with same-round immunity (:mod:`.payments`). Pass the
hand's discards as ``WinRequest.extras["discards"]`` (``(seat, tile)`` pairs, the winning discard
last; a robbed kong's added tile counts as the konger's discard) and the winner's seat as
``extras["seat"]`` (engine.table passes both) to have the responsible player found; without
them the discarder is responsible.

>>> from engine.notation import parse_hand, parse_tile
>>> from engine.tiles import Wind
>>> rules = ZungJung()
>>> result = rules.score(WinRequest(parse_hand("222s444m666p888pW"), parse_tile("W"),
...                                 self_drawn=True, seat_wind=Wind.SOUTH))
>>> result.total, [f.id for f in result.fans]
(160, ['1.2', '4.1', '4.2.3'])
>>> rules.settle(result, winner=1, discarder=None)
(-160, 480, -160, -160)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.rulesets import Payments, ScoreResult, WinRequest, register
from engine.scoring.context import HandError, build_contexts
from engine.scoring.decompose import common_arrangements
from engine.scoring.evaluator import Evaluation, evaluate
from engine.zungjung.patterns import build_patterns
from engine.zungjung.payments import (
    DISCARDS_KEY,
    WINNER_KEY,
    DiscardHistoryError,
    find_responsible,
    responsible_payment,
    split_payments,
)
from engine.zungjung.values import CHICKEN, build_value_table


class ZungJung:
    """Zung Jung scoring and formal-competition settlement, configured by keyword options.

    ``profile`` ("v3.3" or "mahjongtime-legacy") and ``values`` (per-pattern overrides) choose
    the pattern values; ``minimum`` is the least total that may win (5 by default, the WSOM 2007
    profile: a chicken hand is a false win; 0 allows chicken hands worth ``chicken`` points).
    """

    name: str = "zung-jung"
    aliases: tuple[str, ...] = ("zj", "zungjung", "wmc", "wsom-scoring")
    allows_chow: bool = True
    max_winners_per_discard: int = 1  # competing claims are resolved by interception

    def __init__(
        self,
        profile: str = "v3.3",
        values: Mapping[str, int] | None = None,
        *,
        minimum: int = 5,
        limit: int = 320,
        maximum: int = 480,
        chicken: int = 1,
    ) -> None:
        self.table = build_value_table(
            profile, values, limit=limit, maximum=maximum, chicken=chicken, minimum=minimum
        )
        self.patterns = build_patterns(self.table)

    @property
    def minimum(self) -> int:
        return self.table.minimum

    def score(self, request: WinRequest) -> ScoreResult:
        try:
            if request.flowers:
                raise HandError(f"Zung Jung uses no bonus tiles; got flowers={request.flowers}")
            contexts = build_contexts(request, common_arrangements)
        except HandError as exc:
            return ScoreResult(0, False, error=str(exc))
        best: tuple[int, Evaluation] | None = None
        for ctx in contexts:
            evaluation = evaluate(self.patterns, [ctx])
            if evaluation is None:
                continue
            value = self.limited(evaluation)
            if best is None or value > best[0]:
                best = (value, evaluation)
        if best is None:  # every arrangement is a shape Zung Jung does not score
            return ScoreResult(0, False, error=f"not a Zung Jung winning hand: {request.hand}")
        value, evaluation = best
        fans = evaluation.fans
        if value < self.table.minimum:
            why = "a chicken hand" if fans and fans[0].id == CHICKEN.id else f"{value} points"
            return ScoreResult(
                value,
                False,
                fans,
                error=f"false win: {why} is under the {self.table.minimum}-point minimum",
            )
        return ScoreResult(value, True, fans, self._payments(value, request))

    def limited(self, evaluation: Evaluation) -> int:
        """The value of one arrangement after the limit rule (digest §1.1 rule 4)."""
        listed = [f.points for f in evaluation.fans if f.points >= self.table.limit]
        if listed:  # the listed-limit excludes leave it alone; cap overridden values anyway
            return min(max(listed), self.table.maximum)
        return min(evaluation.total, self.table.limit)

    def _payments(self, value: int, request: WinRequest) -> Payments:
        if request.self_drawn or request.kong_replacement:
            return Payments(each_other=value)
        share, other = responsible_payment(value)
        history = request.extras.get(DISCARDS_KEY)
        if history is None:
            note = "no discard history given: the discarder is responsible"
            return Payments(each_other=other, discarder=share, details={"immunity": note})
        try:
            outcome = find_responsible(
                history, winner=self._winner(request), win_tile=request.win_tile
            )
        except DiscardHistoryError as exc:  # never lose a real win to a bad log
            note = f"not applied, the discarder is responsible: {exc}"
            return Payments(each_other=other, discarder=share, details={"immunity": note})
        if outcome.responsible is None:
            share = other = value
        thrower = history[-1][0]
        details: dict[str, Any] = outcome.to_details() | {"responsible_pays": share}
        pays = share if outcome.responsible in (None, thrower) else other
        return Payments(each_other=other, discarder=pays, details=details)

    @staticmethod
    def _winner(request: WinRequest) -> int:
        winner = request.extras.get(WINNER_KEY, int(request.seat_wind))
        if not isinstance(winner, int) or isinstance(winner, bool) or not 0 <= winner < 4:
            raise DiscardHistoryError(f"extras[{WINNER_KEY!r}] must be a seat 0-3, got {winner!r}")
        return winner

    def settle(
        self, result: ScoreResult, *, winner: int, discarder: int | None
    ) -> tuple[int, int, int, int]:
        """Score changes for seats 0-3; the responsible player comes from the immunity check
        recorded in ``result.payments`` when there was one, otherwise the discarder."""
        if not result.valid:
            raise ValueError(f"cannot settle an invalid result: {result.error}")
        responsible = discarder
        details = result.payments.details if result.payments else {}
        if discarder is not None and "responsible" in details:
            responsible = details["responsible"]
        if responsible == winner:
            raise ValueError(f"the winner (seat {winner}) cannot be the responsible player")
        return split_payments(result.total, winner=winner, responsible=responsible)


def _factory(**options: Any) -> ZungJung:
    return ZungJung(**options)


register(ZungJung.name, _factory, aliases=ZungJung.aliases)
