"""Vision events to engine actions in partial-information mode.

The camera sees discards and melds, not draws or concealed hands: seats are dealt unknown tiles
and a discard not after the seat's claim follows an unknown draw. A concealed kong (or an added
kong) is made after its turn's draw; one laid face down has no tile. A flower set aside is shown
and replaced from the back at once (in its own turn after the turn's unseen draw). A revealed
hand becomes a declared win whose hand is the revealed tiles (less kongs turned face up) less
the winning tile when that can be told: the discard won on, or a self-drawn tile laid apart
(``win_tile``); a face-down kong turned up is first shown (``ShowKong``) as the kind the hand
holds four of, also after the win (the engine scores it once its last kong is shown). How the
hand ends when its table is cleared: :mod:`vision.hand_end`. Turns and inferred discards:
:mod:`vision.bridge_turns`; wins: :mod:`vision.bridge_wins` (a whole hand laid down out of turn
won on the discard of the seat due, which the camera never read)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import actions as act
from engine.procedures import Procedure, find_procedure
from engine.tiles import MeldKind, Tile
from vision.bridge_wins import WinReading
from vision.hand_end import cleared_ends, closing
from vision.observed import (
    ConcealedKongSeen,
    DiscardSeen,
    FaceDownKongSeen,
    FlowerSeen,
    HandRevealed,
    MeldSeen,
    Observed,
)
from vision.resume import live_hand, seen_state


class ActionBridge(WinReading):
    """Feed :meth:`actions` what :class:`vision.reader.TableReader` returns, in order.

    ``procedure``: the table's (a name or a :class:`Procedure`). Where it models the wall the
    dealer is dealt 14 and its first discard needs no draw; under ``log`` every seat gets 13
    and the dealer an unseen draw.
    """

    def __init__(self, procedure: str | Procedure = "log") -> None:
        found = find_procedure(procedure) if isinstance(procedure, str) else procedure
        self.procedure = found
        self._reset()

    def start(self, dealer: int = 0) -> list[act.Action]:
        self._reset(dealer)
        whole = self.procedure.has_wall_model  # the dealer's fourteenth tile is dealt
        if whole:
            self._drawn.add(dealer)
        # with a wall the engine deals the dealer 14 (a count it derives from the dealer, so a
        # corrected dealer moves them: tilesight.dealer_watch); else 13 each
        deals: list[act.Action] = [act.Deal(seat=s, count=None if whole else 13) for s in range(4)]
        return [act.HandStart(dealer=dealer), *deals]

    @property
    def played(self) -> bool:
        """A discard, claim, kong or reveal was read in this hand."""
        return self._played

    def resume(self, snapshot: Mapping[str, Any]) -> bool:
        """Carry on the engine's live hand (``snapshot``, public; a restart mid-hand): whose
        turn it is and whether it began, the last discard, each seat's exposed pungs and
        kongs. False, and nothing changed, when no hand is in play."""
        if not live_hand(snapshot):
            return False
        seen = seen_state(snapshot)
        self._reset(int(snapshot["hand"]["dealer"]))
        self._turn, self._last_discard = seen.turn, seen.live_discard
        if seen.begun:
            self._drawn.add(seen.turn)
        for seat, melds in enumerate(seen.melds):
            self._pungs[seat] = [m.first for m in melds if m.kind is MeldKind.PUNG]
            self._kongs[seat] = [m.first for m in melds if m.kind is MeldKind.CONCEALED_KONG]
            self._face_down[seat] = seen.observation.seats[seat].face_down_kongs
        return True

    def close(self, snapshot: Mapping[str, Any]) -> list[act.Action]:
        """What ends the hand a camera followed before the next starts (:func:`closing`)."""
        return closing(snapshot, self._won_on)

    def over(self, snapshot: Mapping[str, Any]) -> bool:
        """A table seen cleared ends the hand (:func:`cleared_ends`)."""
        return cleared_ends(snapshot, played=self._played)

    def actions(self, event: Observed) -> list[act.Action]:
        """The engine actions ``event`` makes (none for what is only for the referee)."""
        self._played = self._played or isinstance(event, PLAY)
        if isinstance(event, DiscardSeen):
            seat = event.seat
            out = [*self._missed_turns(seat), *self._own_draw(seat)]
            self._last_discard = (seat, event.tile)
            self._kong_added_since = False
            self._turn = (seat + 1) % 4
            return [*out, act.Discard(seat=seat, tile=event.tile, inferred=event.inferred)]
        if isinstance(event, FlowerSeen):
            return self._flower(event.seat, event.tile)
        if isinstance(event, MeldSeen):
            return self._meld(event)
        if isinstance(event, ConcealedKongSeen):
            seat = event.seat
            self._kongs.setdefault(seat, []).append(event.tile)
            own = [*self._missed_turns(seat), *self._own_draw(seat)]
            return [*own, act.ConcealedKong(seat=seat, tile=event.tile)]
        if isinstance(event, FaceDownKongSeen):
            self._face_down[event.seat] += 1
            own = [*self._missed_turns(event.seat), *self._own_draw(event.seat)]
            return [*own, act.ConcealedKong(seat=event.seat)]
        if isinstance(event, HandRevealed):
            return self._hand_revealed(event)
        return []

    def _flower(self, seat: int, tile: Tile) -> list[act.Action]:
        """A flower shown and replaced from the back; in the seat's turn, after its draw."""
        out: list[act.Action] = []
        if seat == self._turn and seat not in self._claimed and seat not in self._drawn:
            out = self._own_draw(seat)
            self._drawn.add(seat)
        return [*out, act.Flower(seat=seat, tile=tile), act.Draw(seat=seat, replacement=True)]

    def _meld(self, event: MeldSeen) -> list[act.Action]:
        seat, claimed = event.seat, event.claimed
        pungs = self._pungs.get(seat, [])
        if event.kind is MeldKind.KONG and claimed in pungs:  # its own pung grown in its turn
            pungs.remove(claimed)
            self._kong_added_since = True
            own = [*self._missed_turns(seat), *self._own_draw(seat)]
            self._turn = seat
            return [*own, act.AddedKong(seat=seat, tile=claimed)]
        self._turn = seat
        if event.kind is MeldKind.CHOW:
            self._claimed.add(seat)
            return [act.Chow(seat=seat, tiles=event.tiles, tile=claimed)]
        if event.kind is MeldKind.PUNG:
            self._claimed.add(seat)
            self._pungs.setdefault(seat, []).append(claimed)
            return [act.Pung(seat=seat, tile=claimed)]
        if event.kind is MeldKind.KONG:
            return [act.Kong(seat=seat, tile=claimed)]
        return []  # unreadable: no meld to make


#: Observations that show a hand is being played (not its deal).
PLAY = (DiscardSeen, MeldSeen, ConcealedKongSeen, FaceDownKongSeen, HandRevealed)
