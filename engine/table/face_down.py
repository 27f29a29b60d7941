"""Concealed kongs whose kind is not seen: laid all face down, shown at the hand's end.

Under the Chinese national rules a concealed kong lies face down in front of its owner and is
turned up only when the hand ends, so that the others can check it is not false; a camera sees
four backs. A :class:`engine.actions.ConcealedKong` without a tile is such a kong: it takes four
of the seat's unseen tiles, counts as a set (hand size, xianggong), pays what the rule set pays
for a concealed kong and draws its replacement from the back of the wall like any other.
:class:`engine.actions.ShowKong` names it later. A win while one is still face down is accepted
but not scored: the hand is not known until its kongs are shown; the last one shown scores it
(``win_scored``, then a ``hand_ended`` with the new totals when the hand was over), or finds it
a false win. Where every tile of the seat is known (a record), a tileless kong is the one four
of a kind the seat holds.
"""

from __future__ import annotations

import dataclasses

from engine.json_forms import hand_to_json
from engine.notation import Hand
from engine.table.claims import Claims
from engine.table.core import TableContext
from engine.table.events import KongDeclared, KongShown, WinScored
from engine.table.hooks import Hooks
from engine.table.scoreboard import Scoreboard
from engine.table.seats import HandState, Phase
from engine.table.win_request import score, score_json
from engine.tiles import Meld, MeldKind, Tile
from engine.violations import ViolationKind

KONG = 4


class FaceDownKongs:
    """Kongs laid face down and shown later; stateless: the count is the seat's
    (``SeatState.face_down_kongs``), the wins they hold unscored the hand's."""

    def __init__(
        self, ctx: TableContext, hooks: Hooks, claims: Claims, scoreboard: Scoreboard
    ) -> None:
        self.ctx, self.hooks, self.claims, self.scoreboard = ctx, hooks, claims, scoreboard

    def concealed_kong_of(self, seat: int, tile: Tile | None) -> None:
        """A concealed kong of ``tile``, or of an unseen kind when ``tile`` is None."""
        if tile is not None:
            self.claims.concealed_kong(seat, tile)
            return
        hand = self.ctx.live_hand(seat)
        if hand is None:
            return
        state = hand.seats[seat]
        if state.unknown < KONG:
            fours = [t for t, n in state.known.items() if n + state.unknown >= KONG]
            if len(fours) == 1:
                self.claims.concealed_kong(seat, fours[0])  # a record: the kind follows
                return
            held = "no" if not fours else "more than one"
            self.ctx.violate(
                ViolationKind.TILE_NOT_IN_HAND, seat, f"holds {held} four of a kind to kong"
            )
            return
        self.claims.own_kong_checks(hand, seat)
        state.unknown -= KONG
        state.face_down_kongs += 1
        hand.expect_replacement(seat, kong=True)
        paid = self.hooks.kong_payment(hand, "concealed", seat, None)
        self.ctx.emit(KongDeclared, seat=seat, meld=None, kind="concealed", deltas=paid)

    def show_kong(self, seat: int, tile: Tile) -> None:
        """Turn one of the seat's face-down kongs up as a concealed kong of ``tile``; allowed
        after the hand ended too (the kongs are shown once it is over)."""
        hand = self.ctx.live_hand(seat, ended_ok=True)
        if hand is None:
            return
        state = hand.seats[seat]
        if state.face_down_kongs == 0:
            self.ctx.violate(ViolationKind.ILLEGAL_MELD, seat, "has no face-down kong to show")
            return
        if tile.is_flower:
            self.ctx.violate(ViolationKind.ILLEGAL_MELD, seat, f"cannot kong flower {tile}")
            return
        state.face_down_kongs -= 1
        meld = Meld(MeldKind.CONCEALED_KONG, (tile,) * KONG)
        state.melds.append(meld)
        self.ctx.emit(KongShown, seat=seat, meld=meld)
        self.ctx.check_copies(hand, (tile,))
        if state.face_down_kongs == 0 and seat in hand.unscored_wins:
            self.score_shown_win(hand, seat)

    def score_shown_win(self, hand: HandState, seat: int) -> None:
        """Score a win accepted while ``seat``'s kongs lay face down, now that all are shown."""
        request, win_event, discarder = hand.unscored_wins.pop(seat)
        shown = Hand(request.hand.concealed, tuple(hand.seats[seat].melds))
        request = dataclasses.replace(request, hand=shown)
        result = score(self.ctx.rules, request)
        if result is None or self.ctx.rules is None:
            return
        if not result.valid:
            why = result.error or f"{result.total} points"
            detail = f"with its kongs shown, not a legal win on {request.win_tile}: {why}"
            self.ctx.violate(ViolationKind.FALSE_WIN, seat, detail)
            return
        deltas = tuple(self.ctx.rules.settle(result, winner=seat, discarder=discarder))
        hand.deltas = [a + b for a, b in zip(hand.deltas, deltas, strict=True)]
        self.ctx.emit(
            WinScored,
            seat=seat,
            win_event=win_event,
            hand=hand_to_json(shown),
            score=score_json(result),
            deltas=deltas,
        )
        if hand.phase is Phase.ENDED:  # the totals published with the hand's end change
            self.scoreboard.late_win(hand, deltas)
