"""Replay a record (table log or Botzone) through a table and summarise what happened.

Pure: the caller reads the file; :func:`load_record` parses its text, :func:`replay` applies the
actions and yields every event, and :class:`ReplaySummary` counts hands, wins, washouts and
violations as the events go by.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from engine.actions import Action
from engine.botzone import BotzoneGame, parse_botzone
from engine.events import Event
from engine.table import Table
from engine.tablelog import read_tablelog

FORMATS = ("tablelog", "botzone")


@dataclass(frozen=True, slots=True)
class Record:
    """Parsed actions plus what the record asks for (procedure / rules) and Botzone games."""

    actions: tuple[Action, ...]
    format: str
    procedure: str | None = None
    rules: str | None = None
    games: tuple[BotzoneGame, ...] = ()


def detect_format(text: str) -> str:
    """``botzone`` when the first non-blank line is a ``Match`` line, else ``tablelog``."""
    for line in text.splitlines():
        if line.strip():
            return "botzone" if line.split()[0] == "Match" else "tablelog"
    return "tablelog"


def load_record(text: str, fmt: str | None = None) -> Record:
    """Parse ``text`` (raises TableLogError / BotzoneFormatError, both ValueErrors)."""
    fmt = fmt or detect_format(text)
    if fmt == "botzone":
        games = tuple(parse_botzone(text))
        actions = tuple(a for g in games for a in g.actions)
        return Record(actions, fmt, procedure="log", rules="mcr", games=games)
    if fmt != "tablelog":
        raise ValueError(f"unknown record format {fmt!r} (known: {', '.join(FORMATS)})")
    log = read_tablelog(text)
    return Record(log.actions, fmt, log.header.get("procedure"), log.header.get("rules"))


@dataclass
class ReplaySummary:
    actions: int = 0
    events: int = 0
    hands: int = 0
    wins: int = 0
    washouts: int = 0
    violations: int = 0
    kinds: Counter[str] = field(default_factory=Counter)

    def count(self, event: Event) -> None:
        self.events += 1
        if event.type == "hand_started":
            self.hands += 1
        elif event.type == "win_declared":
            self.wins += 1
        elif event.type == "washout":
            self.washouts += 1
        elif event.type in ("violation", "overtime"):
            self.violations += 1
            self.kinds[str(getattr(event, "kind", event.type))] += 1

    def __str__(self) -> str:
        text = (
            f"{self.hands} hands, {self.wins} wins, {self.washouts} washouts, "
            f"{self.violations} violations ({self.actions} actions, {self.events} events)"
        )
        if self.kinds:
            text += ": " + ", ".join(f"{k} x{n}" for k, n in sorted(self.kinds.items()))
        return text


def replay(
    table: Table, actions: Iterable[Action], summary: ReplaySummary | None = None
) -> Iterator[Event]:
    """Apply ``actions`` in order and yield the events; strict tables raise IllegalActionError."""
    for action in actions:
        if summary is not None:
            summary.actions += 1
        for event in table.apply(action):
            if summary is not None:
                summary.count(event)
            yield event
