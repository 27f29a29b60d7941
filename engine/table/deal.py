"""Starting a hand and dealing: dealer and prevalent wind by the procedure's rotation, the wall
from the dice (and its order when known), tiles dealt per seat (known, unknown, or from the wall).
"""

from __future__ import annotations

from engine import actions as act
from engine.notation import format_tiles
from engine.procedures import find_procedure
from engine.table.core import TableContext
from engine.table.events import HandStarted, TilesDealt
from engine.table.hooks import Hooks
from engine.table.scoreboard import Scoreboard
from engine.table.seats import HandState, Phase
from engine.table.timing import TableTimer
from engine.table.wall import WallTracker
from engine.tiles import Tile, Wind
from engine.violations import ViolationKind


class Deal:
    """Starts hands and deals; stateless: what it sets up (hand, wall, clock) is the context's."""

    def __init__(self, ctx: TableContext, hooks: Hooks, scoreboard: Scoreboard) -> None:
        self.ctx, self.hooks, self.scoreboard = ctx, hooks, scoreboard

    def _abandon(self, hand: HandState) -> None:
        """The hand in play ends with no result; one with discards made is a referee's to settle
        (a win a camera could not read, a hand thrown in): it hears so."""
        if hand.discard_log:
            left = self.ctx.wall.live_left
            wall = f" ({left} live tiles left)" if left is not None else ""
            detail = (
                f"hand {hand.number} ended with no result after {len(hand.discard_log)}"
                f" discards{wall}: if it was won, enter the win as a correction of its last event"
            )
            self.ctx.violate(ViolationKind.HAND_ABANDONED, None, detail)
        self.scoreboard.end_hand(hand, "abandoned")

    def hand_start(self, action: act.HandStart) -> None:
        ctx, board, old = self.ctx, self.scoreboard, self.ctx.hand
        if old is not None and old.phase is not Phase.ENDED:
            self._abandon(old)
        if old is not None:
            for seat in old.unscored_wins:
                detail = f"hand {old.number}'s win was never scored: a kong stayed face down"
                ctx.violate(ViolationKind.KONG_NOT_SHOWN, seat, detail)
        if action.procedure is not None:
            ctx.procedure = find_procedure(action.procedure)
        dealer = action.dealer if action.dealer is not None else board.next_dealer
        if dealer not in range(4):
            ctx.violate(ViolationKind.BAD_ACTION, None, f"dealer {dealer!r} is not 0-3")
            dealer = board.next_dealer
        number = action.hand_number if action.hand_number is not None else board.hands_played + 1
        wind = action.prevalent_wind or ctx.procedure.prevailing_wind(number - 1) or Wind.EAST
        ctx.hand = HandState(number, ctx.procedure, dealer, wind, action.dice, turn=dealer)
        ctx.hand.rules_memory = self.hooks.table_rules.hand_rules()
        try:
            ctx.wall = WallTracker(ctx.procedure, action.wall, dice=action.dice, dealer=dealer)
        except ValueError as exc:
            ctx.violate(ViolationKind.BAD_ACTION, None, f"cannot build the wall: {exc}")
            ctx.wall = WallTracker(ctx.procedure, dealer=dealer)
        ctx.timer = TableTimer(ctx.procedure, action.at, dealer)
        ctx.emit(
            HandStarted,
            hand_number=number,
            procedure=ctx.procedure.name,
            dealer=dealer,
            prevalent_wind=wind,
            dice=action.dice,
            scores=tuple(board.scores),
        )

    def deal(self, action: act.Deal) -> None:
        hand = self.ctx.live_hand(action.seat)
        if hand is None:
            return
        count = len(action.tiles) if action.tiles is not None else action.count
        if count is None:
            count = 14 if action.seat == hand.dealer and self.ctx.procedure.has_wall_model else 13
        from_wall = self.ctx.wall.deal(action.seat, count)
        tiles: tuple[Tile | None, ...] = action.tiles or from_wall or (None,) * count
        if from_wall is not None and action.tiles is not None:
            known = [t for t in from_wall if t is not None]
            if len(from_wall) != len(tiles) or (known and sorted(known) != sorted(action.tiles)):
                detail = f"dealt {format_tiles(action.tiles)} where the wall deals {len(from_wall)}"
                self.ctx.violate(ViolationKind.WALL_MISMATCH, action.seat, detail)
        state = hand.seats[action.seat]
        for tile in tiles:
            state.add(tile)
        known_tiles = tuple(t for t in tiles if t is not None)
        shown = known_tiles if len(known_tiles) == len(tiles) else None
        self.ctx.emit(TilesDealt, seat=action.seat, count=len(tiles), tiles=shown)
        dealer = hand.seats[hand.dealer]
        hand.turn = hand.dealer
        hand.phase = Phase.DISCARD if dealer.size + len(dealer.flowers) >= 14 else Phase.DRAW
        self.ctx.check_copies(hand, known_tiles)
