"""The one score store: SQL shared by every backend; standings computed once, here.

Backends (:mod:`.sqlite`, :mod:`.postgres`) supply a connection and a transaction; the SQL below
is written once in the dialect both accept (``?`` placeholders, ``ON CONFLICT``). Storing is
idempotent: the ``event_id`` and the ``(tournament, table, epoch, seq)`` are unique, and a
transaction inserts the event and its hand together, so a replayed or duplicated event, or the
same event stored by two consumers at once, changes nothing.
"""

from __future__ import annotations

import json
import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

SCHEMA_STATEMENTS = (
    """CREATE TABLE IF NOT EXISTS events (
    event_id TEXT PRIMARY KEY,
    tournament TEXT NOT NULL,
    table_id TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    UNIQUE (tournament, table_id, epoch, seq)
)""",
    """CREATE TABLE IF NOT EXISTS hands (
    tournament TEXT NOT NULL,
    table_id TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    hand_number BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    event_id TEXT NOT NULL,
    result TEXT NOT NULL,
    winners TEXT NOT NULL,
    deltas TEXT NOT NULL,
    scores TEXT NOT NULL,
    PRIMARY KEY (tournament, table_id, epoch, hand_number)
)""",
)

_INSERT_EVENT = (
    "INSERT INTO events (event_id, tournament, table_id, epoch, seq, type, payload)"
    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)
# one row per hand: a later hand_ended of the same hand (after a correction) replaces the
# earlier one, whatever order they arrive in
_UPSERT_HAND = (
    "INSERT INTO hands (tournament, table_id, epoch, hand_number, seq, event_id, result,"
    " winners, deltas, scores) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (tournament, table_id, epoch, hand_number) DO UPDATE SET"
    " seq = excluded.seq, event_id = excluded.event_id, result = excluded.result,"
    " winners = excluded.winners, deltas = excluded.deltas, scores = excluded.scores"
    " WHERE excluded.seq > hands.seq"
)


class StoreUnavailableError(RuntimeError):
    """The database could not be reached or refused the write; nothing was stored."""


class Cursor(Protocol):
    """What the store needs of a DB-API cursor (sqlite3 and psycopg both fit)."""

    @property
    def rowcount(self) -> int: ...

    def fetchall(self) -> list[Any]: ...


class Executor(Protocol):
    def __call__(self, sql: str, params: Sequence[Any], /) -> Cursor: ...


@dataclass(frozen=True)
class Standing:
    rank: int
    table: str
    seat: int
    hands: int
    wins: int
    points: int


class BaseScoreStore(ABC):
    """Every event once (by ``event_id``), each hand's result, standings; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    @abstractmethod
    def _transaction(self) -> AbstractContextManager[Executor]:
        """A write transaction (serialised against other writers of the same database)."""

    @abstractmethod
    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Rows of one query."""

    @abstractmethod
    def close(self) -> None: ...

    def store(self, tournament: str, event: dict[str, Any]) -> bool:
        """Store one event dict; False when it (or its seq) was stored before.

        Raises KeyError/TypeError/ValueError for a malformed event, :class:`StoreUnavailableError`
        when the database is away (nothing stored: the consumer's gap repair asks again)."""
        payload = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
        row = (
            str(event["event_id"]),
            tournament,
            str(event["table"]),
            int(event["epoch"]),
            int(event["seq"]),
            str(event["type"]),
            payload,
        )
        hand = _hand_row(tournament, event) if event["type"] == "hand_ended" else None
        with self._lock, self._transaction() as execute:
            fresh = execute(_INSERT_EVENT, row).rowcount == 1
            if fresh and hand is not None:
                execute(_UPSERT_HAND, hand)
        return fresh

    def seqs(self, tournament: str, table: str, epoch: int) -> list[int]:
        rows = self._locked_read(
            "SELECT seq FROM events WHERE tournament=? AND table_id=? AND epoch=? ORDER BY seq",
            (tournament, table, epoch),
        )
        return [int(r[0]) for r in rows]

    def streams(self, tournament: str) -> list[tuple[str, int]]:
        rows = self._locked_read(
            "SELECT DISTINCT table_id, epoch FROM events WHERE tournament=?", (tournament,)
        )
        return [(str(r[0]), int(r[1])) for r in rows]

    def event_count(self, tournament: str) -> int:
        rows = self._locked_read("SELECT COUNT(*) FROM events WHERE tournament=?", (tournament,))
        return int(rows[0][0])

    def events_of_type(self, tournament: str, event_type: str) -> list[dict[str, Any]]:
        """Stored events of one type as published (e.g. Gouji's ``game_over``), in order."""
        rows = self._locked_read(
            "SELECT payload FROM events WHERE tournament=? AND type=?"
            " ORDER BY table_id, epoch, seq",
            (tournament, event_type),
        )
        return [json.loads(r[0]) for r in rows]

    def hands(self, tournament: str) -> list[dict[str, Any]]:
        rows = self._locked_read(
            "SELECT table_id, hand_number, result, winners, deltas, scores FROM hands"
            " WHERE tournament=? ORDER BY table_id, epoch, hand_number",
            (tournament,),
        )
        return [
            {
                "table": r[0],
                "hand_number": int(r[1]),
                "result": r[2],
                "winners": json.loads(r[3]),
                "deltas": json.loads(r[4]),
                "scores": json.loads(r[5]),
            }
            for r in rows
        ]

    def standings(self, tournament: str) -> list[Standing]:
        """Points per (table, seat) summed over stored hands, best first."""
        totals: dict[tuple[str, int], list[int]] = {}
        for hand in self.hands(tournament):
            for seat, delta in enumerate(hand["deltas"]):
                entry = totals.setdefault((hand["table"], seat), [0, 0, 0])
                entry[0] += 1
                entry[1] += int(seat in hand["winners"])
                entry[2] += int(delta)
        ordered = sorted(totals.items(), key=lambda kv: (-kv[1][2], kv[0]))
        return [
            Standing(rank, table, seat, hands, wins, points)
            for rank, ((table, seat), (hands, wins, points)) in enumerate(ordered, start=1)
        ]

    def _locked_read(self, sql: str, params: Sequence[Any]) -> list[Any]:
        with self._lock:
            return self._read(sql, params)


def _hand_row(tournament: str, event: dict[str, Any]) -> tuple[Any, ...]:
    return (
        tournament,
        str(event["table"]),
        int(event["epoch"]),
        int(event["hand_number"]),
        int(event["seq"]),
        str(event["event_id"]),
        str(event["result"]),
        json.dumps(event.get("winners", [])),
        json.dumps(event["deltas"]),
        json.dumps(event.get("scores", [])),
    )
