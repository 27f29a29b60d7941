"""One table's service: engine in, outbox and MQTT out, commands answered.

Actions reach the engine through :meth:`TableService.apply` from any thread (vision, the table
driver, the demo's simulator); a lock keeps the engine single-threaded as it must be. Each event
is stored in the outbox *before* it is published. Commands from ``cmd/<verb>`` are validated on the
network thread and executed on the service's own worker thread; one whose message expiry ran out
while it waited is dropped, not executed. Every command executed (ok or failed), ``resync`` aside,
is recorded as one ``command_handled`` event through the engine and the outbox, so it has its
place in ``(epoch, seq)`` and is never lost; its event_id is in the response (``event``).
"""

from __future__ import annotations

import collections
import dataclasses
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from engine.actions import Action, CommandRecord, action_from_dict, action_to_dict
from engine.events import Event
from tilesight.config import MqttEndpoint, TlsConfig
from tilesight.mqtt import CommandMessage, TableLink
from tilesight.outbox import Outbox
from tilesight.pipeline import GameEngine, public_event, state_payload
from tilesight.remote_commands import (
    AckRequest,
    CommandError,
    ResyncRequest,
    TableRequest,
    parse_command,
    to_action,
)
from tilesight.topics import TableTopics

log = logging.getLogger("tilesight.service")

#: Callback for shuffling-table verbs (shuffle, raise, clear_error); returns a result dict.
TableControl = Callable[[str], dict[str, Any]]


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
        self._engine_lock = threading.Lock()
        self._commands: queue.Queue[CommandMessage | None] = queue.Queue()
        self._worker: threading.Thread | None = None
        self.stored = 0
        # the latest commands run and replies sent, in order (bounded: the service runs for days)
        self.executed: collections.deque[str] = collections.deque(maxlen=1000)
        self.replies: collections.deque[dict[str, Any]] = collections.deque(maxlen=1000)
        self.link = TableLink(
            endpoint,
            topics,
            outbox,
            client_id=client_id,
            tls=tls,
            keepalive_s=keepalive_s,
            will_delay_s=will_delay_s,
            session_expiry_s=session_expiry_s,
            on_command=self._receive_command,
            broadcast_delay_s=broadcast_delay_s,
        )

    # lifecycle -------------------------------------------------------------------------------
    def start(self) -> None:
        self._publish_state()
        self.link.start()
        self._worker = threading.Thread(target=self._run_commands, name="commands", daemon=True)
        self._worker.start()

    def stop(self, drain_timeout: float = 5.0) -> None:
        self._commands.put(None)
        if self._worker is not None:
            self._worker.join(timeout=5)
        self.link.stop(drain_timeout)

    # engine ----------------------------------------------------------------------------------
    def apply(self, action: Action) -> list[Event]:
        """Apply one action; returns the events newly stored (none if they were stored before)."""
        if action.at is None:  # events carry the time the action happened
            action = dataclasses.replace(action, at=time.time())
        with self._engine_lock:
            if self.journal:  # written ahead: a crash after this line replays the action
                epoch = self.engine.position[0]
                self.outbox.journal(self.topics.table, epoch, json.dumps(action_to_dict(action)))
            events = self.engine.apply(action)
            if events:
                self._turn_since = events[-1].timestamp
            fresh = self._store_and_publish(events)
            self._publish_state()
        if fresh and self.on_events is not None:
            self.on_events(fresh)
        return fresh

    def restore(self, actions: list[str]) -> int:
        """Replay journaled actions (a restarted process): the engine is rebuilt, events it
        already stored are recognised, any it had not stored yet are stored and published."""
        with self._engine_lock:
            for text in actions:
                events = self.engine.apply(action_from_dict(json.loads(text)))
                if events:
                    self._turn_since = events[-1].timestamp
                self._store_and_publish(events)
            self._publish_state()
        return len(actions)

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

    # commands --------------------------------------------------------------------------------
    def _receive_command(self, command: CommandMessage) -> None:
        try:
            parse_command(command.verb, command.payload)
        except CommandError as exc:
            log.warning("rejected command: %s", exc)
            self.link.reply(command, {"ok": False, "verb": command.verb, "error": str(exc)})
            return
        self._commands.put(command)

    def _run_commands(self) -> None:
        while (command := self._commands.get()) is not None:
            if command.expired():
                log.warning("command %s expired before it could run; not executed", command.verb)
                continue
            try:
                result = self._execute(command)
                reply: dict[str, Any] = {"ok": True, "verb": command.verb, "result": result}
                self.executed.append(command.verb)
            except CommandError as exc:
                reply = {"ok": False, "verb": command.verb, "error": str(exc)}
            except Exception as exc:  # a command must never take the service down
                log.exception("command %s failed", command.verb)
                reply = {"ok": False, "verb": command.verb, "error": f"internal error: {exc}"}
            # resync only reads the outbox: logging it would grow the very stream it repairs
            # (every consumer's gap repair a new event) and shift the seq of a deterministic
            # replay such as the demo's resume, so it is answered and logged, not recorded
            recorded = self._record(command, reply) if command.verb != "resync" else None
            if recorded is not None:
                reply["event"] = recorded
            self.replies.append(reply)
            if reply["ok"]:
                log.info("command %s done", command.verb)
            else:
                log.warning("command %s failed: %s", command.verb, reply["error"])
            self.link.reply(command, reply)

    def _record(self, command: CommandMessage, reply: dict[str, Any]) -> str | None:
        """Log the handled command as a ``command_handled`` event; its event_id."""
        try:
            request = parse_command(command.verb, command.payload)
        except CommandError:
            request = None
        record = CommandRecord(
            verb=command.verb,
            outcome="ok" if reply["ok"] else "error",
            account=command.account,
            correlation=_correlation_text(command.correlation_data),
            alert=request.alert if isinstance(request, AckRequest) else None,
            note=request.note if isinstance(request, AckRequest) else "",
            error=str(reply.get("error", "")),
            result=json.dumps(reply.get("result", {}), separators=(",", ":"), default=str)[:2000],
        )
        events = self.apply(record)
        handled = [e.event_id for e in events if e.type == "command_handled"]
        return handled[0] if handled else None

    def _execute(self, command: CommandMessage) -> dict[str, Any]:
        request = parse_command(command.verb, command.payload)
        if isinstance(request, ResyncRequest):
            return self._resync(command, request)
        if isinstance(request, TableRequest):
            if self.table_control is None:
                raise CommandError(f"{command.verb}: no shuffling table is connected")
            return self.table_control(command.verb)
        if isinstance(request, AckRequest):
            log.info("alert %s acknowledged: %s", request.alert, request.note)
            return {"alert": request.alert}
        action = to_action(request)
        assert action is not None
        events = self.apply(action)
        return {"events": [e.event_id for e in events]}

    def _resync(self, command: CommandMessage, request: ResyncRequest) -> dict[str, Any]:
        """Replay stored events to the requester's response topic, in seq order."""
        if not command.response_topic:
            raise CommandError("resync: a response topic is required")
        rows = self.outbox.between(
            self.topics.table, request.epoch, request.from_seq, request.to_seq
        )
        for row in rows:
            self.link.reply(command, row.payload)
        log.info("resync: replayed %d events (%d..%d)", len(rows), request.from_seq, request.to_seq)
        return {"replayed": len(rows)}


def _correlation_text(data: bytes | None) -> str | None:
    """MQTT 5 correlation data as text (hex when it is not UTF-8)."""
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.hex()
