"""Claims on a discard (chow, pung, exposed kong) and kongs declared from the hand.

Claims arrive in the order a camera or record sees them. A claim on a discard that another seat
already claimed stands only if it outranks that claim (win by the discarder's lower seat >
opposite > upper > pung = kong > chow); the earlier meld is then undone. A claim made after the
next player drew returns the drawn tile to the wall (WSOM) and is noted as a warning.
"""

from __future__ import annotations

from engine.table.core import TableContext
from engine.table.events import ClaimOverridden, FlowerReplaced, KongDeclared, MeldClaimed
from engine.table.hooks import Hooks
from engine.table.seats import ClaimRecord, HandState, Phase
from engine.tiles import Meld, MeldKind, RelativeSeat, Tile
from engine.violations import ViolationKind

CHOW_RANK = 1
PUNG_RANK = 2


def win_rank(seat: int, discarder: int) -> int:
    """Win claims outrank melds; the discarder's lower seat first, then opposite, then upper."""
    return 10 - (seat - discarder) % 4


class Claims:
    """Melds on discards and kongs from the hand; stateless: the standing claim that a higher
    one may still undo is the hand's (``HandState.claim``)."""

    def __init__(self, ctx: TableContext, hooks: Hooks) -> None:
        self.ctx, self.hooks = ctx, hooks

    # -- which discard a claim is on ------------------------------------------------------------
    def peek_discard(self, hand: HandState, seat: int, rank: int) -> tuple[int, Tile, str] | None:
        """(discarder, tile, how) for a claim by ``seat``, without changing anything.

        ``how``: ``live`` (nobody took it yet), ``override`` (outranks a standing claim) or
        ``after_draw`` (the next player already drew). None after a violation.
        """
        if hand.live_discard is not None:
            discarder, tile = hand.live_discard
            how = "live"
        elif hand.claim is not None:
            record = hand.claim
            if rank <= record.rank:
                self.ctx.violate(
                    ViolationKind.CLAIM_PRECEDENCE,
                    seat,
                    f"seat {record.seat}'s claim on {record.tile} outranks this claim",
                )
                return None
            discarder, tile, how = record.discarder, record.tile, "override"
        elif hand.draw_after_discard is not None:
            (discarder, tile), how = hand.draw_after_discard[2], "after_draw"
        else:
            self.ctx.violate(ViolationKind.NOTHING_TO_CLAIM, seat, "there is no discard to claim")
            return None
        if discarder == seat:
            self.ctx.violate(
                ViolationKind.CLAIM_OWN_DISCARD, seat, f"cannot claim own discard {tile}"
            )
            return None
        return discarder, tile, how

    def take_discard(self, hand: HandState, seat: int, how: str) -> None:
        """Make the peeked discard live again (undo a weaker claim or return a drawn tile)."""
        if how == "override" and hand.claim is not None:
            self._undo_claim(hand, hand.claim, by=seat)
        elif how == "after_draw" and hand.draw_after_discard is not None:
            drawer, drawn, discard = hand.draw_after_discard
            self.ctx.violate(
                ViolationKind.CLAIM_AFTER_NEXT_DRAW,
                seat,
                f"claimed {discard[1]} after seat {drawer} drew; the drawn tile goes back",
            )
            hand.seats[drawer].take_unknown_or_any(drawn)
            self.ctx.wall.undo_draw(drawn)
            hand.live_discard, hand.draw_after_discard = discard, None
            hand.phase, hand.turn = Phase.DRAW, drawer

    def _undo_claim(self, hand: HandState, record: ClaimRecord, by: int) -> None:
        claimer = hand.seats[record.seat]
        if record.meld in claimer.melds:
            claimer.melds.remove(record.meld)
        for tile in record.taken:
            claimer.add(tile)
        if record.was_kong:
            hand.expect_replacement(record.seat, kong=True, count=-1)
        hand.seats[record.discarder].river.append(record.tile)
        hand.live_discard, hand.claim = (record.discarder, record.tile), None
        hand.phase, hand.turn = Phase.DRAW, (record.discarder + 1) % 4
        hand.turn_began_with_claim = False
        refund = None
        if record.was_kong:
            refund = self.hooks.kong_payment(
                hand, "exposed", record.seat, record.discarder, undo=True
            )
        self.ctx.emit(
            ClaimOverridden, seat=record.seat, by_seat=by, meld=record.meld, deltas=refund
        )

    def remove_from_river(self, hand: HandState, discarder: int, tile: Tile) -> None:
        river = hand.seats[discarder].river
        for i in range(len(river) - 1, -1, -1):
            if river[i] == tile:
                del river[i]
                return

    def take_tiles(self, hand: HandState, seat: int, tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
        state = hand.seats[seat]
        taken = tuple(t for t in tiles if state.take(t))
        if len(taken) != len(tiles):
            missing = list(tiles)
            for t in taken:
                missing.remove(t)
            text = "".join(str(t) for t in missing)
            self.ctx.violate(ViolationKind.TILE_NOT_IN_HAND, seat, f"does not hold {text}")
        return taken

    # -- chow / pung / exposed kong ------------------------------------------------------------
    def claim_meld(
        self, seat: int, kind: MeldKind, tiles: tuple[Tile, ...] | None, claimed: Tile | None
    ) -> None:
        hand = self.ctx.live_hand(seat)
        if hand is None:
            return
        if kind is MeldKind.CHOW and self.ctx.rules is not None and not self.ctx.rules.allows_chow:
            self.ctx.violate(ViolationKind.CHOW_NOT_ALLOWED, seat, "these rules have no chow")
            return
        rank = CHOW_RANK if kind is MeldKind.CHOW else PUNG_RANK
        peeked = self.peek_discard(hand, seat, rank)
        if peeked is None:
            return
        discarder, tile, how = peeked
        if claimed is not None and claimed != tile:
            self.ctx.violate(
                ViolationKind.ILLEGAL_MELD, seat, f"claims {claimed} but the discard is {tile}"
            )
            return
        meld_tiles = tiles if tiles is not None else (tile,) * kind.size
        source = RelativeSeat.between(seat, discarder)
        try:
            meld = Meld(kind, tuple(sorted(meld_tiles)), source, claimed=tile)
        except ValueError as exc:
            self.ctx.violate(ViolationKind.ILLEGAL_MELD, seat, f"{exc} on discard {tile}")
            return
        if kind is MeldKind.CHOW and seat != (discarder + 1) % 4:
            self.ctx.violate(
                ViolationKind.CHOW_NOT_FROM_UPPER_SEAT,
                seat,
                f"chowed {tile} from seat {discarder}, which is not its upper seat",
            )
        if hand.river_bottom:
            self.ctx.violate(
                ViolationKind.CLAIM_ON_RIVER_BOTTOM,
                seat,
                f"{kind.value} on the river-bottom tile {tile}: only a win may claim it",
            )
        if hand.seats[seat].xianggong == "big":
            self.ctx.violate(ViolationKind.BIG_XIANGGONG, seat, "a long hand may not claim")
        if kind is MeldKind.PUNG:
            self.hooks.check_pung(hand, seat, tile)
        self.hooks.take_offer(hand, seat)
        self.take_discard(hand, seat, how)
        others = list(meld.tiles)
        others.remove(tile)
        self.remove_from_river(hand, discarder, tile)
        taken = self.take_tiles(hand, seat, tuple(others))
        hand.seats[seat].melds.append(meld)
        is_kong = kind is MeldKind.KONG
        hand.claim = ClaimRecord(seat, rank, discarder, tile, meld, taken, is_kong)
        hand.live_discard, hand.draw_after_discard = None, None
        hand.turn, hand.phase, hand.turn_began_with_claim = seat, Phase.DISCARD, True
        self.ctx.timer.claimed(seat, self.ctx.action_at())
        if is_kong:
            hand.expect_replacement(seat, kong=True)
            paid = self.hooks.kong_payment(hand, "exposed", seat, discarder)
            self.ctx.emit(
                KongDeclared,
                seat=seat,
                meld=meld,
                kind="exposed",
                from_seat=discarder,
                deltas=paid,
            )
        else:
            self.ctx.emit(MeldClaimed, seat=seat, meld=meld, from_seat=discarder)
        self.ctx.check_copies(hand, meld.tiles)

    # -- kongs from the hand --------------------------------------------------------------------
    def own_kong_checks(self, hand: HandState, seat: int) -> None:
        self.hooks.missed_self_win(hand, seat)
        self.hooks.check_tail_pick(hand, None)
        self.hooks.close_offer(hand)
        if hand.turn != seat or hand.phase is not Phase.DISCARD:
            self.ctx.violate(ViolationKind.OUT_OF_TURN, seat, "may only kong in its own turn")
        elif hand.turn_began_with_claim:
            self.ctx.violate(
                ViolationKind.KONG_AFTER_CLAIM, seat, "no kong in a turn begun by a claim"
            )
        if self.ctx.wall.live_left == 0:
            self.ctx.violate(
                ViolationKind.KONG_ON_SEA_BOTTOM, seat, "no kong once the sea-bottom tile is drawn"
            )
        if hand.seats[seat].xianggong == "big":
            self.ctx.violate(ViolationKind.BIG_XIANGGONG, seat, "a long hand may not declare kongs")
        hand.claim = None

    def concealed_kong(self, seat: int, tile: Tile) -> None:
        hand = self.ctx.live_hand(seat)
        if hand is None:
            return
        if tile.is_flower:
            self.ctx.violate(ViolationKind.ILLEGAL_MELD, seat, f"cannot kong flower {tile}")
            return
        self.own_kong_checks(hand, seat)
        self.take_tiles(hand, seat, (tile,) * 4)
        meld = Meld(MeldKind.CONCEALED_KONG, (tile,) * 4)
        hand.seats[seat].melds.append(meld)
        hand.expect_replacement(seat, kong=True)
        paid = self.hooks.kong_payment(hand, "concealed", seat, None)
        self.ctx.emit(KongDeclared, seat=seat, meld=meld, kind="concealed", deltas=paid)
        self.ctx.check_copies(hand, (tile,))

    def added_kong(self, seat: int, tile: Tile) -> None:
        hand = self.ctx.live_hand(seat)
        if hand is None:
            return
        melds = hand.seats[seat].melds
        index = next(
            (i for i, m in enumerate(melds) if m.kind is MeldKind.PUNG and m.first == tile), None
        )
        if index is None:
            self.ctx.violate(ViolationKind.ILLEGAL_MELD, seat, f"has no exposed pung of {tile}")
            return
        self.own_kong_checks(hand, seat)
        self.take_tiles(hand, seat, (tile,))
        pung = melds[index]
        melds[index] = Meld(MeldKind.KONG, (tile,) * 4, pung.source, pung.claimed)
        hand.pending_kong = (seat, tile)
        hand.expect_replacement(seat, kong=True)
        from_seat = (seat + pung.source) % 4 if pung.source is not None else None
        paid = self.hooks.kong_payment(hand, "added", seat, None)
        self.ctx.emit(
            KongDeclared,
            seat=seat,
            meld=melds[index],
            kind="added",
            from_seat=from_seat,
            deltas=paid,
        )
        self.hooks.open_offer(hand, seat, tile, robbing=True)
        self.ctx.check_copies(hand, (tile,))

    # -- flowers ------------------------------------------------------------------------------
    def flower(self, seat: int, tile: Tile) -> None:
        hand = self.ctx.live_hand(seat)
        if hand is None:
            return
        if not tile.is_flower:
            self.ctx.violate(ViolationKind.NOT_A_FLOWER, seat, f"{tile} is not a flower")
            return
        state = hand.seats[seat]
        if not state.take(tile):
            self.ctx.violate(ViolationKind.TILE_NOT_IN_HAND, seat, f"shows flower {tile} it lacks")
        state.flowers.append(tile)
        hand.expect_replacement(seat, kong=False)
        self.ctx.emit(FlowerReplaced, seat=seat, flower=tile)
        self.ctx.check_copies(hand, (tile,))
