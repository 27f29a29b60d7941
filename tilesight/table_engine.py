"""Where the service meets the engine's table API.

Everything else in ``tilesight`` talks to a :class:`GameEngine`: apply an action, get events; read
the public and private snapshots. :class:`TableEngine` adapts :class:`engine.table.Table`. The
shuffling table (devices) is coupled in :mod:`tilesight.table_bridge`, the cameras (vision) in
:mod:`tilesight.camera_feed`; :mod:`tilesight.input_workers` starts both.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

from engine.actions import Action, HandStart
from engine.events import Event
from engine.procedures import find_procedure
from engine.rulesets import find_rules
from engine.table import Table
from engine.table.core import seeded_id_factory
from engine.table.events import public_form
from engine.timing import limits_for


class GameEngine(Protocol):
    """What the service needs from the rules engine."""

    @property
    def position(self) -> tuple[int, int]:
        """``(epoch, seq)`` of the last event emitted."""
        ...

    def apply(self, action: Action) -> list[Event]: ...

    def snapshot(self) -> dict[str, Any]: ...

    def private_snapshot(self) -> dict[str, Any]: ...


class TableEngine:
    """:class:`engine.table.Table` behind the :class:`GameEngine` protocol.

    Event ids come from a seeded factory, so a restarted process that replays the same actions
    (with the same timestamps) regenerates the very same events; either way the outbox
    recognises the ``(epoch, seq)`` it already holds.
    """

    def __init__(
        self, *, table_id: str, procedure: str, rules: str | None, seed: int = 0, epoch: int = 1
    ) -> None:
        self.table = Table(
            procedure=find_procedure(procedure),
            rules=find_rules(rules) if rules else None,  # None: the procedure's default
            table_id=table_id,
            epoch=epoch,
            id_factory=seeded_id_factory(seed),
        )
        #: The last hand start applied and the events it gave (a journal replayed after a
        #: restart rebuilds it): a camera-only table's dealer check (tilesight.dealer_watch).
        self.last_hand_start: tuple[HandStart, list[Event]] | None = None

    @property
    def position(self) -> tuple[int, int]:
        return self.table.epoch, self.table.seq

    def apply(self, action: Action) -> list[Event]:
        events = list(self.table.apply(action))
        if isinstance(action, HandStart):
            self.last_hand_start = (action, events)
        return events

    def snapshot(self) -> dict[str, Any]:
        return dict(self.table.snapshot())

    def private_snapshot(self) -> dict[str, Any]:
        return dict(self.table.private_snapshot())


def public_event(event: Event) -> Event:
    """The form for public topics: concealed fields (a drawn tile, dealt tiles) blanked."""
    return public_form(event)


def discard_limit(procedure: str) -> float | None:
    """Seconds allowed per discard under ``procedure`` (None: no limit)."""
    limit = limits_for(find_procedure(procedure)).per_discard_s
    return None if math.isinf(limit) else limit
