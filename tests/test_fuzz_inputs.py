"""Fuzzing every door hostile input comes through (issue 44): commands, score events, journal
lines, table logs, serial bytes and images. Each parser may only return a value or raise its own
narrow error; the service replaying a fuzzed journal must start. Small budgets (a few seconds
each) so that CI runs it; ``tests/service/test_fuzz_processes.py`` drives the real processes."""

from __future__ import annotations

import contextlib
import json
import struct
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from devices.framing import BadFrame, Frame, FrameDecoder, FrameError, decode_body
from devices.message_base import MessageError
from devices.messages import decode_message
from engine.action_bounds import field_problem
from engine.actions import ActionFormatError, action_from_dict, action_types, check_action
from engine.tablelog import TableLogError, read_tablelog
from tilesight.bounded_json import BoundedJsonError, loads_bounded
from tilesight.event_checks import event_problem
from tilesight.remote_commands import PAYLOADS, CommandError, parse_command
from vision.capture import CaptureError, read_image

FAST = settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow])

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=20,
)
#: Values that look like what a field expects, and the extremes a forger would send.
FIELD_VALUES = (
    SCALARS
    | st.sampled_from([1e300, -1.0, 10**9, 10**30, 2**63, "1m", "123m456p789s1234m", "E" * 5000])
    | st.lists(st.integers(min_value=-100, max_value=10**9), max_size=12)
)


def _action_dicts() -> st.SearchStrategy[dict[str, Any]]:
    names = sorted(action_types())
    fields = ["at", "seat", "tile", "tiles", "count", "dealer", "dice", "wall", "row", "col",
              "hand_number", "replacement", "supersedes", "code", "hand", "verb"]  # fmt: skip
    return st.builds(
        lambda name, extra: {"action": name, **extra},
        st.sampled_from(names),
        st.dictionaries(st.sampled_from(fields), FIELD_VALUES, max_size=4),
    )


@FAST
@given(
    st.sampled_from(sorted(PAYLOADS)),
    st.binary(max_size=300) | JSON.map(lambda v: json.dumps(v).encode()),
)
def test_commands_parse_or_raise_command_error(verb: str, payload: bytes):
    try:
        parse_command(verb, payload)
    except CommandError as exc:
        assert str(exc)


@FAST
@given(st.sampled_from(["action", "correction"]), _action_dicts())
def test_command_actions_are_bounded(verb: str, action: dict[str, Any]):
    body = {"action": action} if verb == "action" else {"supersedes": "e1", "replacement": action}
    try:
        parse_command(verb, json.dumps(body).encode())
    except CommandError:
        return
    parsed = action_from_dict(action)  # accepted: every field in range
    check_action(parsed)


@FAST
@given(st.text(max_size=200) | st.builds(lambda n: "[" * n + "]" * n, st.integers(0, 3000)))
def test_bounded_json_returns_or_refuses(text: str):
    try:
        loads_bounded(text, max_bytes=4096, max_depth=8)
    except BoundedJsonError as exc:
        assert str(exc)


@FAST
@given(_action_dicts())
def test_journal_lines_decode_to_bounded_actions_or_refuse(data: dict[str, Any]):
    try:
        action = action_from_dict(data)
    except ActionFormatError:
        return
    for name in ("at", "count", "dealer", "row", "col", "hand_number", "dice"):
        assert field_problem(name, getattr(action, name, None)) is None


@FAST
@given(st.lists(_action_dicts().map(json.dumps) | st.text(max_size=60), max_size=6))
def test_table_logs_read_or_raise_table_log_error(lines: list[str]):
    try:
        read_tablelog("\n".join(lines))
    except TableLogError as exc:
        assert "line" in str(exc)


@FAST
@given(JSON, st.sampled_from(["T1", "T2"]))
def test_score_events_are_checked_without_raising(event: Any, table: str):
    envelope = {"event_id": "e", "table": "T1", "epoch": 1, "seq": 1, "type": "hand_ended",
                "timestamp": 1.0, "hand_number": 1, "result": "win"}  # fmt: skip
    for candidate in (event, {**envelope, **event} if isinstance(event, dict) else envelope):
        if isinstance(candidate, dict):
            problem = event_problem(candidate, table)
            if problem is None and candidate.get("type") == "hand_ended":
                assert all(abs(d) <= 10**6 for d in candidate.get("deltas", [0]))


@FAST
@given(st.binary(max_size=120), st.lists(st.binary(max_size=40), max_size=4))
def test_serial_bytes_decode_or_are_reported_bad(data: bytes, chunks: list[bytes]):
    decoder = FrameDecoder()
    items = decoder.feed(data) + [x for c in chunks for x in decoder.feed(c)]
    assert all(isinstance(item, Frame | BadFrame) for item in items)
    for item in items:
        if isinstance(item, Frame):
            with contextlib.suppress(MessageError):
                decode_message(item)
    with contextlib.suppress(FrameError):
        decode_body(data)


PNG = b"\x89PNG\r\n\x1a\n"


@settings(max_examples=60, deadline=2000)
@given(
    magic=st.sampled_from([PNG, b"\xff\xd8\xff\xe0", b"BM", b""]),
    width=st.integers(0, 2**32 - 1),
    height=st.integers(0, 2**32 - 1),
    tail=st.binary(max_size=80),
)
def test_images_decode_or_raise_capture_error(magic: bytes, width: int, height: int, tail: bytes):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.img"
        header = struct.pack(">I4sII", 13, b"IHDR", width, height) if magic == PNG else b""
        path.write_bytes(magic + header + tail)
        try:
            image = read_image(path)
        except CaptureError as exc:
            assert str(path) in str(exc)
        else:
            assert image.shape[0] * image.shape[1] <= 100_000_000
