"""Corrections: an action that turned out wrong is superseded, never edited away.

The table remembers every action it applied and which action caused each event. A
:class:`engine.actions.Correction` names an event; the action behind it is replaced (or dropped),
the state is rebuilt by replaying the history on a fresh table, and a ``correction_applied``
event tells consumers to refresh from the new snapshot.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine import actions as act
from engine.table.core import TableContext
from engine.table.events import CorrectionApplied
from engine.violations import ViolationKind

#: Rebuilds the table's state from these actions, applied in order to a fresh table.
Replay = Callable[[Sequence[act.Action]], None]


class History:
    """Owns the actions applied so far and, per event id, the action that caused it."""

    def __init__(self, ctx: TableContext, replay: Replay) -> None:
        self.ctx, self._replay = ctx, replay
        self.actions: list[act.Action | None] = []  # None: dropped by a correction
        self.action_of_event: dict[str, int] = {}

    def remember(self, action: act.Action) -> None:
        if isinstance(action, act.Correction):
            return
        index = len(self.actions)
        self.actions.append(action)
        for event in self.ctx.events:
            self.action_of_event[event.event_id] = index

    def correct(self, action: act.Correction) -> None:
        index = self.action_of_event.get(action.supersedes)
        if index is None:
            self.ctx.violate(ViolationKind.UNKNOWN_EVENT, None, f"no event {action.supersedes!r}")
            return
        self.actions[index] = action.replacement
        self._replay([past for past in self.actions if past is not None])
        replacement = act.action_to_dict(action.replacement) if action.replacement else None
        self.ctx.emit(
            CorrectionApplied,
            supersedes=action.supersedes,
            replacement=replacement,
            reason=action.reason,
        )
