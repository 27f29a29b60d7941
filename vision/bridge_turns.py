"""The camera bridge's turn keeping: whose turn it is, which seats' turns began without a
draw to give, and the discards the camera never read (inferred when a later seat plays)."""

from __future__ import annotations

from collections import Counter

from engine import actions as act
from engine.tiles import Tile


class TurnKeeping:
    """What :class:`vision.engine_bridge.ActionBridge` keeps of the hand it follows."""

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
