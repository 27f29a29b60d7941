"""The table state machine: apply actions, get events; never crashes on what a camera reports.

>>> from engine.actions import HandStart, Deal, Discard
>>> from engine.notation import parse_tiles
>>> table = Table(procedure="log")
>>> events = table.apply(HandStart(dealer=0))
>>> events = table.apply(Deal(seat=0, tiles=parse_tiles("123456789m1234p5s")))
>>> [e.type for e in table.apply(Discard(seat=0, tile=parse_tiles("5s")[0]))]
['tile_discarded']
>>> [getattr(e, "kind", e.type) for e in table.apply(Discard(seat=2, tile=parse_tiles("E")[0]))]
['out_of_turn', 'small_xianggong', 'tile_not_in_hand', 'tile_discarded']
"""

from __future__ import annotations

import copy
from typing import Any

from engine import actions as act
from engine.events import Event
from engine.procedures import Procedure, find_procedure
from engine.rulesets import RuleSet, find_rules
from engine.table.core import IdFactory, seeded_id_factory
from engine.table.deal import DealMixin
from engine.table.events import (
    CommandHandled,
    TableFaultRaised,
    TileDiscarded,
    TileDrawn,
)
from engine.table.seats import RIVER_ROW, HandState, Phase
from engine.table.snapshot import private_snapshot, public_snapshot
from engine.table.timing import TableTimer
from engine.table.wall import WallTracker
from engine.tiles import MeldKind, Tile
from engine.violations import IllegalActionError, Violation, ViolationKind


class Table(DealMixin):
    """One table: ``apply(action) -> events``; ``snapshot()`` public, ``private_snapshot()``.

    ``rules`` is a RuleSet or a rule-set name (None: the procedure's ``default_rules``, else wins
    are not scored); ``strict`` raises :class:`IllegalActionError` on the first violation and
    leaves the state as it was. Events carry ``table_id`` and ``epoch`` (the service bumps it
    on restart) and ``seq`` 1, 2, ...; ids come from ``id_factory(timestamp)`` (default: UUIDv7
    from a generator seeded with ``seed``, so a replay reproduces its ids).
    """

    def __init__(
        self,
        procedure: str | Procedure = "log",
        *,
        rules: RuleSet | str | None = None,
        table_id: str = "t1",
        strict: bool = False,
        epoch: int = 0,
        seed: int = 0,
        id_factory: IdFactory | None = None,
    ) -> None:
        self.procedure = find_procedure(procedure) if isinstance(procedure, str) else procedure
        self.rules = find_rules(rules) if isinstance(rules, str) else rules
        if self.rules is None and self.procedure.default_rules:
            self.rules = find_rules(self.procedure.default_rules)
        self.table_id, self.strict, self.epoch, self.seq = table_id, strict, epoch, 0
        self.scores = [0, 0, 0, 0]
        self.hand: HandState | None = None
        self.wall = WallTracker(self.procedure)
        self.timer = TableTimer(self.procedure, None, 0)
        self.hands_played, self.next_dealer = 0, 0
        self._config = (self.procedure, self.rules, table_id, epoch)
        self._id_factory = id_factory or seeded_id_factory(seed)
        self._events: list[Event] = []
        self._violations: list[Violation] = []
        self._action: act.Action | None = None
        self._timestamp = 0.0
        self._clock = 0
        self._history: list[act.Action | None] = []
        self._action_of_event: dict[str, int] = {}

    @property
    def violations(self) -> tuple[Violation, ...]:
        """Every violation raised so far."""
        return tuple(self._violations)

    def apply(self, action: act.Action) -> list[Event]:
        """Apply one action and return the events it caused (violations included)."""
        self._events = []
        self._action = action
        self._clock += 1
        self._timestamp = action.at if action.at is not None else float(self._clock)
        saved = copy.deepcopy(self._state()) if self.strict else None
        try:
            self._dispatch(action)
        except IllegalActionError:
            if saved is not None:
                self._restore(saved)
            raise
        except Exception as exc:  # the table must keep going whatever it is fed
            seat = getattr(action, "seat", None)
            self._violate(ViolationKind.BAD_ACTION, seat, f"internal error: {exc!r}")
        self._remember(action)
        return self._events

    #: What a strict-mode refusal rolls back (the attributes an action may replace).
    _STATE_FIELDS = (
        "procedure",
        "hand",
        "wall",
        "timer",
        "scores",
        "hands_played",
        "next_dealer",
        "seq",
    )

    def _state(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._STATE_FIELDS)

    def _restore(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(self._STATE_FIELDS, state, strict=True):
            setattr(self, name, value)

    def _dispatch(self, action: act.Action) -> None:
        if isinstance(action, act.CommandRecord):  # a record only: no game state changes
            self._emit(
                CommandHandled,
                verb=action.verb,
                outcome=action.outcome,
                account=action.account,
                correlation=action.correlation,
                alert=action.alert,
                note=action.note,
                error=action.error,
                result=action.result,
            )
            return
        hand = self.hand
        several_winners = hand is not None and hand.winners and hand.phase is not Phase.ENDED
        if several_winners and hand is not None and not isinstance(action, act.Win):
            self._end_hand(hand, "win")  # several winners: the hand ends at the next action
        if isinstance(action, act.HandStart):
            self._hand_start(action)
        elif isinstance(action, act.Deal):
            self._deal(action)
        elif isinstance(action, act.Draw):
            self._draw(action)
        elif isinstance(action, act.Discard):
            self._discard(action.seat, action.tile, (action.row, action.col), action.inferred)
        elif isinstance(action, act.Chow):
            self._claim_meld(action.seat, MeldKind.CHOW, action.tiles, action.tile)
        elif isinstance(action, act.Pung):
            self._claim_meld(action.seat, MeldKind.PUNG, None, action.tile)
        elif isinstance(action, act.Kong):
            self._claim_meld(action.seat, MeldKind.KONG, None, action.tile)
        elif isinstance(action, act.ConcealedKong):
            self._concealed_kong_of(action.seat, action.tile)
        elif isinstance(action, act.ShowKong):
            self._show_kong(action.seat, action.tile)
        elif isinstance(action, act.AddedKong):
            self._added_kong(action.seat, action.tile)
        elif isinstance(action, act.Flower):
            self._flower(action.seat, action.tile)
        elif isinstance(action, act.Win):
            self._win(action.seat, action.tile, action.hand)
        elif isinstance(action, act.Washout):
            self._washout()
        elif isinstance(action, act.Correction):
            self._correct(action)
        elif isinstance(action, act.TableFault):
            self._emit(TableFaultRaised, code=action.code, detail=action.detail)
        else:
            self._violate(ViolationKind.BAD_ACTION, None, f"unknown action {action!r}")

    # -- draw and discard -----------------------------------------------------------------------
    def _draw(self, action: act.Draw) -> None:
        seat = action.seat
        hand = self._live_hand(seat)
        if hand is None:
            return
        self._close_offer(hand)
        live_before = self.wall.live_left
        pending = hand.pending_replacements[seat]
        replacement = action.replacement if action.replacement is not None else pending > 0
        after_kong = replacement and hand.kongs_awaiting_replacement[seat] > 0
        if replacement:
            if pending:
                hand.expect_replacement(seat, kong=after_kong, count=-1)
            else:
                self._violate(ViolationKind.OUT_OF_TURN, seat, "replacement draw without a kong")
        else:
            if hand.phase is not Phase.DRAW or hand.turn != seat:
                due = f"seat {hand.turn} to {hand.phase.value}"
                self._violate(ViolationKind.OUT_OF_TURN, seat, f"drew while it is {due}")
            self._check_size(hand, seat, 13)
        tile, problem = self.wall.draw(replacement, action.tile)
        if problem is not None and problem.startswith("exhausted"):
            self._violate(ViolationKind.WALL_EXHAUSTED, seat, problem.partition(": ")[2])
        elif problem is not None:
            self._violate(ViolationKind.WALL_MISMATCH, seat, problem)
        state = hand.seats[seat]
        state.add(tile)
        state.last_drawn = tile
        if not replacement or seat == hand.turn:  # initial flower replacements keep the turn
            if not replacement and hand.live_discard is not None:
                hand.draw_after_discard = (seat, tile, hand.live_discard)
            else:
                hand.draw_after_discard = None
            hand.live_discard, hand.claim, hand.pending_kong = None, None, None
            hand.turn, hand.phase = seat, Phase.DISCARD
            hand.turn_began_with_claim = False
            hand.kong_replacement_drawn = after_kong
            if after_kong:
                self.timer.turn_starts(seat, self._action_at())
        hand.sea_bottom_drawn = self.wall.live_left == 0
        self._emit(
            TileDrawn,
            seat=seat,
            replacement=replacement,
            tile=tile,
            live_left=self.wall.live_left,
            sea_bottom=hand.sea_bottom_drawn,
        )
        self._after_draw(hand, seat, tile, kong=after_kong, live_before=live_before)
        self._check_copies(hand, (tile,))

    def _discard(
        self, seat: int, tile: Tile | None, seen_at: tuple[int | None, int | None], inferred: bool
    ) -> None:
        hand = self._live_hand(seat)
        if hand is None:
            return
        if hand.turn != seat:  # in turn but before drawing: the size check calls it xianggong
            due = f"seat {hand.turn} to {hand.phase.value}"
            what = tile or "an unseen tile"
            self._violate(ViolationKind.OUT_OF_TURN, seat, f"discarded {what} while it is {due}")
        self._missed_self_win(hand, seat)
        self._check_tail_pick(hand, None)
        self._close_offer(hand)
        state = hand.seats[seat]
        self._check_size(hand, seat, 14)
        if tile is None:
            self._unseen_discard(hand, seat)
            return
        newly_seen = state.known[tile] == 0  # a known tile was counted when it was seen
        if not state.take(tile):
            self._violate(
                ViolationKind.TILE_NOT_IN_HAND, seat, f"discarded {tile} it does not hold"
            )
        state.river.append(tile)
        hand.discard_log.append((seat, tile))
        row, col = divmod(len(state.river) - 1, RIVER_ROW)
        if seen_at not in ((None, None), (row, col)):
            where = f"row {seen_at[0]}, col {seen_at[1]}"
            detail = f"{tile} seen at {where}; the river's next place is row {row}, col {col}"
            self._violate(ViolationKind.RIVER_ORDER, seat, detail)
        hand.river_bottom = self.wall.live_left == 0
        hand.live_discard, hand.claim, hand.pending_kong = (seat, tile), None, None
        hand.draw_after_discard = None
        hand.discard_after_kong = hand.kong_replacement_drawn and hand.turn == seat
        hand.turn, hand.phase = (seat + 1) % 4, Phase.DRAW
        hand.turn_began_with_claim = hand.kong_replacement_drawn = False
        at, bottom = {"row": row, "col": col}, hand.river_bottom
        self._emit(
            TileDiscarded, seat=seat, tile=tile, **at, river_bottom=bottom, inferred=inferred
        )
        hand.rules_memory.on_discard(seat, tile)
        self._open_offer(hand, seat, tile, robbing=False)
        self._overtimes(hand, self.timer.discarded(seat, self._action_at()))
        if newly_seen:
            self._check_copies(hand, (tile,))

    def _unseen_discard(self, hand: HandState, seat: int) -> None:
        """A discard no camera read (the next seat played): one of the seat's tiles leaves its
        hand and the turn passes; no tile joins its river and none can be claimed."""
        if not hand.seats[seat].take_unknown_or_any(None):
            self._violate(ViolationKind.TILE_NOT_IN_HAND, seat, "discarded an unseen tile")
        row, col = divmod(len(hand.seats[seat].river), RIVER_ROW)
        hand.live_discard = hand.claim = hand.pending_kong = hand.draw_after_discard = None
        hand.turn, hand.phase, hand.discard_after_kong = (seat + 1) % 4, Phase.DRAW, False
        hand.turn_began_with_claim = hand.kong_replacement_drawn = False
        hand.river_bottom = bottom = self.wall.live_left == 0
        at = {"row": row, "col": col}
        self._emit(TileDiscarded, seat=seat, tile=None, **at, river_bottom=bottom, inferred=True)
        self._overtimes(hand, self.timer.discarded(seat, self._action_at()))

    def _action_at(self) -> float | None:
        return self._action.at if self._action is not None else None

    # -- views ------------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The public state (JSON-able): what everybody at the table can see."""
        return public_snapshot(self)

    def private_snapshot(self) -> dict[str, Any]:
        """Concealed hands (where known) and the wall order: for referees only."""
        return private_snapshot(self)
