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
from typing import Any

from engine.notation import Hand, format_hand, format_tiles
from engine.rulesets import ScoreResult, WinRequest
from engine.table.claims import ClaimsMixin
from engine.table.events import HandEnded, KongDeclared, KongShown, WinScored
from engine.table.seats import HandState, Phase
from engine.tiles import Meld, MeldKind, Tile
from engine.violations import ViolationKind

KONG = 4


class FaceDownKongsMixin(ClaimsMixin):
    def _concealed_kong_of(self, seat: int, tile: Tile | None) -> None:
        """A concealed kong of ``tile``, or of an unseen kind when ``tile`` is None."""
        if tile is not None:
            self._concealed_kong(seat, tile)
            return
        hand = self._live_hand(seat)
        if hand is None:
            return
        state = hand.seats[seat]
        if state.unknown < KONG:
            fours = [t for t, n in state.known.items() if n + state.unknown >= KONG]
            if len(fours) == 1:
                self._concealed_kong(seat, fours[0])  # a record: the kind follows
                return
            held = "no" if not fours else "more than one"
            self._violate(
                ViolationKind.TILE_NOT_IN_HAND, seat, f"holds {held} four of a kind to kong"
            )
            return
        self._own_kong_checks(hand, seat)
        state.unknown -= KONG
        state.face_down_kongs += 1
        hand.expect_replacement(seat, kong=True)
        paid = self._kong_payment(hand, "concealed", seat, None)
        self._emit(KongDeclared, seat=seat, meld=None, kind="concealed", deltas=paid)

    def _show_kong(self, seat: int, tile: Tile) -> None:
        """Turn one of the seat's face-down kongs up as a concealed kong of ``tile``; allowed
        after the hand ended too (the kongs are shown once it is over)."""
        hand = self._live_hand(seat, ended_ok=True)
        if hand is None:
            return
        state = hand.seats[seat]
        if state.face_down_kongs == 0:
            self._violate(ViolationKind.ILLEGAL_MELD, seat, "has no face-down kong to show")
            return
        if tile.is_flower:
            self._violate(ViolationKind.ILLEGAL_MELD, seat, f"cannot kong flower {tile}")
            return
        state.face_down_kongs -= 1
        meld = Meld(MeldKind.CONCEALED_KONG, (tile,) * KONG)
        state.melds.append(meld)
        self._emit(KongShown, seat=seat, meld=meld)
        self._check_copies(hand, (tile,))
        if state.face_down_kongs == 0 and seat in hand.unscored_wins:
            self._score_shown_win(hand, seat)

    def _score_shown_win(self, hand: HandState, seat: int) -> None:
        """Score a win accepted while ``seat``'s kongs lay face down, now that all are shown."""
        request, win_event, discarder = hand.unscored_wins.pop(seat)
        shown = Hand(request.hand.concealed, tuple(hand.seats[seat].melds))
        request = dataclasses.replace(request, hand=shown)
        result = self._score(request)
        if result is None or self.rules is None:
            return
        if not result.valid:
            why = result.error or f"{result.total} points"
            detail = f"with its kongs shown, not a legal win on {request.win_tile}: {why}"
            self._violate(ViolationKind.FALSE_WIN, seat, detail)
            return
        deltas = tuple(self.rules.settle(result, winner=seat, discarder=discarder))
        hand.deltas = [a + b for a, b in zip(hand.deltas, deltas, strict=True)]
        self._emit(
            WinScored,
            seat=seat,
            win_event=win_event,
            hand=format_hand(shown),
            score=score_json(result),
            deltas=deltas,
        )
        if hand.phase is Phase.ENDED:  # the totals published with the hand's end change
            self.scores = [s + d for s, d in zip(self.scores, deltas, strict=True)]
            net = [d - p for d, p in zip(hand.deltas, hand.penalties, strict=True)]
            self._emit(
                HandEnded,
                hand_number=hand.number,
                result="win",
                winners=tuple(hand.winners),
                deltas=tuple(net),
                penalties=tuple(hand.penalties),
                scores=tuple(self.scores),
            )

    def _score(self, request: WinRequest | None) -> ScoreResult | None:
        if self.rules is None or request is None:
            return None
        try:
            return self.rules.score(request)
        except Exception as exc:  # a rule set must not take the table down with it
            return ScoreResult(total=0, valid=False, error=f"scorer failed: {exc!r}")


def score_json(result: ScoreResult) -> dict[str, Any]:
    """ScoreResult.to_json() plus, per fan, the sets or tiles that produced it."""
    out = result.to_json()
    for entry, fan in zip(out["fans"], result.fans, strict=True):
        if fan.tiles:
            entry["sets"] = [format_tiles(group) for group in fan.tiles]
    return out
