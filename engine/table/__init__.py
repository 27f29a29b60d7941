"""The table state machine: ``Table(...).apply(action) -> events``, never crashing on what a
camera reports.

:class:`Table` lives in :mod:`engine.table.machine`. Beside it: the hand and seat state
(:mod:`~engine.table.seats`), the wall and clock adapters (:mod:`~engine.table.wall`,
:mod:`~engine.table.timing`), the events (:mod:`~engine.table.events`), the snapshots
(:mod:`~engine.table.snapshot`), the rule sets' optional table hooks
(:mod:`~engine.table.rules_api`) and what the table does per action (deal, claims, wins,
face-down kongs, hooks, history).
"""

from engine.table.machine import Table

__all__ = ["Table"]
