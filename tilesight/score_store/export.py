"""Standings as CSV, JSON and a table a technician reads in a terminal."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict

from tilesight.score_store.base import Standing


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
