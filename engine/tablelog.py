"""The table-log format: one JSON action per line (see ``docs/table-log.md``).

An optional first line ``{"tablelog": 2, "procedure": "wsom", "rules": "mcr"}`` says how the log
is meant to be replayed. Version 2 writes runs of tiles as lists and winds as 0-3
(:mod:`engine.json_forms`); logs of version 1 (runs as ``"123m"``, winds as letters) still
read. Blank lines and lines starting with ``#`` are skipped. Every malformed line is a
:class:`TableLogError` naming the line number and quoting the line.

>>> log = read_tablelog('{"tablelog": 1, "procedure": "log"}\\n{"action": "washout"}\\n')
>>> log.header, [a.name for a in log.actions]
({'tablelog': 1, 'procedure': 'log'}, ['washout'])
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, ActionFormatError, action_from_dict, action_to_dict

VERSION = 2
#: Header versions read: every one reads the same, both forms of a run or wind being accepted.
READ_VERSIONS = (1, 2)
HEADER_KEYS = frozenset({"tablelog", "procedure", "rules", "table", "description"})
_SHOWN = 120  # characters of a bad line quoted in an error


class TableLogError(ValueError):
    """A line that is not a valid action; the message gives its number and quotes it."""


@dataclass(frozen=True, slots=True)
class TableLog:
    actions: tuple[Action, ...]
    header: dict[str, Any] = field(default_factory=dict)


def read_tablelog(text: str | Iterable[str]) -> TableLog:
    """Parse a whole table log (a string or an iterable of lines)."""
    lines = text.splitlines() if isinstance(text, str) else text
    actions: list[Action] = []
    header: dict[str, Any] = {}
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        data = _json(line, number)
        if number_is_header(data, actions, header):
            header = _header(data, line, number)
            continue
        try:
            actions.append(action_from_dict(data))
        except ActionFormatError as exc:
            raise TableLogError(f"line {number}: {exc}: {_quote(line)}") from None
    return TableLog(tuple(actions), header)


def number_is_header(data: Any, actions: list[Action], header: dict[str, Any]) -> bool:
    return isinstance(data, dict) and "tablelog" in data and not actions and not header


def write_tablelog(actions: Iterable[Action], header: dict[str, Any] | None = None) -> str:
    """The log as text: the header (if any) then one compact JSON object per line."""
    lines = [json.dumps({"tablelog": VERSION, **header}, ensure_ascii=False)] if header else []
    lines += [dumps_action(a) for a in actions]
    return "".join(line + "\n" for line in lines)


def dumps_action(action: Action) -> str:
    return json.dumps(action_to_dict(action), ensure_ascii=False, separators=(", ", ": "))


def _json(line: str, number: int) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise TableLogError(f"line {number}: not JSON ({exc.msg}): {_quote(line)}") from None
    except (RecursionError, ValueError) as exc:
        raise TableLogError(f"line {number}: unreadable ({exc}): {_quote(line)}") from None


def _header(data: dict[str, Any], line: str, number: int) -> dict[str, Any]:
    unknown = sorted(set(data) - HEADER_KEYS)
    version = data.get("tablelog")
    if unknown or isinstance(version, bool) or version not in READ_VERSIONS:
        why = f"unknown header keys {unknown}" if unknown else "unsupported version"
        raise TableLogError(f"line {number}: {why}: {_quote(line)}")
    for key in HEADER_KEYS - {"tablelog"}:
        if key in data and not isinstance(data[key], str):
            raise TableLogError(f"line {number}: header {key!r} must be a string: {_quote(line)}")
    return dict(data)


def _quote(line: str) -> str:
    return repr(line if len(line) <= _SHOWN else line[:_SHOWN] + "...")
