"""Starting a hand and dealing: dealer and prevalent wind by the procedure's rotation, the wall
from the dice (and its order when known), tiles dealt per seat (known, unknown, or from the wall).
"""

from __future__ import annotations

from engine import actions as act
from engine.notation import format_tiles
from engine.procedures import find_procedure
from engine.table.events import HandStarted, TilesDealt
from engine.table.history import HistoryMixin
from engine.table.seats import HandState, Phase
from engine.table.timing import TableTimer
from engine.table.wall import WallTracker
from engine.tiles import Tile, Wind
from engine.violations import ViolationKind


class DealMixin(HistoryMixin):
    # -- hand start and deal ----------------------------------------------------------------------
    def _abandon(self, hand: HandState) -> None:
        """The hand in play ends with no result; one with discards made is a referee's to settle
        (a win a camera could not read, a hand thrown in): it hears so."""
        if hand.discard_log:
            left = self.wall.live_left
            wall = f" ({left} live tiles left)" if left is not None else ""
            detail = (
                f"hand {hand.number} ended with no result after {len(hand.discard_log)}"
                f" discards{wall}: if it was won, enter the win as a correction of its last event"
            )
            self._violate(ViolationKind.HAND_ABANDONED, None, detail)
        self._end_hand(hand, "abandoned")

    def _hand_start(self, action: act.HandStart) -> None:
        if self.hand is not None and self.hand.phase is not Phase.ENDED:
            self._abandon(self.hand)
        if self.hand is not None:
            for seat in self.hand.unscored_wins:
                detail = f"hand {self.hand.number}'s win was never scored: a kong stayed face down"
                self._violate(ViolationKind.KONG_NOT_SHOWN, seat, detail)
        if action.procedure is not None:
            self.procedure = find_procedure(action.procedure)
        dealer = action.dealer if action.dealer is not None else self.next_dealer
        if dealer not in range(4):
            self._violate(ViolationKind.BAD_ACTION, None, f"dealer {dealer!r} is not 0-3")
            dealer = self.next_dealer
        number = action.hand_number if action.hand_number is not None else self.hands_played + 1
        wind = action.prevalent_wind or self.procedure.prevailing_wind(number - 1) or Wind.EAST
        self.hand = HandState(number, self.procedure, dealer, wind, action.dice, turn=dealer)
        self.hand.rules_memory = self.table_rules.hand_rules()
        try:
            self.wall = WallTracker(self.procedure, action.wall, dice=action.dice, dealer=dealer)
        except ValueError as exc:
            self._violate(ViolationKind.BAD_ACTION, None, f"cannot build the wall: {exc}")
            self.wall = WallTracker(self.procedure, dealer=dealer)
        self.timer = TableTimer(self.procedure, action.at, dealer)
        self._emit(
            HandStarted,
            hand_number=number,
            procedure=self.procedure.name,
            dealer=dealer,
            prevalent_wind=wind,
            dice=action.dice,
            scores=tuple(self.scores),
        )

    def _deal(self, action: act.Deal) -> None:
        hand = self._live_hand(action.seat)
        if hand is None:
            return
        count = len(action.tiles) if action.tiles is not None else action.count
        if count is None:
            count = 14 if action.seat == hand.dealer and self.procedure.has_wall_model else 13
        from_wall = self.wall.deal(action.seat, count)
        tiles: tuple[Tile | None, ...] = action.tiles or from_wall or (None,) * count
        if from_wall is not None and action.tiles is not None:
            known = [t for t in from_wall if t is not None]
            if len(from_wall) != len(tiles) or (known and sorted(known) != sorted(action.tiles)):
                detail = f"dealt {format_tiles(action.tiles)} where the wall deals {len(from_wall)}"
                self._violate(ViolationKind.WALL_MISMATCH, action.seat, detail)
        state = hand.seats[action.seat]
        for tile in tiles:
            state.add(tile)
        known_tiles = tuple(t for t in tiles if t is not None)
        shown = known_tiles if len(known_tiles) == len(tiles) else None
        self._emit(TilesDealt, seat=action.seat, count=len(tiles), tiles=shown)
        dealer = hand.seats[hand.dealer]
        hand.turn = hand.dealer
        hand.phase = Phase.DISCARD if dealer.size + len(dealer.flowers) >= 14 else Phase.DRAW
        self._check_copies(hand, known_tiles)
