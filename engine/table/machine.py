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
from collections.abc import Sequence
from typing import Any

from engine import actions as act
from engine.events import Event
from engine.procedures import Procedure, find_procedure
from engine.rulesets import RuleSet, WinRequest, find_rules
from engine.table.claims import Claims
from engine.table.core import IdFactory, TableContext, seeded_id_factory
from engine.table.deal import Deal
from engine.table.events import CommandHandled, TableFaultRaised
from engine.table.face_down import FaceDownKongs
from engine.table.history import History
from engine.table.hooks import Hooks
from engine.table.rules_api import TableRules
from engine.table.scoreboard import Scoreboard
from engine.table.seats import HandState, Phase, WinContext
from engine.table.snapshot import private_snapshot, public_snapshot
from engine.table.timing import TableTimer
from engine.table.turns import Turns
from engine.table.wall import WallTracker
from engine.table.win_request import win_request
from engine.table.wins import Wins
from engine.tiles import MeldKind, Tile
from engine.violations import IllegalActionError, Violation, ViolationKind


class Table:
    """One table: ``apply(action) -> events``; ``snapshot()`` public, ``private_snapshot()``.

    ``rules`` is a RuleSet or a rule-set name (None: the procedure's ``default_rules``, else wins
    are not scored); ``strict`` raises :class:`IllegalActionError` on the first violation and
    leaves the state as it was. Events carry ``table_id`` and ``epoch`` (the service bumps it
    on restart) and ``seq`` 1, 2, ...; ids come from ``id_factory(timestamp)`` (default: UUIDv7
    from a generator seeded with ``seed``, so a replay reproduces its ids).

    The table only dispatches: each action goes to a collaborator (:class:`Turns`,
    :class:`Claims`, :class:`FaceDownKongs`, :class:`Wins`, :class:`Deal`, :class:`History`),
    which reaches the hand, the wall, the rules and the event output through one
    :class:`TableContext`; :class:`Hooks` asks the rule set's table hooks and
    :class:`Scoreboard` keeps the totals across hands.
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
        found = find_procedure(procedure) if isinstance(procedure, str) else procedure
        ruleset = find_rules(rules) if isinstance(rules, str) else rules
        if ruleset is None and found.default_rules:
            ruleset = find_rules(found.default_rules)
        self._config = (found, ruleset, table_id, epoch)
        factory = id_factory or seeded_id_factory(seed)
        ctx = TableContext(
            found, ruleset, table_id=table_id, strict=strict, epoch=epoch, id_factory=factory
        )
        self._ctx = ctx
        self._hooks = Hooks(ctx)
        self._scoreboard = Scoreboard(ctx, self._hooks)
        self._turns = Turns(ctx, self._hooks)
        self._claims = Claims(ctx, self._hooks)
        self._face_down = FaceDownKongs(ctx, self._hooks, self._claims, self._scoreboard)
        self._wins = Wins(ctx, self._hooks, self._claims, self._scoreboard)
        self._deal = Deal(ctx, self._hooks, self._scoreboard)
        self._history = History(ctx, self._replay)
        self._clock = 0

    # -- the state, as attributes ------------------------------------------------------------------
    @property
    def procedure(self) -> Procedure:
        return self._ctx.procedure

    @property
    def rules(self) -> RuleSet | None:
        return self._ctx.rules

    @property
    def table_id(self) -> str:
        return self._ctx.table_id

    @property
    def strict(self) -> bool:
        return self._ctx.strict

    @property
    def epoch(self) -> int:
        return self._ctx.epoch

    @property
    def seq(self) -> int:
        return self._ctx.seq

    @property
    def hand(self) -> HandState | None:
        return self._ctx.hand

    @property
    def wall(self) -> WallTracker:
        return self._ctx.wall

    @property
    def timer(self) -> TableTimer:
        return self._ctx.timer

    @property
    def scores(self) -> list[int]:
        return self._scoreboard.scores

    @property
    def hands_played(self) -> int:
        return self._scoreboard.hands_played

    @property
    def next_dealer(self) -> int:
        return self._scoreboard.next_dealer

    @property
    def table_rules(self) -> TableRules:
        """The rule set's table hooks (defaults that change nothing when it has none)."""
        return self._hooks.table_rules

    @property
    def max_winners(self) -> int:
        return self._wins.max_winners

    def win_request(
        self, hand: HandState, win: WinContext, concealed: tuple[Tile, ...]
    ) -> WinRequest:
        """The scoring request for ``win`` with ``concealed`` (the hand without the win tile)."""
        return win_request(hand, win, concealed)

    @property
    def violations(self) -> tuple[Violation, ...]:
        """Every violation raised so far."""
        return tuple(self._ctx.violations)

    # -- actions -----------------------------------------------------------------------------------
    def apply(self, action: act.Action) -> list[Event]:
        """Apply one action and return the events it caused (violations included)."""
        self._clock += 1
        self._ctx.begin(action, action.at if action.at is not None else float(self._clock))
        saved = copy.deepcopy(self._state()) if self.strict else None
        try:
            self._dispatch(action)
        except IllegalActionError:
            if saved is not None:
                self._restore(saved)
            raise
        except Exception as exc:  # the table must keep going whatever it is fed
            seat = getattr(action, "seat", None)
            self._ctx.violate(ViolationKind.BAD_ACTION, seat, f"internal error: {exc!r}")
        self._history.remember(action)
        return self._ctx.events

    def _state(self) -> tuple[Any, ...]:
        """What a strict-mode refusal rolls back (what an action may replace)."""
        return self._ctx.state(), self._scoreboard.state()

    def _restore(self, state: tuple[Any, ...]) -> None:
        self._ctx.restore(state[0])
        self._scoreboard.restore(state[1])

    def _replay(self, actions: Sequence[act.Action]) -> None:
        """Rebuild the state by applying ``actions`` to a fresh table (a correction)."""
        procedure, rules = self._config[0], self._config[1]
        shadow = type(self)(procedure, rules=rules, table_id=self.table_id)
        for past in actions:
            shadow.apply(past)
        self._ctx.adopt(shadow._ctx)
        self._scoreboard.adopt(shadow._scoreboard)

    def _dispatch(self, action: act.Action) -> None:
        if isinstance(action, act.CommandRecord):  # a record only: no game state changes
            self._ctx.emit(
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
        hand = self._ctx.hand
        several_winners = hand is not None and hand.winners and hand.phase is not Phase.ENDED
        if several_winners and hand is not None and not isinstance(action, act.Win):
            self._scoreboard.end_hand(
                hand, "win"
            )  # several winners: the hand ends at the next action
        if isinstance(action, act.HandStart):
            self._deal.hand_start(action)
        elif isinstance(action, act.Deal):
            self._deal.deal(action)
        elif isinstance(action, act.Draw):
            self._turns.draw(action)
        elif isinstance(action, act.Discard):
            self._turns.discard(action.seat, action.tile, (action.row, action.col), action.inferred)
        elif isinstance(action, act.Chow):
            self._claims.claim_meld(action.seat, MeldKind.CHOW, action.tiles, action.tile)
        elif isinstance(action, act.Pung):
            self._claims.claim_meld(action.seat, MeldKind.PUNG, None, action.tile)
        elif isinstance(action, act.Kong):
            self._claims.claim_meld(action.seat, MeldKind.KONG, None, action.tile)
        elif isinstance(action, act.ConcealedKong):
            self._face_down.concealed_kong_of(action.seat, action.tile)
        elif isinstance(action, act.ShowKong):
            self._face_down.show_kong(action.seat, action.tile)
        elif isinstance(action, act.AddedKong):
            self._claims.added_kong(action.seat, action.tile)
        elif isinstance(action, act.Flower):
            self._claims.flower(action.seat, action.tile)
        elif isinstance(action, act.Win):
            self._wins.win(action.seat, action.tile, action.hand, one_unread=action.one_unread)
        elif isinstance(action, act.Washout):
            self._wins.washout()
        elif isinstance(action, act.Correction):
            self._history.correct(action)
        elif isinstance(action, act.TableFault):
            self._ctx.emit(TableFaultRaised, code=action.code, detail=action.detail)
        else:
            self._ctx.violate(ViolationKind.BAD_ACTION, None, f"unknown action {action!r}")

    # -- views -------------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The public state (JSON-able): what everybody at the table can see."""
        return public_snapshot(self._ctx, self._scoreboard)

    def private_snapshot(self) -> dict[str, Any]:
        """Concealed hands (where known) and the wall order: for referees only."""
        return private_snapshot(self._ctx)
