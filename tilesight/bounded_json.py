"""JSON from the network, the journal and files, read with limits before the parser sees it.

``json.loads`` recurses once per nesting level and accepts ``NaN``, ``Infinity`` and integers of
thousands of digits: a 5 KB ``[[[[…`` raises RecursionError, ``1e400`` becomes infinity. Here the
size is checked first, the nesting depth by one linear scan (no recursion), and numbers are
refused when they are not finite or have more than :data:`MAX_INT_DIGITS` digits. Every refusal
is a :class:`BoundedJsonError` (a ``ValueError``) quoting the start of the text.
"""

from __future__ import annotations

import json
import math
from typing import Any

#: Integers longer than this are refused (a seq or a score never needs more).
MAX_INT_DIGITS = 18


class BoundedJsonError(ValueError):
    """Text that is not JSON, or JSON beyond the limits."""


def nesting_depth(text: str) -> int:
    """The deepest ``[``/``{`` nesting of ``text``, brackets inside strings ignored."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise BoundedJsonError(f"integer of {len(text)} digits: {text[:24]!r}…")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BoundedJsonError(f"number out of range: {text[:24]!r}")
    return value


def _constant(text: str) -> Any:
    raise BoundedJsonError(f"{text} is not a JSON number")


def loads_bounded(data: bytes | str, *, max_bytes: int, max_depth: int) -> Any:
    """The parsed value of ``data``, or :class:`BoundedJsonError` saying which limit it broke."""
    size = len(data)
    if size > max_bytes:
        raise BoundedJsonError(f"{size} bytes, more than the {max_bytes} allowed")
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BoundedJsonError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    else:
        text = data
    depth = nesting_depth(text)
    if depth > max_depth:
        raise BoundedJsonError(f"nested {depth} deep, more than the {max_depth} allowed")
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except BoundedJsonError:
        raise
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise BoundedJsonError(f"not JSON ({reason}): {text[:80]!r}") from None
