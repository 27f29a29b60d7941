"""The one place where the service meets the engine's table API (and later vision and devices).

Everything else in ``tilesight`` talks to a :class:`GameEngine`: apply an action, get events; read
the public and private snapshots. :class:`TableEngine` adapts :class:`engine.table.Table`.
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from engine.actions import Action
from engine.events import Event
from engine.procedures import find_procedure
from engine.rulesets import find_rules
from engine.table_core import seeded_id_factory
from engine.table_events import public_form

STATE_SCHEMA = "tilesight.state/1"


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
    regenerates the very same events, and the outbox recognises the ones it already holds.
    """

    def __init__(
        self, *, table_id: str, procedure: str, rules: str, seed: int = 0, epoch: int = 1
    ) -> None:
        from engine.table import Table  # noqa: PLC0415 - keeps tilesight importable without it

        self.table = Table(
            procedure=find_procedure(procedure),
            rules=find_rules(rules),
            table_id=table_id,
            epoch=epoch,
            id_factory=seeded_id_factory(seed),
        )

    @property
    def position(self) -> tuple[int, int]:
        return self.table.epoch, self.table.seq

    def apply(self, action: Action) -> list[Event]:
        return list(self.table.apply(action))

    def snapshot(self) -> dict[str, Any]:
        return dict(self.table.snapshot())

    def private_snapshot(self) -> dict[str, Any]:
        return dict(self.table.private_snapshot())


def public_event(event: Event) -> Event:
    """The form for public topics: concealed fields (a drawn tile, dealt tiles) blanked."""
    return public_form(event)


def state_payload(
    engine: GameEngine, *, tournament: str, table: str, links: dict[str, str]
) -> dict[str, Any]:
    """The retained ``state`` message: enough for an overlay opened mid-hand to draw everything."""
    epoch, seq = engine.position
    return {
        "schema": STATE_SCHEMA,
        "tournament": tournament,
        "table": table,
        "epoch": epoch,
        "seq": seq,
        "updated": time.time(),
        "links": dict(links),
        "game": engine.snapshot(),
    }
