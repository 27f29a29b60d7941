"""Where the service meets the engine's table API, and which input workers a table runs.

Everything else in ``tilesight`` talks to a :class:`GameEngine`: apply an action, get events; read
the public and private snapshots. :class:`TableEngine` adapts :class:`engine.table.Table`. The
shuffling table (devices) is coupled in :mod:`tilesight.table_bridge`, the cameras (vision) in
:mod:`tilesight.camera_feed`.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any, Protocol

from engine.actions import Action
from engine.events import Event
from engine.procedures import find_procedure
from engine.rulesets import find_rules
from engine.simulate_actions import demo_hands  # noqa: F401 - bench/bench_camera_run.py imports it here
from engine.table import Table
from engine.table_core import seeded_id_factory
from engine.table_events import public_form
from engine.timing import limits_for

if TYPE_CHECKING:
    from tilesight.camera_feed import CameraFeed
    from tilesight.config import ServiceConfig
    from tilesight.supervisor import Work
    from tilesight.table_bridge import TableBridge

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


def discard_limit(procedure: str) -> float | None:
    """Seconds allowed per discard under ``procedure`` (None: no limit)."""
    limit = limits_for(find_procedure(procedure)).per_discard_s
    return None if math.isinf(limit) else limit


def state_payload(
    engine: GameEngine,
    *,
    tournament: str,
    table: str,
    links: dict[str, str],
    link_detail: dict[str, str] | None = None,
    turn_since: float | None,
    discard_limit_s: float | None,
) -> dict[str, Any]:
    """The retained ``state`` message: enough for an overlay opened mid-hand to draw everything.

    ``game`` is the engine's public snapshot (rivers, melds, flowers, wall counts with the
    reserved tiles, turn, scores); ``timer`` lets a page run the discard clock locally.
    """
    epoch, seq = engine.position
    game = engine.snapshot()
    hand = game.get("hand") or {}
    return {
        "schema": STATE_SCHEMA,
        "tournament": tournament,
        "table": table,
        "epoch": epoch,
        "seq": seq,
        "updated": time.time(),
        "links": dict(links),
        "link_detail": dict(link_detail or {}),
        "timer": {
            "turn": hand.get("turn"),
            "since": turn_since,
            "discard_limit_s": discard_limit_s,
        },
        "game": game,
    }


def input_workers(
    config: ServiceConfig, bridge: TableBridge | None, feed: CameraFeed | None = None
) -> list[tuple[str, Work]]:
    """The supervised threads feeding the engine: shuffling table and cameras, as configured."""
    workers: list[tuple[str, Work]] = []
    if config.table_port.url:
        assert bridge is not None
        workers.append(("table", bridge.worker(config.table_port.url)))
    if feed is not None:
        for index, camera in enumerate(config.cameras):  # every camera is overhead (config)
            workers.append((f"camera{index}" if index else "camera", feed.worker(camera)))
    return workers
