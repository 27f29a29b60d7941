"""The ranges every action field must lie in before the engine sees it.

An action comes from a camera, the shuffling table, a referee's command, a table log or the
service's journal; a single out-of-range number (``"at": 1e400``, a deal ``count`` of 10**9)
must be refused where it is read, not crash or stall the engine, and above all never be journaled
and replayed into every restart. :func:`field_problem` names what is wrong with one field;
``engine.actions`` applies it when an action is read and when one is checked before journaling.

>>> field_problem("count", 10**9)
'must be 0..20, got 1000000000'
>>> field_problem("at", 1767225607.7) is None
True
"""

from __future__ import annotations

import math
from typing import Any

#: Unix seconds: 1970 .. 2286 (the engine does arithmetic on it; inf or 1e300 must not reach it).
MAX_TIMESTAMP = 1e10
#: Inclusive ranges of integer fields, by name; any other integer field gets ``DEFAULT_INT``
#: (a seat of 9 is bounded but left to the engine, which records it as a violation).
INT_RANGES: dict[str, tuple[int, int]] = {
    "dealer": (0, 3),
    "count": (0, 20),  # tiles dealt to one seat (13 or 14, 16 in some rule sets)
    "row": (0, 99),
    "col": (0, 99),
    "hand_number": (0, 1_000_000),
}
DEFAULT_INT = (-1_000_000, 1_000_000)
#: Dice: at most this many rolls, each a roll's total of up to three dice.
MAX_DICE = 8
DICE_RANGE = (1, 18)
#: Tiles in one field (a wall holds 144 with flowers; a deal a seat's hand).
MAX_TILES = {"wall": 160, "tiles": 20}
#: Characters of any text field (notes, reasons, details, command records).
MAX_TEXT = 4000


def field_problem(name: str, value: Any) -> str | None:
    """What is out of range in field ``name`` holding ``value`` (decoded), or None."""
    if value is None or isinstance(value, bool):
        return None
    if name == "at":
        if not isinstance(value, int | float) or not math.isfinite(value):
            return f"must be a finite time, got {value!r}"
        if not 0 <= value <= MAX_TIMESTAMP:
            return f"must be Unix seconds 0..{MAX_TIMESTAMP:.0f}, got {value!r}"
        return None
    if isinstance(value, int):
        low, high = INT_RANGES.get(name, DEFAULT_INT)
        return None if low <= value <= high else f"must be {low}..{high}, got {value!r}"
    if isinstance(value, float):
        return None if math.isfinite(value) else f"must be finite, got {value!r}"
    if isinstance(value, str):
        return None if len(value) <= MAX_TEXT else f"is {len(value)} characters, over {MAX_TEXT}"
    if isinstance(value, tuple):
        return _sequence_problem(name, value)
    return None


def _sequence_problem(name: str, value: tuple[Any, ...]) -> str | None:
    if name == "dice":
        if len(value) > MAX_DICE:
            return f"holds {len(value)} rolls, over {MAX_DICE}"
        low, high = DICE_RANGE
        bad = [v for v in value if not low <= v <= high]
        return f"rolls must be {low}..{high}, got {bad[0]!r}" if bad else None
    limit = MAX_TILES.get(name)
    if limit is not None and len(value) > limit:
        return f"holds {len(value)} tiles, over {limit}"
    return None
