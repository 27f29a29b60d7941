"""A Gouji table at the service: games of a match in the envelope every table event carries.

:class:`GoujiTable` is to :class:`~engine.gouji.table.GoujiGame` what ``engine.table.Table`` is
to a mahjong hand: it takes actions (:mod:`engine.gouji.table_events`), numbers the events
``(epoch, seq)``, gives them seeded UUIDv7 ids (a replay of the same actions makes the same
events) and keeps what a page needs to draw the table: cards left, the current trick, the
finishing order so far and the match. Illegal plays become ``violation`` events, never errors.
A referee's :class:`~engine.actions.Correction` supersedes a game action and replays the rest
(:mod:`engine.gouji.corrections`); the table adopts the replayed state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.actions import Action, CommandRecord, Correction, TableFault, action_to_dict
from engine.events import Event, make_event_id
from engine.gouji import events as game_events
from engine.gouji.cards import CARDS_PER_PACK, PACKS
from engine.gouji.corrections import GoujiHistory
from engine.gouji.events import GoujiAction, Pass, Play
from engine.gouji.notation import CardNotationError, card_list, parse_cards
from engine.gouji.options import GoujiOptions
from engine.gouji.scoring import PLACE_NAMES, MatchScore
from engine.gouji.table import GoujiGame
from engine.gouji.table_events import (
    CardsPlayed,
    GameOver,
    GameStarted,
    GoujiCommandHandled,
    GoujiCorrectionApplied,
    GoujiPass,
    GoujiPlay,
    GoujiStart,
    GoujiTableFault,
    GoujiViolationRaised,
    Passed,
    PlayerOut,
    PointFailed,
    PointOpened,
    TrickWon,
)
from engine.gouji.table_view import public_snapshot
from engine.gouji.violations import GoujiViolation
from engine.gouji.violations import GoujiViolationKind as Kind

#: Makes an event id from the event's timestamp.
IdFactory = Callable[[float], str]


def seeded_ids(seed: int) -> IdFactory:
    """UUIDv7 ids from the timestamp and a seeded generator: a replay makes the same ids."""
    rng = random.Random(seed)
    return lambda at: make_event_id(max(0, int(at * 1000)), rng.randbytes(10))


class GoujiTable:
    """One Gouji table: a match of games, six seats 0-5 (alliances 0/2/4 and 1/3/5)."""

    def __init__(
        self,
        *,
        table_id: str,
        options: GoujiOptions | None = None,
        epoch: int = 1,
        seed: int = 0,
        id_factory: IdFactory | None = None,
    ) -> None:
        self.table_id = table_id
        self.options = options or GoujiOptions()
        self.epoch, self.seq = epoch, 0
        self._new_id = id_factory or seeded_ids(seed)
        self.game: GoujiGame | None = None
        self.game_number = 0
        self.match = MatchScore(target=self.options.match_target)
        self.trick: list[dict[str, Any]] = []
        self.trick_winner: int | None = None
        self.places: dict[int, int] = {}
        self.last_game: dict[str, Any] | None = None
        self.history = GoujiHistory()  # what a referee's correction replays

    @property
    def position(self) -> tuple[int, int]:
        return self.epoch, self.seq

    def apply(self, action: Action) -> list[Event]:
        at = action.at if action.at is not None else 0.0
        if isinstance(action, Correction):
            return self._correct(action, at)
        if isinstance(action, GoujiStart | GoujiPlay | GoujiPass):
            events = (
                self._start(action, at)
                if isinstance(action, GoujiStart)
                else self._step(action, at)
            )
            self.history.remember(action, events)
            return events
        if isinstance(action, TableFault):
            return [self._event(GoujiTableFault, at, code=action.code, detail=action.detail)]
        if isinstance(action, CommandRecord):
            fields = {k: getattr(action, k) for k in ("verb", "outcome", "account", "correlation")}
            extra = {k: getattr(action, k) for k in ("alert", "note", "error", "result")}
            return [self._event(GoujiCommandHandled, at, **fields, **extra)]
        problem = GoujiViolation.of(Kind.BAD_ACTION, None, f"not a Gouji action: {action.name}")
        return [self._violation(problem, action, at)]

    # actions ---------------------------------------------------------------------------------
    def _correct(self, action: Correction, at: float) -> list[Event]:
        """Supersede a game action and replay (engine/gouji/corrections.py); refused: a
        violation and nothing else changes."""
        replayed = self.history.replay(action, self._fresh)
        if isinstance(replayed, GoujiViolation):
            return [self._violation(replayed, action, at)]
        self.game, self.game_number, self.match = (
            replayed.game,
            replayed.game_number,
            replayed.match,
        )
        self.trick, self.trick_winner = replayed.trick, replayed.trick_winner
        self.places, self.last_game = replayed.places, replayed.last_game
        replacement = action_to_dict(action.replacement) if action.replacement else None
        fields = {"supersedes": action.supersedes, "replacement": replacement}
        return [self._event(GoujiCorrectionApplied, at, **fields, reason=action.reason)]

    def _fresh(self) -> GoujiTable:
        """A table to replay on: the same options; its events and ids are never published."""
        return GoujiTable(table_id=self.table_id, options=self.options, epoch=self.epoch)

    def _start(self, action: GoujiStart, at: float) -> list[Event]:
        try:
            hands = [parse_cards(hand) for hand in action.hands]
            if sum(map(len, hands)) > PACKS * CARDS_PER_PACK:  # a misread, a hostile command
                raise ValueError(f"more than the {PACKS * CARDS_PER_PACK} cards of four packs")
            game = GoujiGame(hands, action.leader, self.options, revolutionary=action.revolutionary)
        except (CardNotationError, ValueError) as exc:
            problem = GoujiViolation.of(Kind.BAD_ACTION, None, f"cannot start a game: {exc}")
            return [self._violation(problem, action, at)]
        if self.match.winner is not None:  # a new match
            self.match = MatchScore(target=self.options.match_target)
        self.game, self.game_number = game, self.game_number + 1
        self.trick, self.trick_winner, self.places = [], None, {}
        started = self._event(
            GameStarted,
            at,
            game_number=self.game_number,
            leader=action.leader,
            revolutionary=action.revolutionary,
            cards_left=tuple(len(hand) for hand in hands),
            match=self.match.points,
            hands=tuple(action.hands),
        )
        return [started]

    def _step(self, action: GoujiPlay | GoujiPass, at: float) -> list[Event]:
        if self.game is None:
            problem = GoujiViolation.of(Kind.GAME_OVER, action.seat, "no game has started")
            return [self._violation(problem, action, at)]
        move: GoujiAction = Pass(action.seat)
        if isinstance(action, GoujiPlay):
            try:
                move = Play(action.seat, parse_cards(action.cards))
            except CardNotationError as exc:
                problem = GoujiViolation.of(Kind.BAD_ACTION, action.seat, str(exc))
                return [self._violation(problem, action, at)]
        step = self.game.apply(move)
        out: list[Event] = [self._violation(v, action, at) for v in step.violations]
        inferred = isinstance(action, GoujiPass) and action.inferred
        camera = isinstance(action, GoujiPlay) and action.camera
        for event in step.events:
            out.append(self._envelope(event, at, inferred=inferred, camera=camera))
        return out

    # events ----------------------------------------------------------------------------------
    def _envelope(
        self, event: game_events.GoujiEvent, at: float, *, inferred: bool, camera: bool
    ) -> Event:
        game = self.game
        assert game is not None
        if isinstance(event, game_events.CardsPlayed):
            if event.role == "lead":
                self.trick, self.trick_winner = [], None
            cards = tuple(card_list(event.cards))
            self.trick.append({"seat": event.seat, "cards": list(cards), "role": event.role})
            self.trick[-1] |= {"gouji": event.gouji, "tongpai": event.tongpai}
            return self._event(
                CardsPlayed,
                at,
                seat=event.seat,
                cards=cards,
                role=event.role,
                gouji=event.gouji,
                tongpai=event.tongpai,
                cards_left=event.cards_left,
                report=game.report(event.seat) is not None,
                trick_leader=self.trick[0]["seat"],
                camera=camera,
            )
        if isinstance(event, game_events.Passed):
            return self._event(Passed, at, seat=event.seat, inferred=inferred)
        if isinstance(event, game_events.TrickWon):
            self.trick_winner = event.seat
            return self._event(TrickWon, at, seat=event.seat, leader=event.leader)
        if isinstance(event, game_events.PointOpened):
            return self._event(PointOpened, at, seat=event.seat)
        if isinstance(event, game_events.PointFailed):
            return self._event(PointFailed, at, seat=event.seat, reason=event.reason)
        if isinstance(event, game_events.PlayerOut):
            self.places[event.seat] = event.place
            name = PLACE_NAMES[event.place - 1]
            return self._event(PlayerOut, at, seat=event.seat, place=event.place, place_name=name)
        return self._game_over(event, at)

    def _game_over(self, event: game_events.GameOver, at: float) -> Event:
        result = self.game.result if self.game is not None else None
        assert result is not None
        self.match = self.match.record(result)
        self.places = {seat: place for place, seat in enumerate(result.finish_order, start=1)}
        self.last_game = {
            "game_number": self.game_number,
            "finish_order": list(result.finish_order),
            "scores": list(result.scores),
            "alliances": list(result.alliances),
            "sweep": result.sweep,
        }
        return self._event(
            GameOver,
            at,
            game_number=self.game_number,
            finish_order=event.finish_order,
            scores=event.scores,
            alliances=result.alliances,
            sweep=event.sweep,
            match=self.match.points,
            match_winner=self.match.winner,
        )

    def _violation(self, problem: GoujiViolation, action: Action, at: float) -> Event:
        return self._event(
            GoujiViolationRaised,
            at,
            kind=problem.kind.value,
            seat=problem.seat,
            detail=problem.detail,
            severity=problem.severity.value,
            action=action_to_dict(action),
        )

    def _event(self, cls: type[Event], at: float, **fields: Any) -> Event:
        self.seq += 1
        return cls(
            event_id=self._new_id(at),
            table=self.table_id,
            epoch=self.epoch,
            seq=self.seq,
            timestamp=at,
            **fields,
        )

    # snapshots -------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The public state: no card of any hand, only how many each seat holds."""
        return public_snapshot(self)

    def private_snapshot(self) -> dict[str, Any]:
        """Every seat's cards: for referees only (``private/state``)."""
        hands = None if self.game is None else [card_list(h) for h in self.game.hands]
        return {"table": self.table_id, "game_number": self.game_number, "hands": hands}
