"""Corrections: an action that turned out wrong is superseded, never edited away.

The table remembers every action it applied and which action caused each event. A
:class:`engine.actions.Correction` names an event; the action behind it is replaced (or dropped),
the state is rebuilt by replaying the history on a fresh table, and a ``correction_applied``
event tells consumers to refresh from the new snapshot.
"""

from __future__ import annotations

from typing import Any

from engine import actions as act
from engine.table.events import CorrectionApplied
from engine.table.wins import WinsMixin
from engine.violations import ViolationKind


class HistoryMixin(WinsMixin):
    _history: list[act.Action | None]
    _action_of_event: dict[str, int]
    _config: tuple[Any, ...]

    def _remember(self, action: act.Action) -> None:
        if isinstance(action, act.Correction):
            return
        index = len(self._history)
        self._history.append(action)
        for event in self._events:
            self._action_of_event[event.event_id] = index

    def _correct(self, action: act.Correction) -> None:
        index = self._action_of_event.get(action.supersedes)
        if index is None:
            self._violate(ViolationKind.UNKNOWN_EVENT, None, f"no event {action.supersedes!r}")
            return
        self._history[index] = action.replacement
        procedure, rules = self._config[0], self._config[1]
        shadow = type(self)(procedure, rules=rules, table_id=self.table_id)  # type: ignore[call-arg]
        for past in self._history:
            if past is not None:
                shadow.apply(past)  # type: ignore[attr-defined]
        self.procedure, self.hand, self.wall, self.timer = (
            shadow.procedure,
            shadow.hand,
            shadow.wall,
            shadow.timer,
        )
        self.scores, self.hands_played = shadow.scores, shadow.hands_played
        self.next_dealer = shadow.next_dealer
        replacement = act.action_to_dict(action.replacement) if action.replacement else None
        self._emit(
            CorrectionApplied,
            supersedes=action.supersedes,
            replacement=replacement,
            reason=action.reason,
        )
