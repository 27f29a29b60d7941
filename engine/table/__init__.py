"""The table state machine: ``Table(...).apply(action) -> events``, never crashing on what a
camera reports.

:class:`Table` (:mod:`~engine.table.machine`) hands each action to a collaborator:
:mod:`~engine.table.turns` (draw, discard), :mod:`~engine.table.claims`,
:mod:`~engine.table.face_down`, :mod:`~engine.table.wins`, :mod:`~engine.table.deal`,
:mod:`~engine.table.history` (corrections); :mod:`~engine.table.hooks` asks the rule set's table
hooks (:mod:`~engine.table.rules_api`) and :mod:`~engine.table.scoreboard` keeps the totals. They
share one :class:`~engine.table.core.TableContext`: the hand and seats
(:mod:`~engine.table.seats`), the wall and clock (:mod:`~engine.table.wall`,
:mod:`~engine.table.timing`), the rules, and the output of events (:mod:`~engine.table.events`)
and violations. :mod:`~engine.table.snapshot` gives the JSON views.
"""

from engine.table.machine import Table

__all__ = ["Table"]
