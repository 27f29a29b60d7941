"""Concealed kongs whose kind is not seen: laid all face down, shown at the hand's end.

Under the Chinese national rules a concealed kong lies face down in front of its owner and is
turned up only when the hand ends, so that the others can check it is not false; a camera sees
four backs. A :class:`engine.actions.ConcealedKong` without a tile is such a kong: it takes four
of the seat's unseen tiles, counts as a set (hand size, xianggong), pays what the rule set pays
for a concealed kong and draws its replacement from the back of the wall like any other.
:class:`engine.actions.ShowKong` names it later. A win while one is still face down is accepted
but not scored: the hand is not known. Where every tile of the seat is known (a record), a
tileless kong is the one four of a kind the seat holds.
"""

from __future__ import annotations

from engine.table_claims import ClaimsMixin
from engine.table_events import KongDeclared, KongShown
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
