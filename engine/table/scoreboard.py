"""The table's running totals across hands: scores, hands played and the next dealer.

A hand ends here (a win, a washout, an abandoned hand): its score changes less its penalties are
added to the totals, the rule set's table hooks (else the procedure) name the next dealer, and a
``hand_ended`` event carries the new totals. Open offers and a pending tail pick are judged first
(:class:`engine.table.hooks.Hooks`), since the tile on offer is gone with the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.table.core import TableContext
from engine.table.events import HandEnded
from engine.table.hooks import Hooks
from engine.table.seats import HandState, Phase


class Scoreboard:
    """Owns ``scores``, ``hands_played`` and ``next_dealer``."""

    #: What a strict-mode refusal rolls back and a correction adopts.
    STATE_FIELDS = ("scores", "hands_played", "next_dealer")

    def __init__(self, ctx: TableContext, hooks: Hooks) -> None:
        self.ctx, self.hooks = ctx, hooks
        self.scores = [0, 0, 0, 0]
        self.hands_played, self.next_dealer = 0, 0

    def state(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.STATE_FIELDS)

    def restore(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(self.STATE_FIELDS, state, strict=True):
            setattr(self, name, value)

    def adopt(self, other: Scoreboard) -> None:
        """Take the totals of a table that replayed a corrected history."""
        self.restore(other.state())

    def end_hand(self, hand: HandState, result: str) -> None:
        self.hooks.close_offer(hand)
        self.hooks.check_tail_pick(hand, hand.winners[0] if hand.winners else None)
        deltas = [d - p for d, p in zip(hand.deltas, hand.penalties, strict=True)]
        self.scores = [s + d for s, d in zip(self.scores, deltas, strict=True)]
        hand.phase = Phase.ENDED
        self.hands_played += 1
        winner = hand.winners[0] if hand.winners else None
        several = len(hand.winners) > 1 and hand.last_discard_win is not None
        discarder = hand.last_discard_win[0] if several and hand.last_discard_win else None
        ruled = self.hooks.table_rules.next_dealer(
            hand.dealer, list(hand.winners), discarder=discarder
        )
        self.next_dealer = (
            ruled if ruled is not None else self.ctx.procedure.next_dealer(hand.dealer, winner)
        )
        self._hand_ended(hand, result, deltas)

    def late_win(self, hand: HandState, deltas: Sequence[int]) -> None:
        """A win scored after its hand ended (its kongs shown): the totals change again."""
        self.scores = [s + d for s, d in zip(self.scores, deltas, strict=True)]
        net = [d - p for d, p in zip(hand.deltas, hand.penalties, strict=True)]
        self._hand_ended(hand, "win", net)

    def _hand_ended(self, hand: HandState, result: str, deltas: Sequence[int]) -> None:
        self.ctx.emit(
            HandEnded,
            hand_number=hand.number,
            result=result,
            winners=tuple(hand.winners),
            deltas=tuple(deltas),
            penalties=tuple(hand.penalties),
            scores=tuple(self.scores),
        )
