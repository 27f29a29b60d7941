"""What score capture accepts from the network: an event's envelope and a hand's result, ranged.

Only the table's own account can publish in its tree (examples/mosquitto/acl), but a table's
account can still put another table's id in a payload, and a broker without the ACL lets anyone
publish anything. So an event is stored only when it is from the table whose topic it came on,
its ``(epoch, seq)`` are counters in range, and a ``hand_ended`` carries four integer deltas and
totals of a plausible size: a forged delta of 10**30 is refused, not added to the standings.

>>> event_problem({"event_id": "e", "table": "T1", "epoch": 1, "seq": 2, "type": "washout",
...                "timestamp": 1.0}, "T1") is None
True
>>> event_problem({"event_id": "e", "table": "T2", "epoch": 1, "seq": 2, "type": "washout",
...                "timestamp": 1.0}, "T1")
"table 'T2' published on T1's topic"
"""

from __future__ import annotations

import math
from typing import Any

MAX_COUNTER = 10**12  # epochs and seqs
#: Points a seat may gain or lose in one hand, and a total; far beyond any rule set's limits.
MAX_POINTS = 1_000_000
MAX_HAND_NUMBER = 1_000_000
HAND_RESULTS = frozenset({"win", "washout", "abandoned"})


def _int_in(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _text(value: Any, limit: int) -> bool:
    return isinstance(value, str) and 0 < len(value) <= limit


def event_problem(event: dict[str, Any], topic_table: str) -> str | None:
    """Why ``event`` (from a topic of ``topic_table``) must not be stored, or None."""
    if event.get("table") != topic_table:
        return f"table {event.get('table')!r} published on {topic_table}'s topic"
    if not _text(event.get("event_id"), 100) or not _text(event.get("type"), 64):
        return "event_id and type must be short strings"
    if not _int_in(event.get("epoch"), 0, MAX_COUNTER):
        return f"epoch {event.get('epoch')!r} out of range"
    if not _int_in(event.get("seq"), 1, MAX_COUNTER):
        return f"seq {event.get('seq')!r} out of range"
    stamp = event.get("timestamp")
    if not isinstance(stamp, int | float) or isinstance(stamp, bool) or not math.isfinite(stamp):
        return f"timestamp {stamp!r} is not a finite number"
    if event["type"] == "hand_ended":
        return _hand_problem(event)
    return None


def _hand_problem(event: dict[str, Any]) -> str | None:
    if not _int_in(event.get("hand_number"), 0, MAX_HAND_NUMBER):
        return f"hand_number {event.get('hand_number')!r} out of range"
    if event.get("result") not in HAND_RESULTS:
        return f"result {event.get('result')!r} is not one of {sorted(HAND_RESULTS)}"
    winners = event.get("winners", [])
    if (
        not isinstance(winners, list)
        or len(winners) > 4
        or not all(_int_in(w, 0, 3) for w in winners)
    ):
        return f"winners {winners!r} must be up to four seats 0-3"
    for name in ("deltas", "scores", "penalties"):
        values = event.get(name, [0, 0, 0, 0])
        if not isinstance(values, list) or len(values) != 4:
            return f"{name} must be four integers"
        if not all(_int_in(v, -MAX_POINTS, MAX_POINTS) for v in values):
            return f"{name} {values!r} out of range (|points| <= {MAX_POINTS})"
    return None


def announced_position(state: dict[str, Any]) -> tuple[int, int] | None:
    """``(epoch, seq)`` a retained state announces, when both are counters in range."""
    epoch, seq = state.get("epoch"), state.get("seq")
    if _int_in(epoch, 0, MAX_COUNTER) and _int_in(seq, 1, MAX_COUNTER):
        return int(epoch), int(seq)
    return None
