"""Qujing's own table rules applied to a shared :class:`~engine.table.Table` by watching it.

The shared table settles claims, several winners, no chow and scoring through the rule set's
properties. The rules it has no hook for yet — pung furiten, temporary win furiten, the
last-four-tiles must-win rule, kong payments, Qujing's dealer rule and the kong-discard flag —
are applied here from the table's events and (full information) concealed hands, through
:class:`~engine.qujing.table_rules.QujingHandRules`. Findings are typed and never raise.

Use: ``referee = QujingReferee(Table("qujing", rules="qujing"))`` then ``referee.apply(action)``
instead of ``table.apply(action)``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.notation import Hand
from engine.qujing.ruleset import QujingRuleSet
from engine.qujing.table_rules import QujingHandRules
from engine.qujing.view import KONG_DISCARD, OWN_DISCARDS
from engine.rulesets import WinRequest
from engine.table_events import (
    HandEnded,
    HandStarted,
    KongDeclared,
    MeldClaimed,
    TileDiscarded,
    TileDrawn,
    WinDeclared,
)
from engine.tiles import Meld, Tile

if TYPE_CHECKING:
    from engine.actions import Action
    from engine.events import Event
    from engine.table import Table

SeatView = tuple[tuple[Tile, ...], tuple[Meld, ...], bool]  # concealed, melds, fully known


@dataclass(frozen=True, slots=True)
class Finding:
    """A Qujing rule broken at the table: ``pung_furiten``, ``win_furiten``, ``must_win`` or
    ``tail_rule``."""

    kind: str
    seat: int
    detail: str


@dataclass(frozen=True, slots=True)
class _Offer:
    """A tile other seats may take: a discard, or a tile added to a pung (robbable)."""

    seat: int
    tile: Tile
    robbing: bool
    kong_discard: bool
    hands: tuple[SeatView, ...]
    tiles_left: int | None


class QujingReferee:
    """Feeds a table's events to Qujing's per-hand rules; collects findings, the kong payments
    of every hand so far (``kong_deltas``) and the dealer of the next hand (``next_dealer``)."""

    def __init__(self, table: Table) -> None:
        if not isinstance(table.rules, QujingRuleSet):
            raise ValueError(f"a Qujing referee needs a Qujing table, not {table.rules!r}")
        self.table, self.rules = table, table.rules
        self.hand_rules: QujingHandRules = self.rules.hand_rules()
        self.findings: list[Finding] = []
        self.kong_deltas = [0, 0, 0, 0]
        self.next_dealer: int | None = None
        self._offer: _Offer | None = None
        self._takers: set[int] = set()
        self._must_self_win: int | None = None
        self._after_kong: int | None = None
        self._last_discarder: int | None = None
        self._face_up: tuple[Tile | None, ...] = ()
        self._bloom_due: int | None = None

    def apply(self, action: Action) -> list[Event]:
        events = self.table.apply(action)
        for event in events:
            self._observe(event)
        return events

    def _observe(self, event: Event) -> None:
        self._check_bloom_only(event)
        if isinstance(event, HandStarted):
            self._new_hand()
        elif isinstance(event, TileDrawn):
            self._close_offer()
            self.hand_rules.on_draw(event.seat)
            self._after_kong = event.seat if event.replacement else None
            self._check_self_win(event)
            face_up = event.replacement and event.tile in self._face_up
            if face_up and self.rules.options.tail_reading == "bloom-only":
                self._bloom_due = event.seat
        elif isinstance(event, TileDiscarded):
            self._missed_self_win(event.seat)
            self.hand_rules.on_discard(event.seat, event.tile)
            self._open_offer(event.seat, event.tile, robbing=False)
        elif isinstance(event, MeldClaimed):
            problem = self.hand_rules.pung_problem(event.seat, event.meld.first)
            if problem:
                self.findings.append(Finding("pung_furiten", event.seat, problem))
            self._takers.add(event.seat)
            self._close_offer()
        elif isinstance(event, KongDeclared):
            self._kong(event)
        elif isinstance(event, WinDeclared):
            self._win(event)
        elif isinstance(event, HandEnded):
            self._close_offer()
            discarder = self._last_discarder if len(event.winners) > 1 else None
            self.next_dealer = self.rules.next_dealer(
                self.table.hand.dealer if self.table.hand else 0,
                list(event.winners),
                discarder=discarder,
            )

    def _new_hand(self) -> None:
        self.hand_rules = self.rules.hand_rules()
        self._offer, self._takers, self._must_self_win = None, set(), None
        self._after_kong = self._last_discarder = self._bloom_due = None
        self._face_up = ()

    def _check_bloom_only(self, event: Event) -> None:
        """Under the ``bloom-only`` reading a face-up tail tile may only be taken to win."""
        due, self._bloom_due = self._bloom_due, None
        if due is None or (isinstance(event, WinDeclared) and event.seat == due):
            return
        detail = f"seat {due} took a face-up tail tile without winning on it (bloom-only reading)"
        self.findings.append(Finding("tail_rule", due, detail))

    def _kong(self, event: KongDeclared) -> None:
        self._missed_self_win(event.seat)
        wall = self.table.wall.wall
        self._face_up = wall.revealed_tail() if wall is not None else ()
        if event.kind == "exposed":
            self._takers.add(event.seat)
            self._close_offer()
            changes = self.rules.kong_changes(
                "exposed", konger=event.seat, discarder=event.from_seat
            )
        elif event.kind == "added":
            self._open_offer(event.seat, event.meld.first, robbing=True)
            changes = self.rules.kong_changes("added", konger=event.seat)
        else:
            changes = self.rules.kong_changes("concealed", konger=event.seat)
        self.kong_deltas = [a + b for a, b in zip(self.kong_deltas, changes, strict=True)]

    def _win(self, event: WinDeclared) -> None:
        self._must_self_win = None
        if event.discarder is None:
            return
        self._last_discarder = event.discarder
        problem = self.hand_rules.win_problem(event.seat, on_discard=True)
        if problem:
            self.findings.append(Finding("win_furiten", event.seat, problem))
        self._takers.add(event.seat)
        if event.robbing_kong:  # the added kong is void: take its payment back
            changes = self.rules.kong_changes("added", konger=event.discarder)
            self.kong_deltas = [a - b for a, b in zip(self.kong_deltas, changes, strict=True)]

    # -- offers and passes --------------------------------------------------------------------
    def _seat_views(self) -> tuple[SeatView, ...]:
        hand = self.table.hand
        if hand is None:
            return ()
        return tuple((s.concealed_tiles(), tuple(s.melds), s.unknown == 0) for s in hand.seats)

    def _open_offer(self, seat: int, tile: Tile, *, robbing: bool) -> None:
        self._close_offer()
        kong_discard = not robbing and self._after_kong == seat
        left = self.table.wall.live_left
        self._offer = _Offer(seat, tile, robbing, kong_discard, self._seat_views(), left)
        self._takers = set()

    def _close_offer(self) -> None:
        offer, self._offer = self._offer, None
        if offer is None:
            return
        for seat, (concealed, melds, known) in enumerate(offer.hands):
            if seat == offer.seat or seat in self._takers or not known:
                continue
            could_pung = not offer.robbing and Counter(concealed)[offer.tile] >= 2
            could_win = self._could_win(seat, concealed, melds, offer)
            if offer.tiles_left is not None and self.hand_rules.must_win(
                seat, tiles_left=offer.tiles_left, legal_win=could_win, on_discard=True
            ):
                detail = f"seat {seat} let {offer.tile} go although the last tiles force a win"
                self.findings.append(Finding("must_win", seat, detail))
            self.hand_rules.on_pass(seat, offer.tile, could_pung=could_pung, could_win=could_win)
        self._takers = set()

    def _could_win(
        self, seat: int, concealed: tuple[Tile, ...], melds: tuple[Meld, ...], offer: _Offer
    ) -> bool:
        """Whether ``seat`` had a legal win on the offered tile (discard-streak hands aside)."""
        extras = {OWN_DISCARDS: (), KONG_DISCARD: offer.kong_discard}
        request = WinRequest(
            hand=Hand(concealed, melds),
            win_tile=offer.tile,
            robbing_kong=offer.robbing,
            extras=extras,
        )
        return self.rules.score(request).valid

    # -- the last tiles: a self-drawn win must be taken ----------------------------------------
    def _check_self_win(self, event: TileDrawn) -> None:
        self._must_self_win = None
        left, hand = event.live_left, self.table.hand
        if (
            left is None
            or event.tile is None
            or hand is None
            or not self.hand_rules.in_last_tiles(left)
        ):
            return
        seat = hand.seats[event.seat]
        concealed = list(seat.concealed_tiles())
        if seat.unknown or event.tile not in concealed:
            return
        concealed.remove(event.tile)
        request = WinRequest(
            hand=Hand(tuple(concealed), tuple(seat.melds)),
            win_tile=event.tile,
            self_drawn=True,
            kong_replacement=event.replacement and any(m.is_kong for m in seat.melds),
            extras={OWN_DISCARDS: ()},
        )
        if self.rules.score(request).valid:
            self._must_self_win = event.seat

    def _missed_self_win(self, seat: int) -> None:
        if self._must_self_win == seat:
            detail = f"seat {seat} drew a winning tile among the last tiles and did not win"
            self.findings.append(Finding("must_win", seat, detail))
        self._must_self_win = None


__all__ = ["Finding", "QujingReferee"]
