"""Commands from ``cmd/<verb>``: journaled on arrival, parsed and run on supervised workers.

The network thread only journals a command (then it is acknowledged) and wakes a worker. Two
workers run them: ``commands`` (resync, correction, action, ack) and ``table-commands`` (shuffle,
raise, clear_error), so a shuffle riding out a noisy serial line never holds up a correction or
a resync. Each worker, when it starts or restarts, first takes over the commands a previous run
left: one never started is run, one interrupted mid-run is answered as interrupted (running a
shuffle twice is worse than not at all). Every command executed (ok or failed), ``resync``
aside, is recorded as one ``command_handled`` event; its event_id is in the response.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Callable, MutableSequence
from typing import TYPE_CHECKING, Any, Protocol

from engine.actions import Action, CommandRecord, Correction
from engine.events import Event
from tilesight.command_journal import CommandJournal, CommandMessage
from tilesight.remote_commands import (
    AckRequest,
    CommandError,
    CommandRequest,
    ResyncRequest,
    TableRequest,
    parse_command,
    to_action,
)

if TYPE_CHECKING:
    from tilesight.mqtt import MqttLink
    from tilesight.outbox import Outbox
    from tilesight.supervisor import Work
    from tilesight.topics import TableTopics

log = logging.getLogger("tilesight.service")

TABLE_VERBS = frozenset({"shuffle", "raise", "clear_error"})
LANES = ("commands", "table-commands")


def lane_of(verb: str) -> str:
    return "table-commands" if verb in TABLE_VERBS else "commands"


class CommandHost(Protocol):
    """What the runner needs of its service (:class:`tilesight.service.TableService`)."""

    @property
    def outbox(self) -> Outbox: ...
    @property
    def topics(self) -> TableTopics: ...
    @property
    def link(self) -> MqttLink: ...
    @property
    def executed(self) -> MutableSequence[str]: ...
    @property
    def replies(self) -> MutableSequence[dict[str, Any]]: ...
    @property
    def table_control(self) -> Callable[[str], dict[str, Any]] | None: ...
    def apply(self, action: Action) -> list[Event]: ...


class CommandRunner:
    """One table's command journal and the two workers that run what it holds."""

    def __init__(self, service: CommandHost) -> None:
        self.service = service
        self.journal = CommandJournal(service.outbox, service.topics.table)
        self._queues: dict[str, queue.Queue[CommandMessage]] = {
            lane: queue.Queue() for lane in LANES
        }
        # repeats that arrived before their first copy was answered, by journal row: answered
        # with it (in memory only: a repeat still waiting at a kill -9 goes unanswered)
        self._waiting: dict[int, list[CommandMessage]] = {}
        self._lock = threading.Lock()  # orders receive() against _finish() for those repeats

    # network thread ------------------------------------------------------------------------
    def receive(self, command: CommandMessage) -> bool:
        """Journal a command (True: stored, acknowledge it); a repeat of a command id already
        answered gets the first answer again (one still to run or running: once it is answered)
        and is not run."""
        with self._lock:
            received = self.journal.receive(command)
            if received.repeat_of_status is not None and received.first_reply is None:
                self._waiting.setdefault(received.command.journal_row, []).append(command)
        if received.repeat_of_status is not None:
            log.info("command %s repeated (id %s): not run again", command.verb, command.command_id)
            if received.first_reply is not None:
                self.service.link.reply(command, received.first_reply)
            return True
        self._queues[lane_of(command.verb)].put(received.command)
        return True

    # workers -------------------------------------------------------------------------------
    def work(self, lane: str) -> Work:
        """The supervised worker of ``lane``: ``work(stop)`` runs commands until ``stop``."""

        def run(stop: threading.Event) -> None:
            self._take_over(lane)
            while not stop.is_set():
                try:
                    command = self._queues[lane].get(timeout=0.2)
                except queue.Empty:
                    continue
                if self.journal.status(command) == "received":  # not a copy already run
                    self._run(command)

        return run

    def _take_over(self, lane: str) -> None:
        """Commands a previous run (of this process or the one before) left unfinished."""
        if lane == LANES[0]:
            self.journal.prune()
        for command, status in self.journal.pending():
            if lane_of(command.verb) != lane:
                continue
            if status == "running":
                error = (
                    f"{command.verb}: interrupted by a restart; check the table before resending"
                )
                reply = {"ok": False, "verb": command.verb, "error": error}
                self._finish(command, reply, _interrupted(command))
            else:
                self._queues[lane].put(command)

    def _run(self, command: CommandMessage) -> None:
        if command.expired():
            log.warning("command %s expired before it could run; not executed", command.verb)
            self.journal.done(command, json.dumps({"ok": False, "error": "expired"}))
            return
        try:
            request = parse_command(command.verb, command.payload)
        except CommandError as exc:  # malformed: answered, changes nothing, not recorded
            self._finish(command, {"ok": False, "verb": command.verb, "error": str(exc)}, None)
            return
        self.journal.running(command)
        try:
            result = self._execute(command, request)
            reply: dict[str, Any] = {"ok": True, "verb": command.verb, "result": result}
            self.service.executed.append(command.verb)
        except CommandError as exc:
            reply = {"ok": False, "verb": command.verb, "error": str(exc)}
        except Exception as exc:  # a command must never take the service down
            log.exception("command %s failed", command.verb)
            reply = {"ok": False, "verb": command.verb, "error": f"internal error: {exc}"}
        self._finish(command, reply, request)

    def _finish(
        self, command: CommandMessage, reply: dict[str, Any], request: CommandRequest | None
    ) -> None:
        """Record (an executed command other than resync), journal as done, answer."""
        # resync only reads the outbox: logging it would grow the very stream it repairs
        # (every consumer's gap repair a new event) and shift the seq of a deterministic
        # replay such as the demo's resume, so it is answered and logged, not recorded
        if request is not None and command.verb != "resync":
            reply["event"] = self._record(command, reply, request)
            if reply["event"] is None:
                del reply["event"]
        with self._lock:
            self.journal.done(command, json.dumps(reply, ensure_ascii=False))
            repeats = self._waiting.pop(command.journal_row, [])
        self.service.replies.append(reply)
        if reply["ok"]:
            log.info("command %s done", command.verb)
        else:
            log.warning("command %s failed: %s", command.verb, reply["error"])
        self.service.link.reply(command, reply)
        for repeat in repeats:  # a copy sent to the same address already has its answer
            if (repeat.response_topic, repeat.correlation_data) != (
                command.response_topic,
                command.correlation_data,
            ):
                self.service.link.reply(repeat, reply)

    def _record(
        self, command: CommandMessage, reply: dict[str, Any], request: CommandRequest | None
    ) -> str | None:
        """Log the handled command as a ``command_handled`` event; its event_id."""
        record = CommandRecord(
            verb=command.verb,
            outcome="ok" if reply["ok"] else "error",
            account=command.account,
            correlation=_correlation_text(command.correlation_data),
            alert=request.alert if isinstance(request, AckRequest) else None,
            note=request.note if isinstance(request, AckRequest) else "",
            error=str(reply.get("error", ""))[:2000],
            result=json.dumps(reply.get("result", {}), separators=(",", ":"), default=str)[:2000],
        )
        events = self.service.apply(record)
        handled = [e.event_id for e in events if e.type == "command_handled"]
        return handled[0] if handled else None

    def _execute(self, command: CommandMessage, request: CommandRequest) -> dict[str, Any]:
        if isinstance(request, ResyncRequest):
            return self._resync(command, request)
        if isinstance(request, TableRequest):
            if self.service.table_control is None:
                raise CommandError(f"{command.verb}: no shuffling table is connected")
            return self.service.table_control(command.verb)
        if isinstance(request, AckRequest):
            log.info("alert %s acknowledged: %s", request.alert, request.note)
            return {"alert": request.alert}
        action = to_action(request)
        assert action is not None
        events = self.service.apply(action)
        if isinstance(action, Correction) and not any(
            e.type == "correction_applied" for e in events
        ):  # refused by the engine (unknown event, illegal replay): its violation says why
            why = [str(getattr(e, "detail", "")) for e in events if e.type == "violation"]
            raise CommandError(f"correction not applied: {why[0] if why else 'nothing changed'}")
        return {"events": [e.event_id for e in events]}

    def _resync(self, command: CommandMessage, request: ResyncRequest) -> dict[str, Any]:
        """Replay stored events to the requester's response topic, in seq order."""
        if not command.response_topic:
            raise CommandError("resync: a response topic is required")
        service = self.service
        rows = service.outbox.between(
            service.topics.table, request.epoch, request.from_seq, request.to_seq
        )
        for row in rows:
            service.link.reply(command, row.payload)
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


def _interrupted(command: CommandMessage) -> CommandRequest | None:
    """The request of an interrupted command (it started: it is recorded), parsed again."""
    try:
        return parse_command(command.verb, command.payload)
    except CommandError:
        return None
