"""A hand laid down, read as a win: self-drawn (its draw unseen), on the last discard read, or
on a discard the camera never read; face-down kongs turned up with it; a hand laid again."""

from __future__ import annotations

from collections import Counter

from engine import actions as act
from engine.notation import Hand
from engine.tiles import Tile
from vision.bridge_turns import TurnKeeping
from vision.observed import HandRevealed


class WinReading(TurnKeeping):
    """The wins of :class:`vision.engine_bridge.ActionBridge` (see its module's docstring)."""

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
            if self._won_on_unseen(seat, event):
                missed = self._unseen_discard_won(seat)
                self._declared[seat] = Counter(revealed)
                return [*missed, *shows, act.Win(seat=seat, hand=Hand(tuple(revealed)))]
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

    def _won_on_unseen(self, seat: int, event: HandRevealed) -> bool:
        """A whole hand laid down out of turn, no tile laid apart, by a seat whose win the last
        discard read cannot make (its own, or one still in its river): it won on the discard of
        the seat due, which the camera never read (taken at once into the hand). Measured in
        the full camera-only run (wsom hand 17): the win went to the winner's own discard."""
        due = self._turn != seat and seat not in self._drew_to_win
        return due and event.win_tile is None and not self._kong_added_since

    def _unseen_discard_won(self, seat: int) -> list[act.Action]:
        """The due seat's draw (unless its turn began) and its discard no camera read; the
        engine tells the tile from the hand declared on it."""
        discarder = self._turn
        self._drew_to_win.add(seat)
        out = [*self._own_draw(discarder), act.Discard(seat=discarder, tile=None, inferred=True)]
        self._turn, self._last_discard = (discarder + 1) % 4, None
        return out

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
            # the discard taken and of a kind laid: perhaps laid in, a tile of the hand unread
            unread = taken and discard[1] in revealed
            hand = Hand(tuple(revealed))
            return act.Win(seat=seat, tile=discard[1], hand=hand, one_unread=unread)
        if discard and discard[0] != seat and discard[1] in revealed:
            rest = list(revealed)
            rest.remove(discard[1])
            return act.Win(seat=seat, tile=discard[1], hand=Hand(tuple(rest)))
        return act.Win(seat=seat)


def _take_four(tiles: list[Tile], tile: Tile) -> bool:
    """Remove four copies of ``tile`` from ``tiles`` when it holds them."""
    if tiles.count(tile) < 4:
        return False
    for _ in range(4):
        tiles.remove(tile)
    return True
