"""The table consults its rule set's optional table hooks (:mod:`engine.table.rules_api`).

What the hooks rule on becomes ordinary violations: ``pung_furiten`` (a pung the seat gave up),
``win_furiten`` (a discard win while temporarily furiten: refused like a false win),
``must_win`` (a legal win let go where the rules force it) and ``tail_rule`` (a kong replacement
taken from a tail tile the rules did not allow). Kong payments are score changes carried by
the ``kong_declared`` event (and given back when the kong is undone). A rule set without hooks
gets :data:`~engine.table.rules_api.NO_TABLE_RULES`: nothing here changes what it sees.

A *pass* is worked out when the tile on offer (a discard, or an added-kong tile) is gone: at the
next draw, discard, kong from the hand or the end of the hand. Whether each other seat could
pung or win on it is judged when it is offered, from its known concealed tiles (unknown hands
are never judged).
"""

from __future__ import annotations

from collections import Counter

from engine.table.core import TableContext
from engine.table.rules_api import TableRules, table_rules_of
from engine.table.seats import HandState, Offer, WinContext
from engine.table.win_request import win_request
from engine.tiles import Tile
from engine.violations import ViolationKind

Deltas = tuple[int, int, int, int]


class Hooks:
    """Asks the rule set's table hooks. Stateless: what they remember of a hand (``rules_memory``,
    the tile on offer and who took it, a win that must be declared, the last tail pick) is the
    hand's (:class:`~engine.table.seats.HandState`), so it ends and rolls back with the hand."""

    def __init__(self, ctx: TableContext) -> None:
        self.ctx = ctx

    @property
    def table_rules(self) -> TableRules:
        """The rule set's table hooks (defaults that change nothing when it has none)."""
        return table_rules_of(self.ctx.rules)

    def would_win(self, hand: HandState, win: WinContext, concealed: tuple[Tile, ...]) -> bool:
        """Whether the rule set would score ``win`` with ``concealed`` as a legal win."""
        rules = self.ctx.rules
        if rules is None or len(concealed) + 3 * hand.seats[win.seat].sets != 13:
            return False
        try:
            return rules.score(win_request(hand, win, concealed)).valid
        except Exception:  # a rule set must not take the table down with it
            return False

    # -- offers and passes ------------------------------------------------------------------
    def open_offer(self, hand: HandState, seat: int, tile: Tile, *, robbing: bool) -> None:
        self.close_offer(hand)
        if not hand.rules_memory.watches_passes:
            return
        how = "robbing" if robbing else "live"
        could: list[tuple[bool, bool] | None] = []
        for other, state in enumerate(hand.seats):
            if other == seat or state.unknown or state.xianggong is not None:
                could.append(None)
                continue
            concealed = state.concealed_tiles()
            could_pung = not robbing and Counter(concealed)[tile] >= 2
            could_win = self.would_win(hand, WinContext(other, tile, how, seat), concealed)
            could.append((could_pung, could_win))
        hand.offer = Offer(seat, tile, robbing, self.ctx.wall.live_left, tuple(could))

    def take_offer(self, hand: HandState, seat: int) -> None:
        """``seat`` claimed or won on the tile on offer: not a pass."""
        hand.takers.add(seat)

    def close_offer(self, hand: HandState) -> None:
        offer, hand.offer = hand.offer, None
        takers, hand.takers = hand.takers, set()
        if offer is None:
            return
        memory = hand.rules_memory
        for seat, could in enumerate(offer.could):
            if could is None or seat in takers:
                continue
            could_pung, could_win = could
            if offer.tiles_left is not None and memory.must_win(
                seat, tiles_left=offer.tiles_left, legal_win=could_win, on_discard=True
            ):
                detail = f"let {offer.tile} go although the last tiles force a legal win"
                self.ctx.violate(ViolationKind.MUST_WIN, seat, detail)
            memory.on_pass(seat, offer.tile, could_pung=could_pung, could_win=could_win)

    # -- what the hooks allow ---------------------------------------------------------------
    def check_pung(self, hand: HandState, seat: int, tile: Tile) -> None:
        problem = hand.rules_memory.pung_problem(seat, tile)
        if problem is not None:
            self.ctx.violate(ViolationKind.PUNG_FURITEN, seat, problem)

    def win_refused(self, hand: HandState, win: WinContext) -> bool:
        """A win the hooks forbid (temporary furiten on a discard): a violation, no win."""
        problem = hand.rules_memory.win_problem(win.seat, on_discard=win.how != "self")
        if problem is None:
            return False
        self.ctx.violate(ViolationKind.WIN_FURITEN, win.seat, f"{problem}; no win on {win.tile}")
        return True

    # -- draws: the last tiles and the tail ---------------------------------------------------
    def after_draw(
        self, hand: HandState, seat: int, tile: Tile | None, *, kong: bool, live_before: int | None
    ) -> None:
        """Tell the hooks about a draw; remember a win it must declare and a tail pick."""
        memory = hand.rules_memory
        memory.on_draw(seat)
        pick = self.ctx.wall.last_pick
        if kong and pick is not None and live_before is not None:
            hand.tail_pick = (seat, pick, live_before)
        hand.must_self_win = None
        left, state = self.ctx.wall.live_left, hand.seats[seat]
        if left is None or tile is None or state.unknown or not memory.in_last_tiles(left):
            return
        concealed = list(state.concealed_tiles())
        if tile not in concealed:
            return
        concealed.remove(tile)
        legal = self.would_win(hand, WinContext(seat, tile, "self", None), tuple(concealed))
        if memory.must_win(seat, tiles_left=left, legal_win=legal, on_discard=False):
            hand.must_self_win = seat

    def missed_self_win(self, hand: HandState, seat: int) -> None:
        """``seat`` discards or kongs instead of declaring a win it had to declare."""
        if hand.must_self_win == seat:
            detail = "drew a winning tile among the last tiles and did not declare the win"
            self.ctx.violate(ViolationKind.MUST_WIN, seat, detail)
        hand.must_self_win = None

    def check_tail_pick(self, hand: HandState, winner: int | None) -> None:
        """Judge the last kong replacement once its konger acts (``winner``: who won)."""
        taken, hand.tail_pick = hand.tail_pick, None
        if taken is None:
            return
        seat, pick, live = taken
        completes = winner == seat
        problem = hand.rules_memory.replacement_problem(pick, live, completes_hand=completes)
        if problem is not None:
            self.ctx.violate(ViolationKind.TAIL_RULE, seat, problem)

    # -- kong payments ------------------------------------------------------------------------
    def kong_payment(
        self, hand: HandState, kind: str, konger: int, discarder: int | None, *, undo: bool = False
    ) -> Deltas | None:
        """The kong's score changes (given back with ``undo``), added to the hand's deltas;
        None when the rules pay nothing for it."""
        changes = self.table_rules.kong_changes(kind, konger=konger, discarder=discarder)
        if not any(changes):
            return None
        sign = -1 if undo else 1
        signed = (sign * changes[0], sign * changes[1], sign * changes[2], sign * changes[3])
        hand.deltas = [a + b for a, b in zip(hand.deltas, signed, strict=True)]
        return signed
