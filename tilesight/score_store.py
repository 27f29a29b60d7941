"""Score capture storage: every event once (by ``event_id``), each hand's result, standings.

SQLite by default (one file a hall can copy). Storing is idempotent: a replayed or duplicated
event changes nothing, so the consumer may ask for resyncs freely.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    event_id TEXT PRIMARY KEY,
    tournament TEXT NOT NULL,
    table_id TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    UNIQUE (tournament, table_id, epoch, seq)
);
CREATE TABLE IF NOT EXISTS hands (
    tournament TEXT NOT NULL,
    table_id TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    hand_number INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    event_id TEXT NOT NULL,
    result TEXT NOT NULL,
    winners TEXT NOT NULL,
    deltas TEXT NOT NULL,
    scores TEXT NOT NULL,
    PRIMARY KEY (tournament, table_id, epoch, hand_number)
);
"""


@dataclass(frozen=True)
class Standing:
    rank: int
    table: str
    seat: int
    hands: int
    wins: int
    points: int


class ScoreStore:
    def __init__(self, path: Path | str) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # WAL: a crash loses nothing committed
        self._db.execute("PRAGMA busy_timeout=5000")  # several consumers may share the file
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def store(self, tournament: str, event: dict[str, Any]) -> bool:
        """Store one event dict; False when it (or its seq) was stored before."""
        payload = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cur = self._db.execute(
                    "INSERT OR IGNORE INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        event["event_id"],
                        tournament,
                        event["table"],
                        int(event["epoch"]),
                        int(event["seq"]),
                        event["type"],
                        payload,
                    ),
                )
                fresh = cur.rowcount == 1
                if fresh and event["type"] == "hand_ended":
                    self._store_hand(tournament, event)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return fresh

    def _store_hand(self, tournament: str, event: dict[str, Any]) -> None:
        """One row per hand; a later ``hand_ended`` of the same hand (after a correction)
        replaces the earlier one, whatever order they arrive in."""
        self._db.execute(
            "INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (tournament, table_id, epoch, hand_number) DO UPDATE SET"
            " seq = excluded.seq, event_id = excluded.event_id, result = excluded.result,"
            " winners = excluded.winners, deltas = excluded.deltas, scores = excluded.scores"
            " WHERE excluded.seq > hands.seq",
            (
                tournament,
                event["table"],
                int(event["epoch"]),
                int(event["hand_number"]),
                int(event["seq"]),
                event["event_id"],
                str(event["result"]),
                json.dumps(event.get("winners", [])),
                json.dumps(event["deltas"]),
                json.dumps(event.get("scores", [])),
            ),
        )

    def seqs(self, tournament: str, table: str, epoch: int) -> list[int]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq FROM events WHERE tournament=? AND table_id=? AND epoch=? ORDER BY seq",
                (tournament, table, epoch),
            ).fetchall()
        return [int(r[0]) for r in rows]

    def streams(self, tournament: str) -> list[tuple[str, int]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT DISTINCT table_id, epoch FROM events WHERE tournament=?", (tournament,)
            ).fetchall()
        return [(str(r[0]), int(r[1])) for r in rows]

    def event_count(self, tournament: str) -> int:
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*) FROM events WHERE tournament=?", (tournament,)
            ).fetchone()
        return int(row[0])

    def hands(self, tournament: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT table_id, hand_number, result, winners, deltas, scores FROM hands"
                " WHERE tournament=? ORDER BY table_id, epoch, hand_number",
                (tournament,),
            ).fetchall()
        return [
            {
                "table": r[0],
                "hand_number": r[1],
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


def standings_csv(standings: list[Standing]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "table", "seat", "hands", "wins", "points"])
    for s in standings:
        writer.writerow([s.rank, s.table, s.seat, s.hands, s.wins, s.points])
    return out.getvalue()


def standings_json(tournament: str, standings: list[Standing]) -> str:
    body = {"tournament": tournament, "standings": [asdict(s) for s in standings]}
    return json.dumps(body, ensure_ascii=False, indent=2) + "\n"


def format_standings(standings: list[Standing]) -> str:
    lines = [f"{'rank':>4}  {'table':<10} {'seat':>4} {'hands':>5} {'wins':>4} {'points':>7}"]
    lines += [
        f"{s.rank:>4}  {s.table:<10} {s.seat:>4} {s.hands:>5} {s.wins:>4} {s.points:>+7}"
        for s in standings
    ]
    return "\n".join(lines)
