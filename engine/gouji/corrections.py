"""Referee corrections at a Gouji table: a misread play or a wrongly inferred pass repaired.

A card camera misreads now and then (a lone ``Td`` read as ``Tc Td``), and a pass it infers
from the next play can be wrong. As at a mahjong table (``engine.table.history``), nothing is
edited away: a :class:`engine.actions.Correction` names the event a game action made (a
``cards_played``, a ``passed``, its ``violation``, a ``game_started``...) and supersedes that
action with ``replacement`` (a ``gouji_play``, ``gouji_pass`` or ``gouji_start``) or drops it
(``replacement`` None). :class:`GoujiHistory` replays every game action the table applied, so
far, on a fresh table with the one changed; the table adopts the replayed state and publishes
``correction_applied``. Event ids stay those already published: a second correction of the
same action names any event the first action made.

A correction is refused (a ``violation``, the state unchanged) when its event is unknown, when
the replacement is not a game action, or when the replayed history is illegal: the replacement
itself breaks a rule, or a later action that was legal becomes illegal. A later action that
was already illegal (a play refused because of the misread) may stay illegal or become legal:
that is what a correction repairs. Several wrong actions in a row are corrected latest first.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from engine.actions import Action, Correction
from engine.events import Event
from engine.gouji.table_events import GoujiPass, GoujiPlay, GoujiStart, GoujiViolationRaised
from engine.gouji.violations import GoujiViolation
from engine.gouji.violations import GoujiViolationKind as Kind

#: The actions a correction may supersede and replace: they are what the game is made of.
GAME_ACTIONS = (GoujiStart, GoujiPlay, GoujiPass)


class Replayable(Protocol):
    """A fresh table to replay the history on (:class:`~engine.gouji.match_table.GoujiTable`)."""

    def apply(self, action: Action) -> list[Event]: ...


T = TypeVar("T", bound=Replayable)


def describe(action: Action) -> str:
    """An action as a referee reads it in a refusal.

    >>> describe(GoujiPlay(seat=2, cards="Tc Td", camera=True))
    "seat 2's play 'Tc Td' (camera)"
    >>> describe(GoujiPass(seat=4, inferred=True))
    "seat 4's pass (inferred)"
    """
    if isinstance(action, GoujiPlay):
        return f"seat {action.seat}'s play {action.cards!r}{' (camera)' if action.camera else ''}"
    if isinstance(action, GoujiPass):
        return f"seat {action.seat}'s pass{' (inferred)' if action.inferred else ''}"
    if isinstance(action, GoujiStart):
        return f"the game start (seat {action.leader} leads)"
    return action.name


def _problems(events: Sequence[Event]) -> list[GoujiViolationRaised]:
    return [e for e in events if isinstance(e, GoujiViolationRaised)]


class GoujiHistory:
    """Every game action a table applied, in order, and which action made each event."""

    def __init__(self) -> None:
        self.actions: list[Action | None] = []  # None: dropped by a correction
        self.illegal: list[bool] = []  # the action raised a violation where it stood
        self.first_event: list[str | None] = []  # the first event it made, to name it
        self.action_of_event: dict[str, int] = {}

    def remember(self, action: Action, events: Sequence[Event]) -> None:
        """Record a game action the table applied and the events it made (others: ignored)."""
        if not isinstance(action, GAME_ACTIONS):
            return
        index = len(self.actions)
        self.actions.append(action)
        self.illegal.append(bool(_problems(events)))
        self.first_event.append(events[0].event_id if events else None)
        for event in events:
            self.action_of_event[event.event_id] = index

    def replay(self, correction: Correction, fresh: Callable[[], T]) -> T | GoujiViolation:
        """The table ``fresh()`` after replaying the history as corrected (the history then
        holds the correction), or the violation that refuses it (the history unchanged)."""
        index = self.action_of_event.get(correction.supersedes)
        if index is None:
            detail = (
                f"no play, pass or game start made event {correction.supersedes!r}: "
                "nothing to correct"
            )
            return GoujiViolation.of(Kind.UNKNOWN_EVENT, None, detail)
        replacement = correction.replacement
        if replacement is not None and not isinstance(replacement, GAME_ACTIONS):
            detail = (
                f"a {replacement.name!r} action cannot replace a game action "
                "(gouji_play, gouji_pass or gouji_start)"
            )
            return GoujiViolation.of(Kind.CORRECTION_REFUSED, None, detail)
        original = self.actions[index]
        if replacement is not None and replacement.at is None and original is not None:
            replacement = dataclasses.replace(replacement, at=original.at)  # when it happened
        actions = [*self.actions]
        actions[index] = replacement
        table = fresh()
        illegal: list[bool] = []
        for i, action in enumerate(actions):
            problems = _problems(table.apply(action)) if action is not None else []
            illegal.append(bool(problems))
            if problems and i >= index and (i == index or not self.illegal[i]):
                assert action is not None
                return self._refusal(index, i, action, problems[0])
        self.actions, self.illegal = actions, illegal
        return table

    def _refusal(
        self, index: int, at: int, action: Action, problem: GoujiViolationRaised
    ) -> GoujiViolation:
        seat = getattr(action, "seat", None)
        if at == index:
            what = f"the replacement, {describe(action)}, is illegal"
        else:
            event = self.first_event[at]
            what = f"{describe(action)} (event {event}) would become illegal"
        detail = f"correction refused: {what}: {problem.kind}: {problem.detail}; nothing changed"
        return GoujiViolation.of(
            Kind.CORRECTION_REFUSED, seat if isinstance(seat, int) else None, detail
        )
