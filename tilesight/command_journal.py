"""Commands written to the outbox database before the broker is told they arrived.

The table acknowledges a ``cmd/<verb>`` message (MQTT PUBACK) only once :meth:`receive` has
stored it, so a command is never held only in memory: a table killed before it ran the command
finds it here at its next start and runs it then. A command carrying an id (the MQTT 5 user
property ``command_id``) runs once per table however often it arrives within a week; a repeat is
answered with the first reply. A command interrupted mid-run is not run again (a shuffle twice
is worse than none): it is answered as interrupted.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from tilesight.outbox import Outbox

#: Characters of a command id (a UUID is 36).
MAX_COMMAND_ID = 100
#: Commands done are kept this long (a repeat of one within it is answered, not run again).
KEEP_DONE_S = 7 * 24 * 3600.0


@dataclass(frozen=True)
class CommandMessage:
    """A command as it arrived: the verb from the topic, the raw payload, MQTT 5 reply data."""

    verb: str
    payload: bytes
    response_topic: str | None
    correlation_data: bytes | None
    expires_at: float | None  # wall-clock deadline from the message expiry interval
    account: str | None = None  # the sender's ``account`` MQTT 5 user property, if it set one
    command_id: str | None = None  # the sender's ``command_id`` user property, if it set one
    journal_row: int = 0  # its row in the command journal, once stored

    def expired(self) -> bool:
        return self.expires_at is not None and time.time() > self.expires_at


@dataclass(frozen=True)
class Received:
    """What :meth:`CommandJournal.receive` made of a message: stored now, or a repeat."""

    command: CommandMessage
    repeat_of_status: str | None = None  # the first copy's status when this one is a repeat
    first_reply: str | None = None  # the first copy's reply (JSON text), once it has one


_COLUMNS = "rowid, verb, payload, response_topic, correlation, account, expires, command_id"


class CommandJournal:
    """One table's commands in its outbox database: received -> running -> done."""

    def __init__(self, outbox: Outbox, table: str) -> None:
        self.outbox = outbox
        self.table = table

    def receive(self, command: CommandMessage) -> Received:
        """Store a command durably (raises on a storage error: then do not acknowledge it)."""
        changed, rowid = self.outbox.write(
            "INSERT OR IGNORE INTO commands (table_id, command_id, verb, payload, response_topic,"
            " correlation, account, expires, received, status) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (
                self.table,
                command.command_id,
                command.verb,
                command.payload,
                command.response_topic,
                command.correlation_data,
                command.account,
                command.expires_at,
                time.time(),
                "received",
            ),
        )
        if changed:
            return Received(_with_row(command, rowid))
        rows = self.outbox.query(
            "SELECT rowid, status, reply FROM commands WHERE table_id = ? AND command_id = ?",
            (self.table, command.command_id),
        )
        first_row, status, reply = rows[0]
        return Received(_with_row(command, int(first_row)), str(status), reply)

    def prune(self) -> int:
        """Forget commands done more than :data:`KEEP_DONE_S` ago; how many."""
        changed, _ = self.outbox.write(
            "DELETE FROM commands WHERE table_id = ? AND status = 'done' AND received < ?",
            (self.table, time.time() - KEEP_DONE_S),
        )
        return changed

    def pending(self) -> list[tuple[CommandMessage, str]]:
        """Commands not done yet, oldest first, each with its status (received or running)."""
        rows = self.outbox.query(
            f"SELECT {_COLUMNS}, status FROM commands WHERE table_id = ?"
            " AND status != 'done' ORDER BY rowid",
            (self.table,),
        )
        return [(_from_row(row), str(row[8])) for row in rows]

    def running(self, command: CommandMessage) -> None:
        self._set(command, "running", None)

    def done(self, command: CommandMessage, reply: str) -> None:
        self._set(command, "done", reply)

    def status(self, command: CommandMessage) -> str | None:
        rows = self.outbox.query(
            "SELECT status FROM commands WHERE rowid = ?", (command.journal_row,)
        )
        return str(rows[0][0]) if rows else None

    def _set(self, command: CommandMessage, status: str, reply: str | None) -> None:
        self.outbox.write(
            "UPDATE commands SET status = ?, reply = COALESCE(?, reply) WHERE rowid = ?",
            (status, reply, command.journal_row),
        )


def _with_row(command: CommandMessage, rowid: int) -> CommandMessage:
    return replace(command, journal_row=rowid)


def _from_row(row: tuple[object, ...]) -> CommandMessage:
    rowid, verb, payload, topic, correlation, account, expires, command_id = row[:8]
    return CommandMessage(
        verb=str(verb),
        payload=bytes(payload) if isinstance(payload, bytes | bytearray) else str(payload).encode(),
        response_topic=str(topic) if topic is not None else None,
        correlation_data=bytes(correlation) if isinstance(correlation, bytes) else None,
        expires_at=float(expires) if isinstance(expires, int | float) else None,
        account=str(account) if account is not None else None,
        command_id=str(command_id) if command_id is not None else None,
        journal_row=int(rowid) if isinstance(rowid, int) else 0,
    )
