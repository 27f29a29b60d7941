"""SQLite outbox: every event is stored before it is published and marked sent only on PUBACK.

This is what makes delivery lossless across broker outages and process restarts: a row that was
never acknowledged is published again after a reconnect or at start-up, and the stored rows are
what ``cmd/resync`` replays to a consumer that saw a gap. ``(table, epoch, seq)`` is unique, so a
restarted process that regenerates events it already stored cannot store them twice.

SQLite runs in WAL mode with ``synchronous=FULL``: every commit (an event stored, an action
journaled, a row marked sent) is fsynced before it returns, so an event the service has counted
as stored survives a power cut too. ``NORMAL`` would survive a process crash but could lose the
last commits on power loss; its saving is measured in docs/benchmarks.md (Service).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from engine.events import Event, to_json

_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL UNIQUE,
    table_id TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    topic TEXT NOT NULL,
    payload TEXT NOT NULL,
    created REAL NOT NULL,
    sent_at REAL,
    UNIQUE (table_id, epoch, seq)
);
CREATE INDEX IF NOT EXISTS outbox_unsent ON outbox (rowid) WHERE sent_at IS NULL;
CREATE TABLE IF NOT EXISTS journal (
    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    action TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS journal_quarantine (
    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    journal_row INTEGER NOT NULL,
    action TEXT NOT NULL,
    error TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS commands (
    rowid INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    command_id TEXT,
    verb TEXT NOT NULL,
    payload BLOB NOT NULL,
    response_topic TEXT,
    correlation BLOB,
    account TEXT,
    expires REAL,
    received REAL NOT NULL,
    status TEXT NOT NULL,
    reply TEXT,
    UNIQUE (table_id, command_id)
);
"""


class OutboxError(OSError):
    """The outbox file cannot be opened or used as a database."""


@dataclass(frozen=True)
class OutboxRow:
    rowid: int
    event_id: str
    table: str
    epoch: int
    seq: int
    type: str
    topic: str
    payload: str
    sent: bool


_COLUMNS = "rowid, event_id, table_id, epoch, seq, type, topic, payload, sent_at IS NOT NULL"


class Outbox:
    """Thread-safe: the engine thread appends, the MQTT network thread marks rows sent."""

    def __init__(
        self, path: Path | str, *, synchronous: Literal["FULL", "NORMAL"] = "FULL"
    ) -> None:
        """``synchronous="NORMAL"`` is for the benchmark that prices durability, not for tables."""
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            mode = "NORMAL" if synchronous == "NORMAL" else "FULL"
            self._db.execute(f"PRAGMA synchronous={mode}")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:  # a directory, a read-only file, not a database
            raise OutboxError(f"cannot open the outbox {str(path)!r}: {exc}") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def append(self, event: Event, topic: str) -> OutboxRow | None:
        """Store one event durably; None when its ``(table, epoch, seq)`` is already stored."""
        payload = to_json(event)
        with self._lock:
            cur = self._db.execute(
                "INSERT OR IGNORE INTO outbox (event_id, table_id, epoch, seq, type, topic,"
                " payload, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    event.event_id,
                    event.table,
                    event.epoch,
                    event.seq,
                    event.type,
                    topic,
                    payload,
                    time.time(),
                ),
            )
            if cur.rowcount == 0:
                return None
            rowid = int(cur.lastrowid or 0)
        return OutboxRow(
            rowid,
            event.event_id,
            event.table,
            event.epoch,
            event.seq,
            event.type,
            topic,
            payload,
            False,
        )

    def journal(self, table: str, epoch: int, action: str) -> None:
        """Record an action (its JSON form) before the engine applies it."""
        with self._lock:
            self._db.execute(
                "INSERT INTO journal (table_id, epoch, action, created) VALUES (?, ?, ?, ?)",
                (table, epoch, action, time.time()),
            )

    def journaled(self, table: str) -> tuple[int, list[str]] | None:
        """The latest epoch with journaled actions and those actions, in order."""
        found = self.journal_rows(table)
        return (found[0], [text for _, text in found[1]]) if found else None

    def journal_rows(self, table: str) -> tuple[int, list[tuple[int, str]]] | None:
        """Like :meth:`journaled`, each action with its journal row id."""
        with self._lock:
            row = self._db.execute(
                "SELECT MAX(epoch) FROM journal WHERE table_id = ?", (table,)
            ).fetchone()
            if row is None or row[0] is None:
                return None
            epoch = int(row[0])
            actions = self._db.execute(
                "SELECT rowid, action FROM journal WHERE table_id = ? AND epoch = ? ORDER BY rowid",
                (table, epoch),
            ).fetchall()
        return epoch, [(int(a[0]), str(a[1])) for a in actions]

    def last_journal_row(self, table: str) -> int | None:
        rows = self.query("SELECT MAX(rowid) FROM journal WHERE table_id = ?", (table,))
        return int(rows[0][0]) if rows and rows[0][0] is not None else None

    def quarantine(self, journal_row: int, replacement: str, error: str) -> None:
        """Move a journaled action that cannot be applied aside (kept, with why) and put
        ``replacement`` (the alert that stands for it) in its place: a restart replays the
        alert, never the poison, and the journal keeps its order."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT INTO journal_quarantine (table_id, epoch, journal_row, action, error,"
                " created) SELECT table_id, epoch, rowid, action, ?, ? FROM journal"
                " WHERE rowid = ?",
                (error[:2000], time.time(), journal_row),
            )
            self._db.execute(
                "UPDATE journal SET action = ? WHERE rowid = ?", (replacement, journal_row)
            )

    def quarantined(self, table: str) -> list[tuple[str, str]]:
        """``(action, error)`` of every quarantined journal entry of a table, oldest first."""
        rows = self.query(
            "SELECT action, error FROM journal_quarantine WHERE table_id = ? ORDER BY rowid",
            (table,),
        )
        return [(str(r[0]), str(r[1])) for r in rows]

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows of one statement (other tables of this database: the command journal)."""
        with self._lock:
            return [tuple(r) for r in self._db.execute(sql, params).fetchall()]

    def write(self, sql: str, params: tuple[object, ...] = ()) -> tuple[int, int]:
        """Run one durable write; ``(rows changed, last row id)``."""
        with self._lock:
            cur = self._db.execute(sql, params)
            return cur.rowcount, int(cur.lastrowid or 0)

    def mark_sent(self, rowid: int) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE outbox SET sent_at = ? WHERE rowid = ? AND sent_at IS NULL",
                (time.time(), rowid),
            )

    def unsent(self, limit: int = 10_000) -> list[OutboxRow]:
        return self._rows("WHERE sent_at IS NULL ORDER BY rowid LIMIT ?", (limit,))

    def between(self, table: str, epoch: int, first: int, last: int) -> list[OutboxRow]:
        """Stored events of one table and epoch with ``first <= seq <= last``, in seq order."""
        return self._rows(
            "WHERE table_id = ? AND epoch = ? AND seq BETWEEN ? AND ? ORDER BY seq",
            (table, epoch, first, last),
        )

    def last_position(self, table: str) -> tuple[int, int] | None:
        """The highest stored ``(epoch, seq)`` of a table: where a restarted process resumes."""
        with self._lock:
            row = self._db.execute(
                "SELECT epoch, seq FROM outbox WHERE table_id = ? ORDER BY epoch DESC, seq DESC"
                " LIMIT 1",
                (table,),
            ).fetchone()
        return (int(row[0]), int(row[1])) if row else None

    def counts(self) -> tuple[int, int]:
        """``(stored, unsent)``."""
        with self._lock:
            total, unsent = self._db.execute(
                "SELECT COUNT(*), COUNT(*) - COUNT(sent_at) FROM outbox"
            ).fetchone()
        return int(total), int(unsent)

    def _rows(self, where: str, params: tuple[object, ...]) -> list[OutboxRow]:
        with self._lock:
            rows = self._db.execute(f"SELECT {_COLUMNS} FROM outbox {where}", params).fetchall()
        return [OutboxRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], bool(r[8])) for r in rows]
