"""One table's service: engine in, outbox and MQTT out, commands answered.

Actions reach the engine through :meth:`TableService.apply` from any thread (vision, the table
driver, the demo's simulator); a lock keeps the engine single-threaded as it must be. Each action
is checked against its bounds (``engine.action_bounds``) before it is journaled, and each event is
stored in the outbox *before* it is published. An action the engine cannot apply is quarantined
(kept aside, an alert journaled in its place and published as a ``table_fault``), so a restart
replays the alert, never the poison. Commands are handled by :mod:`tilesight.command_runner` on
supervised workers; a worker's crash is published as a ``table_fault`` and the worker restarted.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from engine.actions import Action, TableFault, action_from_dict, action_to_dict, check_action
from engine.events import Event
from tilesight.bounded_json import loads_bounded
from tilesight.command_journal import CommandMessage
from tilesight.command_runner import LANES, CommandRunner
from tilesight.config import MqttEndpoint, TlsConfig
from tilesight.mqtt import MqttLink
from tilesight.outbox import Outbox
from tilesight.state_payload import state_payload
from tilesight.supervisor import Supervisor
from tilesight.table_engine import GameEngine, public_event
from tilesight.topics import TableTopics

log = logging.getLogger("tilesight.service")

#: Callback for shuffling-table verbs (shuffle, raise, clear_error); returns a result dict.
TableControl = Callable[[str], dict[str, Any]]
#: A journaled action is one JSON object of a few hundred bytes.
MAX_JOURNAL_LINE = 64 * 1024
#: The same fault is published at most once in this many seconds (a full disk fails every write).
FAULT_REPEAT_S = 60.0


class TableService:
    def __init__(
        self,
        *,
        topics: TableTopics,
        engine: GameEngine,
        outbox: Outbox,
        endpoint: MqttEndpoint,
        tls: TlsConfig | None = None,
        client_id: str | None = None,
        will_delay_s: int = 5,
        keepalive_s: int = 15,
        session_expiry_s: int = 3600,
        table_control: TableControl | None = None,
        on_events: Callable[[list[Event]], None] | None = None,
        discard_limit_s: float | None = None,
        broadcast_delay_s: float = 0.0,
        journal: bool = False,
        supervisor: Supervisor | None = None,
    ) -> None:
        self.topics = topics
        self.engine = engine
        self.outbox = outbox
        self.table_control = table_control
        self.on_events = on_events
        self.links: dict[str, str] = {"table": "absent", "camera": "absent"}
        self.link_detail: dict[str, str] = {}
        self.discard_limit_s = discard_limit_s
        self.journal = journal
        self._turn_since: float | None = None
        self._engine_lock = threading.RLock()
        self._own_supervisor = supervisor is None
        self.supervisor = supervisor or Supervisor(max_backoff_s=5.0)
        self.supervisor.on_crash = self._worker_crashed
        self._faults_reported: dict[str, float] = {}
        self.stored = 0
        # the latest commands run and replies sent, in order (bounded: the service runs for days)
        self.executed: collections.deque[str] = collections.deque(maxlen=1000)
        self.replies: collections.deque[dict[str, Any]] = collections.deque(maxlen=1000)
        self.link = MqttLink(
            endpoint,
            topics,
            outbox,
            client_id=client_id,
            tls=tls,
            keepalive_s=keepalive_s,
            will_delay_s=will_delay_s,
            session_expiry_s=session_expiry_s,
            on_command=self._receive_command,
            on_fault=self.report_fault,
            broadcast_delay_s=broadcast_delay_s,
        )
        self.commands = CommandRunner(self)

    # lifecycle -------------------------------------------------------------------------------
    def start(self) -> None:
        self._publish_state()
        for lane in LANES:
            self.supervisor.add(lane, self.commands.work(lane))
        self.link.start()
        if self._own_supervisor:
            self.supervisor.start()

    def stop(self, drain_timeout: float = 5.0) -> None:
        if self._own_supervisor:
            self.supervisor.stop()
        self.link.stop(drain_timeout)

    def _receive_command(self, command: CommandMessage) -> bool:
        return self.commands.receive(command)

    # engine ----------------------------------------------------------------------------------
    @property
    def engine_lock(self) -> threading.RLock:
        """Held while the engine changes; an input that reads the engine to work out its next
        action (a card camera inferring passes) holds it across the read and the apply."""
        return self._engine_lock

    def apply(self, action: Action) -> list[Event]:
        """Apply one action; returns the events newly stored (none if they were stored before).
        An action out of bounds raises ActionFormatError and is neither journaled nor applied."""
        if action.at is None:  # events carry the time the action happened
            action = dataclasses.replace(action, at=time.time())
        check_action(action)
        with self._engine_lock:
            row = None
            if self.journal:  # written ahead: a crash after this line replays the action
                epoch = self.engine.position[0]
                self.outbox.journal(self.topics.table, epoch, json.dumps(action_to_dict(action)))
                row = self.outbox.last_journal_row(self.topics.table)
            try:
                events = self.engine.apply(action)
            except Exception as exc:
                self._quarantine(row, action_to_dict(action), exc)
                raise
            fresh = self._stored(events)
        if fresh and self.on_events is not None:
            self.on_events(fresh)
        return fresh

    def restore(self, actions: list[str] | None = None) -> int:
        """Replay the journal (a restarted process): the engine is rebuilt, events it already
        stored are recognised, any it had not stored yet are stored and published. An entry
        that cannot be read or applied is quarantined with an alert, and replay goes on."""
        found = self.outbox.journal_rows(self.topics.table)
        rows = found[1] if found else []
        with self._engine_lock:
            for row, text in rows:
                try:
                    data = loads_bounded(text, max_bytes=MAX_JOURNAL_LINE, max_depth=8)
                    action = action_from_dict(data)
                except ValueError as exc:
                    self._quarantine(row, {"text": text[:500]}, exc)
                    continue
                try:
                    self._stored(self.engine.apply(action), publish_state=False)
                except Exception as exc:
                    self._quarantine(row, action_to_dict(action), exc)
            self._publish_state()
        return len(rows)

    def _stored(self, events: list[Event], *, publish_state: bool = True) -> list[Event]:
        if events:
            self._turn_since = events[-1].timestamp
        fresh = self._store_and_publish(events)
        if publish_state:
            self._publish_state()
        return fresh

    def _quarantine(self, row: int | None, action: dict[str, Any], exc: Exception) -> None:
        """Put a poisoned journal entry aside; an alert takes its place and is published."""
        what = f"{type(exc).__name__}: {exc}"[:300]
        log.error("journal entry %s cannot be applied, quarantined: %s (%s)", row, what, action)
        alert = TableFault(
            code="journal_quarantined",
            detail=f"a {action.get('action', 'journal')} entry could not be applied: {what}",
            at=time.time(),
        )
        if row is not None:
            self.outbox.quarantine(row, json.dumps(action_to_dict(alert)), what)
        self._stored(self.engine.apply(alert))

    def report_fault(self, code: str, detail: str) -> None:
        """Publish a ``table_fault`` (code, detail) for the referee; from any thread. Never
        raises: when storage is what fails, the fault is logged and the worker's crash stands."""
        if code == "broker_refused":  # wrong credentials: nothing this process can fix
            self.supervisor.fail(detail)
        elif code == "mqtt_callback":  # the network thread survived it; counted like a crash
            self.supervisor.record_crash("mqtt", detail)
        now = time.monotonic()
        if now - self._faults_reported.get(code, -FAULT_REPEAT_S) < FAULT_REPEAT_S:
            return
        self._faults_reported[code] = now
        try:
            self.apply(TableFault(code=code, detail=detail[:500]))
        except Exception as exc:  # the outbox itself fails: the retained state still goes out
            log.error("could not store fault %s (%s): %s", code, detail, exc)
            self.set_link("outbox", f"offline: {code}: {exc}"[:300])

    def _worker_crashed(self, name: str, error: str) -> None:
        self.report_fault("worker_crashed", f"{name} failed: {error}")

    def set_link(self, name: str, status: str) -> None:
        """A camera/table link's status for the retained state: ``links`` holds one word
        (online, offline, stopped...; pages compare it), ``link_detail`` the reason, if any."""
        word, _, detail = status.partition(":")
        with self._engine_lock:
            self.links[name] = word.strip()
            if detail.strip():
                self.link_detail[name] = detail.strip()
            else:
                self.link_detail.pop(name, None)
            self._publish_state()

    def _store_and_publish(self, events: list[Event]) -> list[Event]:
        fresh = []
        for event in events:
            public = public_event(event)
            row = self.outbox.append(public, self.topics.event(event.type))
            if row is None:
                continue  # stored by an earlier run of this process: already on its way
            self.link.publish_row(row)
            fresh.append(event)
        self.stored += len(fresh)
        return fresh

    def _publish_state(self) -> None:
        self.link.publish_state(
            state_payload(
                self.engine,
                tournament=self.topics.tournament,
                table=self.topics.table,
                links=self.links,
                link_detail=self.link_detail,
                turn_since=self._turn_since,
                discard_limit_s=self.discard_limit_s,
            )
        )
        self.link.publish_private("state", self.engine.private_snapshot())
