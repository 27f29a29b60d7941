"""Draws and discards: whose turn it is, the hand size, the wall, the river's order.

A draw out of turn, a discard of a tile the seat does not hold, a river tile seen out of place
are violations and play goes on; a discard no camera read (``tile`` None) still passes the turn.
"""

from __future__ import annotations

from engine import actions as act
from engine.table.core import TableContext
from engine.table.events import TileDiscarded, TileDrawn
from engine.table.hooks import Hooks
from engine.table.seats import RIVER_ROW, HandState, Phase
from engine.tiles import Tile
from engine.violations import ViolationKind


class Turns:
    """Draws and discards; stateless: the turn, the rivers and the live discard are the hand's."""

    def __init__(self, ctx: TableContext, hooks: Hooks) -> None:
        self.ctx, self.hooks = ctx, hooks

    def draw(self, action: act.Draw) -> None:
        seat = action.seat
        hand = self.ctx.live_hand(seat)
        if hand is None:
            return
        self.hooks.close_offer(hand)
        live_before = self.ctx.wall.live_left
        pending = hand.pending_replacements[seat]
        replacement = action.replacement if action.replacement is not None else pending > 0
        after_kong = replacement and hand.kongs_awaiting_replacement[seat] > 0
        if replacement:
            if pending:
                hand.expect_replacement(seat, kong=after_kong, count=-1)
            else:
                self.ctx.violate(ViolationKind.OUT_OF_TURN, seat, "replacement draw without a kong")
        else:
            if hand.phase is not Phase.DRAW or hand.turn != seat:
                due = f"seat {hand.turn} to {hand.phase.value}"
                self.ctx.violate(ViolationKind.OUT_OF_TURN, seat, f"drew while it is {due}")
            self.ctx.check_size(hand, seat, 13)
        tile, problem = self.ctx.wall.draw(replacement, action.tile)
        if problem is not None and problem.startswith("exhausted"):
            self.ctx.violate(ViolationKind.WALL_EXHAUSTED, seat, problem.partition(": ")[2])
        elif problem is not None:
            self.ctx.violate(ViolationKind.WALL_MISMATCH, seat, problem)
        state = hand.seats[seat]
        state.add(tile)
        state.last_drawn = tile
        if not replacement or seat == hand.turn:  # initial flower replacements keep the turn
            if not replacement and hand.live_discard is not None:
                hand.draw_after_discard = (seat, tile, hand.live_discard)
            else:
                hand.draw_after_discard = None
            hand.live_discard, hand.claim, hand.pending_kong = None, None, None
            hand.unseen_discard = None
            hand.turn, hand.phase = seat, Phase.DISCARD
            hand.turn_began_with_claim = False
            hand.kong_replacement_drawn = after_kong
            if after_kong:
                self.ctx.timer.turn_starts(seat, self.ctx.action_at())
        hand.sea_bottom_drawn = self.ctx.wall.live_left == 0
        self.ctx.emit(
            TileDrawn,
            seat=seat,
            replacement=replacement,
            tile=tile,
            live_left=self.ctx.wall.live_left,
            sea_bottom=hand.sea_bottom_drawn,
        )
        self.hooks.after_draw(hand, seat, tile, kong=after_kong, live_before=live_before)
        self.ctx.check_copies(hand, (tile,))

    def discard(
        self, seat: int, tile: Tile | None, seen_at: tuple[int | None, int | None], inferred: bool
    ) -> None:
        hand = self.ctx.live_hand(seat)
        if hand is None:
            return
        if hand.turn != seat:  # in turn but before drawing: the size check calls it xianggong
            due = f"seat {hand.turn} to {hand.phase.value}"
            what = tile or "an unseen tile"
            self.ctx.violate(ViolationKind.OUT_OF_TURN, seat, f"discarded {what} while it is {due}")
        self.hooks.missed_self_win(hand, seat)
        self.hooks.check_tail_pick(hand, None)
        self.hooks.close_offer(hand)
        state = hand.seats[seat]
        self.ctx.check_size(hand, seat, 14)
        if tile is None:
            self._unseen_discard(hand, seat)
            return
        newly_seen = state.known[tile] == 0  # a known tile was counted when it was seen
        if not state.take(tile):
            self.ctx.violate(
                ViolationKind.TILE_NOT_IN_HAND, seat, f"discarded {tile} it does not hold"
            )
        state.river.append(tile)
        hand.discard_log.append((seat, tile))
        row, col = divmod(len(state.river) - 1, RIVER_ROW)
        if seen_at not in ((None, None), (row, col)):
            where = f"row {seen_at[0]}, col {seen_at[1]}"
            detail = f"{tile} seen at {where}; the river's next place is row {row}, col {col}"
            self.ctx.violate(ViolationKind.RIVER_ORDER, seat, detail)
        hand.river_bottom = self.ctx.wall.live_left == 0
        hand.live_discard, hand.claim, hand.pending_kong = (seat, tile), None, None
        hand.unseen_discard = None
        hand.draw_after_discard = None
        hand.discard_after_kong = hand.kong_replacement_drawn and hand.turn == seat
        hand.turn, hand.phase = (seat + 1) % 4, Phase.DRAW
        hand.turn_began_with_claim = hand.kong_replacement_drawn = False
        at, bottom = {"row": row, "col": col}, hand.river_bottom
        self.ctx.emit(
            TileDiscarded, seat=seat, tile=tile, **at, river_bottom=bottom, inferred=inferred
        )
        hand.rules_memory.on_discard(seat, tile)
        self.hooks.open_offer(hand, seat, tile, robbing=False)
        self.ctx.overtimes(hand, self.ctx.timer.discarded(seat, self.ctx.action_at()))
        if newly_seen:
            self.ctx.check_copies(hand, (tile,))

    def _unseen_discard(self, hand: HandState, seat: int) -> None:
        """A discard no camera read (the next seat played): one of the seat's tiles leaves its
        hand and the turn passes; no tile joins its river and none can be claimed, but a whole hand
        declared on it wins (the tile is then told from the hand: engine.table.wins)."""
        if not hand.seats[seat].take_unknown_or_any(None):
            self.ctx.violate(ViolationKind.TILE_NOT_IN_HAND, seat, "discarded an unseen tile")
        row, col = divmod(len(hand.seats[seat].river), RIVER_ROW)
        hand.live_discard = hand.claim = hand.pending_kong = hand.draw_after_discard = None
        hand.unseen_discard = seat
        hand.turn, hand.phase, hand.discard_after_kong = (seat + 1) % 4, Phase.DRAW, False
        hand.turn_began_with_claim = hand.kong_replacement_drawn = False
        hand.river_bottom = bottom = self.ctx.wall.live_left == 0
        at = {"row": row, "col": col}
        self.ctx.emit(TileDiscarded, seat=seat, tile=None, **at, river_bottom=bottom, inferred=True)
        self.ctx.overtimes(hand, self.ctx.timer.discarded(seat, self.ctx.action_at()))
