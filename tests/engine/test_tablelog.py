"""The table-log format: round trips, clear errors with line numbers, fuzzing."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import actions as act
from engine.events import to_json
from engine.notation import parse_hand, parse_tile, parse_tiles
from engine.rulesets import find_rules
from engine.table import Table
from engine.tablelog import TableLogError, read_tablelog, write_tablelog
from engine.tiles import ALL_TILES, Wind

EVERY_KIND: list[act.Action] = [
    act.HandStart(dealer=1, prevalent_wind=Wind.SOUTH, dice=(3, 4), procedure="wsom", at=1.5),
    act.HandStart(wall=parse_tiles("123m" * 3), hand_number=2),
    act.Deal(seat=0, tiles=parse_tiles("123456789m1234p")),
    act.Deal(seat=1, count=13),
    act.Draw(seat=1),
    act.Draw(seat=1, tile=parse_tile("5p"), replacement=True),
    act.Discard(seat=1, tile=parse_tile("C")),
    act.Chow(seat=2, tiles=parse_tiles("345s"), tile=parse_tile("4s")),
    act.Pung(seat=3),
    act.Kong(seat=3, tile=parse_tile("E")),
    act.ConcealedKong(seat=0, tile=parse_tile("9m")),
    act.ConcealedKong(seat=1),
    act.ShowKong(seat=1, tile=parse_tile("E")),
    act.AddedKong(seat=0, tile=parse_tile("P")),
    act.Flower(seat=2, tile=parse_tile("3f")),
    act.Win(seat=2, tile=parse_tile("5p"), hand=parse_hand("123m 456p [789s<3] {EEEE}")),
    act.Washout(at=99.0),
    act.Correction(supersedes="abc", replacement=act.Discard(seat=0, tile=parse_tile("1m"))),
    act.Correction(supersedes="abc", reason="misread"),
    act.TableFault(code="jam", detail="lift 2"),
]


def test_every_action_round_trips() -> None:
    text = write_tablelog(EVERY_KIND, {"procedure": "wsom", "rules": "mcr"})
    log = read_tablelog(text)
    assert log.actions == tuple(EVERY_KIND)
    assert log.header == {"tablelog": 2, "procedure": "wsom", "rules": "mcr"}
    assert all(json.loads(line) for line in text.splitlines())


def test_comments_and_blank_lines_are_skipped() -> None:
    log = read_tablelog('# a comment\n\n{"action": "washout"}\n')
    assert log.actions == (act.Washout(),)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("{nope", "not JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"action": "dance"}', "unknown action 'dance'"),
        ('{"action": "discard", "seat": 1}', "missing 1 required keyword-only argument"),
        ('{"action": "discard", "seat": 1, "tile": "10m"}', "not a tile"),
        ('{"action": "discard", "seat": "1", "tile": "1m"}', "expected an integer"),
        ('{"action": "draw", "seat": 1, "replacement": 1}', "expected true or false"),
        ('{"action": "draw", "seat": 1, "colour": 1}', "unknown fields"),
        ('{"action": "hand_start", "dice": [1, "x"]}', "list of integers"),
        ('{"action": "hand_start", "at": NaN}', "expected a number"),
        ('{"action": "win", "seat": 1, "hand": "[12m]"}', "meld needs 3 or 4 tiles"),
    ],
)
def test_bad_lines_are_named(line: str, why: str) -> None:
    with pytest.raises(TableLogError) as info:
        read_tablelog('{"action": "washout"}\n' + line + "\n")
    assert str(info.value).startswith("line 2: ")
    assert why in str(info.value)


def test_bad_headers() -> None:
    with pytest.raises(TableLogError, match="unknown header keys"):
        read_tablelog('{"tablelog": 1, "colour": "red"}')
    with pytest.raises(TableLogError, match="unsupported version"):
        read_tablelog('{"tablelog": 9}')


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
_KEYS = st.sampled_from(
    ["action", "seat", "tile", "tiles", "count", "hand", "dice", "wall", "at", "replacement",
     "supersedes", "code", "dealer", "prevalent_wind"]
)  # fmt: skip
_VALUES = st.sampled_from(
    ["discard", "draw", "chow", "win", "hand_start", "correction", "5m", "123m", "[555p<2]", "E",
     "x", 0, 3, 9, -1, True, None, 1.5, [1, 2], {}]
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(st.dictionaries(_KEYS, _VALUES | _JSON, max_size=5), max_size=6))
def test_fuzzed_logs_never_crash(objects: list[dict[str, object]]) -> None:
    text = "\n".join(json.dumps(o) for o in objects)
    try:
        read_tablelog(text)
    except TableLogError as exc:
        assert str(exc).startswith("line ")


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_crashes(text: str) -> None:
    with contextlib.suppress(TableLogError):
        read_tablelog(text)


_SEATS = st.integers(min_value=-1, max_value=4)
_TILES = st.sampled_from(ALL_TILES)
_RANDOM_ACTION = st.one_of(
    st.just(act.HandStart(dealer=0)),
    st.builds(act.Deal, seat=_SEATS, count=st.integers(0, 15)),
    st.builds(
        act.Draw, seat=_SEATS, tile=st.none() | _TILES, replacement=st.none() | st.booleans()
    ),
    st.builds(act.Discard, seat=_SEATS, tile=_TILES),
    st.builds(act.Chow, seat=_SEATS, tiles=st.tuples(_TILES, _TILES, _TILES)),
    st.builds(act.Pung, seat=_SEATS, tile=st.none() | _TILES),
    st.builds(act.Kong, seat=_SEATS),
    st.builds(act.ConcealedKong, seat=_SEATS, tile=st.none() | _TILES),
    st.builds(act.ShowKong, seat=_SEATS, tile=_TILES),
    st.builds(act.AddedKong, seat=_SEATS, tile=_TILES),
    st.builds(act.Flower, seat=_SEATS, tile=_TILES),
    st.builds(act.Win, seat=_SEATS, tile=st.none() | _TILES),
    st.just(act.Washout()),
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["log", "wsom", "national"]), st.lists(_RANDOM_ACTION, max_size=40))
def test_tables_never_crash_on_any_sequence(procedure: str, actions: list[act.Action]) -> None:
    table = Table(procedure, rules=find_rules("mcr"))
    for action in [act.HandStart(dealer=0), *actions]:
        for event in table.apply(action):
            to_json(event)
            assert not str(getattr(event, "detail", "")).startswith("internal error"), event
    json.dumps(table.snapshot())
    json.dumps(table.private_snapshot())
