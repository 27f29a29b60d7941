"""Vision events to engine actions in partial-information mode.

The camera sees discards and melds, not draws or concealed hands: seats are dealt unknown tiles
and a discard not after the seat's claim follows an unknown draw. A concealed kong (or an added
kong) is made after its turn's draw; one laid face down has no tile. A flower set aside is shown
and replaced from the back at once (in its own turn after the turn's unseen draw). A revealed
hand becomes a declared win whose hand is the revealed tiles (less kongs turned face up) less
the winning tile when that can be told: the discard won on, or a self-drawn tile laid apart
(``win_tile``); a face-down kong turned up is first shown (``ShowKong``) as the kind the hand
holds four of, also after the win (the engine scores it once its last kong is shown). How the
hand ends when its table is cleared: :mod:`vision.hand_end`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine import actions as act
from engine.notation import Hand
from engine.procedures import Procedure, find_procedure
from engine.tiles import MeldKind, Tile
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


class ActionBridge:
    """Feed :meth:`actions` what :class:`vision.reader.TableReader` returns, in order.

    ``procedure``: the table's (a name or a :class:`Procedure`). Where it models the wall the
    dealer is dealt 14 and its first discard needs no draw; under ``log`` every seat gets 13
    and the dealer an unseen draw.
    """

    def __init__(self, procedure: str | Procedure = "log") -> None:
        found = find_procedure(procedure) if isinstance(procedure, str) else procedure
        self.procedure = found
        self._reset()

    def _reset(self, dealer: int = 0) -> None:
        """Forget the hand before: one bridge reads hand after hand at the same table."""
        self._claimed: set[int] = set()
        self._turn = dealer  # the seat whose turn it is (the dealer's first)
        self._drawn: set[int] = set()  # seats whose turn's draw was given before a flower
        self._last_discard: tuple[int, Tile] | None = None
        self._kong_added_since = False  # a kong added since the last discard (it can be robbed)
        self._drew_to_win: set[int] = set()  # seats given their unseen winning draw
        self._kongs: dict[int, list[Tile]] = {}
        self._face_down = [0, 0, 0, 0]  # kongs laid face down and not yet shown, per seat
        self._revealed: dict[int, list[Tile]] = {}  # the hand each winner laid down, as read
        self._declared: dict[int, Counter[Tile]] = {}  # each winner's declared hand, all tiles
        self._shown: dict[int, list[Tile]] = {}  # face-down kongs shown, by kind
        self._pungs: dict[int, list[Tile]] = {}  # each seat's exposed pungs, by kind
        self._won_on: dict[int, Tile] = {}  # each winner's winning tile as read (see close)
        self._played = False  # a discard, claim, kong or reveal was read this hand

    def start(self, dealer: int = 0) -> list[act.Action]:
        self._reset(dealer)
        whole = self.procedure.has_wall_model  # the dealer's fourteenth tile is dealt
        if whole:
            self._drawn.add(dealer)
        counts = [14 if whole and seat == dealer else 13 for seat in range(4)]
        deals: list[act.Action] = [act.Deal(seat=seat, count=counts[seat]) for seat in range(4)]
        return [act.HandStart(dealer=dealer), *deals]

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
        self._played = self._played or isinstance(event, _PLAY)
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

    def _hand_revealed(self, event: HandRevealed) -> list[act.Action]:
        """A hand laid down: a win, or (laid again) kongs turned up since and the win again."""
        seat, revealed = event.seat, list(event.tiles)
        turned_up = self._face_down[seat] - event.face_down_kongs
        earlier = self._revealed.get(seat)
        self._revealed[seat] = list(revealed)
        if earlier is not None:  # already won: only kongs turned up since then are news
            new = list((Counter(revealed) - Counter(earlier)).elements())
            shows = self._shown_kongs(seat, new, turned_up)
            return [*shows, *self._redeclared(seat, event, revealed)]
        return self._revealed_win(seat, event, revealed, turned_up)

    def _revealed_win(
        self, seat: int, event: HandRevealed, revealed: list[Tile], turned_up: int
    ) -> list[act.Action]:
        """A first reveal: kongs turned up with it shown, then the win."""
        kongs = sum(_take_four(revealed, tile) for tile in self._kongs.get(seat, []))
        shows = self._shown_kongs(seat, revealed, turned_up, list(event.fours_apart))
        sets = event.sets + kongs + len(shows)
        short = len(revealed) + 3 * sets == 13
        if not short and self._self_drawn(seat, event, revealed):
            win = self._self_drawn_win(seat, revealed, event.win_tile)
            return [*self._winning_draw(seat), *shows, win]
        taken = event.discard_in_river is not True  # seen gone from its river
        return [*shows, self._win(seat, revealed, short=short, taken=taken)]

    def _self_drawn(self, seat: int, event: HandRevealed, whole: list[Tile]) -> bool:
        """A whole hand laid down was self-drawn (its draw unseen): the last discard still lies
        in its river, or no tile of its kind is in the hand (and no kong was added since, which
        the seat may have robbed)."""
        if event.discard_in_river is True:
            return True
        discard = self._last_discard
        taken = discard is not None and discard[0] != seat and discard[1] in whole
        return not taken and not self._kong_added_since

    def _winning_draw(self, seat: int) -> list[act.Action]:
        """The unseen draw a self-drawn win was made on, once (a hand declared again, first
        read with a tile wrong or short, was drawn for already); discards missed before it."""
        if seat in self._drew_to_win:
            return []
        self._drew_to_win.add(seat)
        return [*self._missed_turns(seat), *self._own_draw(seat)]

    def _self_drawn_win(self, seat: int, whole: list[Tile], tile: Tile | None) -> act.Action:
        """The whole hand declared, won on the tile laid apart (``tile``) when there is one;
        else the engine takes the winning tile that scores the most."""
        self._declared[seat] = Counter(whole)
        if tile is not None:
            self._won_on[seat] = tile
        if tile is None or tile not in whole:
            return act.Win(seat=seat, hand=Hand(tuple(whole)))
        rest = list(whole)
        rest.remove(tile)
        return act.Win(seat=seat, tile=tile, hand=Hand(tuple(rest)))

    def _redeclared(self, seat: int, event: HandRevealed, revealed: list[Tile]) -> list[act.Action]:
        """A later reveal that completes a hand first seen one tile short (a tile under a hand)
        and differs from the hand declared then: the win again, with the whole hand."""
        rest = list(revealed)
        turned = [*self._kongs.get(seat, []), *self._shown.get(seat, [])]
        kongs = sum(_take_four(rest, tile) for tile in turned)
        sets = event.sets + kongs
        whole = len(rest) + 3 * sets == 14
        if not whole or seat not in self._declared or self._declared[seat] == Counter(rest):
            return []
        if self._self_drawn(seat, event, rest):  # a tile misread or short, not the discard
            win = self._self_drawn_win(seat, rest, event.win_tile)
            return [*self._winning_draw(seat), win]
        taken = event.discard_in_river is not True
        return [self._win(seat, rest, short=False, taken=taken)]

    def _own_draw(self, seat: int) -> list[act.Action]:
        """The unknown draw that begins the seat's turn, unless a chow or pung began it or it
        was given before a flower (after a kong, the replacement draw comes before the seat's
        next discard)."""
        begun = seat in self._claimed or seat in self._drawn
        out: list[act.Action] = [] if begun else [act.Draw(seat=seat)]
        self._claimed.discard(seat)
        self._drawn.discard(seat)
        return out

    def _missed_turns(self, seat: int) -> list[act.Action]:
        """Discards the camera never read: ``seat`` plays in its own turn while one or two seats
        before it are still due, so each of them drew (unless it had claimed) and discarded a
        tile no one saw (``inferred``). A seat three ahead (the last discarder again) is left
        to the engine: no camera misses three discards in a row."""
        skipped = (seat - self._turn) % 4
        if skipped not in (1, 2):
            return []
        out: list[act.Action] = []
        for missed in (self._turn + k for k in range(skipped)):
            due = missed % 4
            out += [*self._own_draw(due), act.Discard(seat=due, tile=None, inferred=True)]
        self._turn, self._last_discard = seat, None
        return out

    def _flower(self, seat: int, tile: Tile) -> list[act.Action]:
        """A flower shown and replaced from the back; in the seat's turn, after its draw."""
        out: list[act.Action] = []
        if seat == self._turn and seat not in self._claimed and seat not in self._drawn:
            out = self._own_draw(seat)
            self._drawn.add(seat)
        return [*out, act.Flower(seat=seat, tile=tile), act.Draw(seat=seat, replacement=True)]

    def _shown_kongs(
        self, seat: int, revealed: list[Tile], turned_up: int, apart: list[Tile] | None = None
    ) -> list[act.Action]:
        """The face-down kongs turned up with the hand: each the kind ``revealed`` holds four
        of (those four taken out of it), a four laid ``apart`` from the rest first."""
        out: list[act.Action] = []
        for _ in range(max(turned_up, 0)):
            kinds = [*(apart or []), *dict.fromkeys(revealed)]
            kind = next((t for t in kinds if revealed.count(t) >= 4), None)
            if kind is None:
                break
            _take_four(revealed, kind)
            self._face_down[seat] -= 1
            self._shown.setdefault(seat, []).append(kind)
            out.append(act.ShowKong(seat=seat, tile=kind))
        return out

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

    def _win(self, seat: int, revealed: list[Tile], *, short: bool, taken: bool) -> act.Action:
        """``revealed``: the hand laid down, its kongs already taken out; ``short``: one tile
        short of a whole hand, so the discard won on is not laid yet (or a tile is hidden);
        ``taken``: the discard is no longer seen in its river (so it stands as the tile won
        on should the engine refuse the hand as read: :meth:`close`)."""
        self._declared[seat] = Counter(revealed)
        discard = self._last_discard
        if discard and discard[0] != seat and taken:
            self._won_on[seat] = discard[1]
        if discard and discard[0] != seat and short:
            self._declared[seat][discard[1]] += 1
            return act.Win(seat=seat, tile=discard[1], hand=Hand(tuple(revealed)))
        if discard and discard[0] != seat and discard[1] in revealed:
            rest = list(revealed)
            rest.remove(discard[1])
            return act.Win(seat=seat, tile=discard[1], hand=Hand(tuple(rest)))
        return act.Win(seat=seat)


#: Observations that show a hand is being played (not its deal).
_PLAY = (DiscardSeen, MeldSeen, ConcealedKongSeen, FaceDownKongSeen, HandRevealed)


def _take_four(tiles: list[Tile], tile: Tile) -> bool:
    """Remove four copies of ``tile`` from ``tiles`` when it holds them."""
    if tiles.count(tile) < 4:
        return False
    for _ in range(4):
        tiles.remove(tile)
    return True
