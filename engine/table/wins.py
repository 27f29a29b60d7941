"""Wins and washouts: what kind of win it is, the scoring request, false wins, settlement.

The table builds a :class:`engine.rulesets.WinRequest` from what it knows
(:mod:`engine.table.win_request`) and asks its rule set. A
result under the rule set's minimum is a false win: a violation, no payment, and play goes on.
"""

from __future__ import annotations

from engine.json_forms import hand_to_json
from engine.notation import Hand
from engine.rulesets import ScoreResult, WinRequest
from engine.table.claims import Claims, win_rank
from engine.table.core import TableContext
from engine.table.events import WashoutDeclared, WinDeclared
from engine.table.hooks import Hooks
from engine.table.scoreboard import Scoreboard
from engine.table.seats import HandState, Phase, WinContext
from engine.table.unseen_wins import unread_completion, unseen_discard_win, unseen_draw, whole
from engine.table.win_request import score, score_json, win_request
from engine.tiles import Meld, MeldKind, Tile
from engine.violations import ViolationKind

_REFUSED = object()


class Wins:
    """Wins and washouts; stateless: who won and what is still owed live in the hand."""

    def __init__(
        self, ctx: TableContext, hooks: Hooks, claims: Claims, scoreboard: Scoreboard
    ) -> None:
        self.ctx, self.hooks, self.claims, self.scoreboard = ctx, hooks, claims, scoreboard

    @property
    def max_winners(self) -> int:
        return self.ctx.rules.max_winners_per_discard if self.ctx.rules is not None else 1

    def win(
        self, seat: int, tile: Tile | None, declared: Hand | None, *, one_unread: bool = False
    ) -> None:
        inferred = False  # the winning tile chosen by the engine (a draw no one saw)
        if self._late_win_claim(seat, tile) or self._read_whole_again(seat, tile, declared):
            return
        hand = self.ctx.live_hand(seat)
        if hand is None:
            return
        state = hand.seats[seat]
        if state.xianggong is not None:
            self.ctx.violate(
                ViolationKind.NO_RIGHT_TO_WIN,
                seat,
                f"lost the right to win ({state.xianggong} xianggong)",
            )
            return
        discarder: int | None = None
        how = "self"
        if hand.pending_kong is not None and hand.pending_kong[0] != seat:
            discarder, win_tile, how = hand.pending_kong[0], hand.pending_kong[1], "robbing"
        elif hand.turn == seat and hand.phase is Phase.DISCARD and not hand.turn_began_with_claim:
            drawn = state.last_drawn if state.last_drawn is not None else tile
            if drawn is None and declared is not None and whole(state.sets, declared):
                drawn, declared = unseen_draw(self.ctx.rules, hand, seat, declared)
                inferred = True
            if drawn is None:
                self.ctx.violate(
                    ViolationKind.FALSE_WIN, seat, "self-drawn win without a known tile"
                )
                return
            win_tile = drawn
        elif (unseen := unseen_discard_win(self.ctx.rules, hand, seat, declared)) is not None:
            (discarder, win_tile), declared = unseen
            how, inferred = "live", True
        else:
            target = self._current_discarder(hand)
            rank = win_rank(seat, target) if target is not None else 0
            peeked = self.claims.peek_discard(hand, seat, rank)
            if peeked is None:
                return
            discarder, win_tile, how = peeked
        if tile is not None and tile != win_tile:
            self.ctx.violate(
                ViolationKind.FALSE_WIN, seat, f"declared {tile} but won on {win_tile}"
            )
            return
        win = WinContext(seat, win_tile, how, discarder)
        if self.hooks.win_refused(hand, win):
            return
        concealed = self._concealed_for_win(hand, win, declared)
        if concealed is _REFUSED:
            return
        known = concealed if isinstance(concealed, tuple) else None
        request = win_request(hand, win, known) if known is not None else None
        # a kong still face down: the hand is not known until it is shown (then scored)
        result = None if state.face_down_kongs else score(self.ctx.rules, request)
        unread: Tile | None = None
        if result is not None and not result.valid and one_unread and known is not None:
            completed = unread_completion(self.ctx.rules, hand, win, known)
            if completed is not None:
                (request, result), unread = completed
        if result is not None and not result.valid:
            why = result.error or f"{result.total} points"
            self.ctx.violate(ViolationKind.FALSE_WIN, seat, f"not a legal win on {win_tile}: {why}")
            return
        self._apply_win(hand, win, request, result, inferred=inferred, unread=unread)

    def _read_whole_again(self, seat: int, tile: Tile | None, declared: Hand | None) -> bool:
        """The winner of a hand first read one short declares it again, read whole: nothing new
        when it is the hand scored; else an alert naming the win a referee should correct."""
        hand = self.ctx.hand
        if hand is None or declared is None or seat not in hand.unread_wins:
            return False
        scored, unread, event_id = hand.unread_wins[seat]
        whole = tuple(sorted([*declared.concealed, *([tile] if tile is not None else [])]))
        if whole != scored:
            read = "".join(map(str, whole))
            self.ctx.violate(
                ViolationKind.FALSE_WIN,
                seat,
                f"hand read whole as {read}, not as scored with {unread} inferred: a referee "
                f"may correct event {event_id}",
            )
        return True

    def _late_win_claim(self, seat: int, tile: Tile | None) -> bool:
        """A second win claim on the discard that already ended the hand (one winner only)."""
        hand = self.ctx.hand
        if hand is None or hand.phase is not Phase.ENDED or hand.last_discard_win is None:
            return False
        discarder, won_on, winner, event_id = hand.last_discard_win
        if seat in (winner, discarder) or tile not in (None, won_on):
            return False
        if win_rank(seat, discarder) > win_rank(winner, discarder):
            detail = (
                f"seat {seat}'s win on {won_on} outranks seat {winner}'s: a referee may "
                f"correct event {event_id}"
            )
        else:
            detail = f"seat {winner} already won on {won_on}, ahead of seat {seat}"
        self.ctx.violate(ViolationKind.CLAIM_PRECEDENCE, seat, detail)
        return True

    def _current_discarder(self, hand: HandState) -> int | None:
        if hand.live_discard is not None:
            return hand.live_discard[0]
        if hand.claim is not None:
            return hand.claim.discarder
        if hand.draw_after_discard is not None:
            return hand.draw_after_discard[2][0]
        return None

    def _concealed_for_win(
        self, hand: HandState, win: WinContext, declared: Hand | None
    ) -> tuple[Tile, ...] | object | None:
        """The concealed tiles without the winning tile (a kong still face down not among them);
        None when unknown; _REFUSED on a violation."""
        seat, win_tile, self_drawn = win.seat, win.tile, win.how == "self"
        state = hand.seats[seat]
        if declared is not None:
            concealed = declared.concealed
        elif state.unknown:
            return None
        else:
            tiles = list(state.concealed_tiles())
            if self_drawn:
                if win_tile not in tiles:
                    self.ctx.violate(ViolationKind.FALSE_WIN, seat, f"does not hold {win_tile}")
                    return _REFUSED
                tiles.remove(win_tile)
            concealed = tuple(tiles)
        size = len(concealed) + 3 * state.sets
        if size != 13:
            self.ctx.violate(
                ViolationKind.FALSE_WIN, seat, f"{size} tiles besides the winning tile, not 13"
            )
            return _REFUSED
        return concealed

    def _apply_win(
        self,
        hand: HandState,
        win: WinContext,
        request: WinRequest | None,
        result: ScoreResult | None,
        *,
        inferred: bool = False,
        unread: Tile | None = None,
    ) -> None:
        seat, win_tile, how, discarder = win.seat, win.tile, win.how, win.discarder
        unshown = hand.seats[seat].face_down_kongs > 0  # scored when those kongs are shown
        if how in ("override", "after_draw"):
            self.claims.take_discard(hand, seat, how)
        refund: tuple[int, ...] | None = None
        if how == "robbing" and discarder is not None:
            refund = self._undo_added_kong(hand, discarder, win_tile)
        elif discarder is not None and not hand.winners:
            self.claims.remove_from_river(hand, discarder, win_tile)
        if how != "self":
            hand.seats[seat].add(win_tile)
        deltas: tuple[int, ...] | None = None
        if result is not None and self.ctx.rules is not None:
            deltas = tuple(self.ctx.rules.settle(result, winner=seat, discarder=discarder))
            hand.deltas = [a + b for a, b in zip(hand.deltas, deltas, strict=True)]
        if refund is not None:
            deltas = tuple(a + b for a, b in zip(deltas or (0, 0, 0, 0), refund, strict=True))
        hand.winners.append(seat)
        hand.must_self_win = None
        self.hooks.check_tail_pick(hand, seat if how == "self" else None)
        if how != "self":
            self.hooks.take_offer(hand, seat)
        if how == "self":
            at = self.ctx.action_at()
            self.ctx.overtimes(hand, self.ctx.timer.won(seat, at))
        event = self.ctx.emit(
            WinDeclared,
            seat=seat,
            win_tile=win_tile,
            win_tile_inferred=inferred,
            hand_tile_inferred=unread,
            self_drawn=how == "self",
            discarder=discarder,
            robbing_kong=how == "robbing",
            kong_replacement=bool(request and request.kong_replacement),
            last_tile=bool(request and request.last_tile),
            last_of_kind=bool(request and request.last_of_kind),
            hand=hand_to_json(request.hand) if request is not None and not unshown else None,
            score=score_json(result) if result is not None else None,
            deltas=deltas,
        )
        if unread is not None and request is not None:
            whole = tuple(sorted([*request.hand.concealed, win_tile]))
            hand.unread_wins[seat] = (whole, unread, event.event_id)
        if request is not None and unshown:
            hand.unscored_wins[seat] = (request, event.event_id, discarder)
        if discarder is not None:
            hand.last_discard_win = (discarder, win_tile, seat, event.event_id)
        if how == "self" or discarder is None or len(hand.winners) >= self.max_winners:
            self.scoreboard.end_hand(hand, "win")
        else:
            hand.live_discard, hand.claim, hand.draw_after_discard = (
                (discarder, win_tile),
                None,
                None,
            )

    def _undo_added_kong(
        self, hand: HandState, konger: int, tile: Tile
    ) -> tuple[int, int, int, int] | None:
        """The robbed kong is a pung again; its payment (if any) is given back and returned."""
        melds = hand.seats[konger].melds
        for i, meld in enumerate(melds):
            if meld.kind is MeldKind.KONG and meld.first == tile:
                melds[i] = Meld(MeldKind.PUNG, (tile,) * 3, meld.source, meld.claimed)
                break
        hand.pending_kong = None
        hand.expect_replacement(konger, kong=True, count=-1)
        return self.hooks.kong_payment(hand, "added", konger, None, undo=True)

    def washout(self) -> None:
        hand = self.ctx.live_hand()
        if hand is None:
            return
        live = self.ctx.wall.live_left
        if live:
            self.ctx.violate(ViolationKind.PREMATURE_WASHOUT, None, f"{live} live tiles are left")
        self.ctx.emit(WashoutDeclared, live_left=live)
        self.scoreboard.end_hand(hand, "washout")
