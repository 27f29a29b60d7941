"""Discards published in turn although the camera confirms one late (vision.turn_hold), read
through the reader from exact detections."""

from __future__ import annotations

from engine.tiles import MeldKind, RelativeSeat, Tile
from tests.vision.test_face_down_kongs import UNIT, _read
from vision.layout import MeldSpec, TableSpec
from vision.observed import (
    ConcealedKongSeen,
    DiscardSeen,
    HandRevealed,
    MeldSeen,
    Observed,
    RiverTaken,
    to_json,
)
from vision.reader import TableReader
from vision.stabiliser import Stabiliser
from vision.turn_hold import next_to_play


def _discards(events: list[Observed]) -> list[tuple[object, object]]:
    return [(e["seat"], e["tile"]) for e in map(to_json, events) if e["type"] == "discard"]


def _reader() -> TableReader:
    return TableReader(None, UNIT, Stabiliser(confirm_frames=2))


def test_a_discard_confirmed_late_still_comes_before_the_next_seats() -> None:
    """Seat 1's 5p is hidden (under an arm) until after seat 2 has discarded its E: seat 2's
    discard waits and both come out in turn."""
    reader, spec = _reader(), TableSpec()
    spec.rivers[0] = ["9m"]
    events = _read(reader, spec)
    spec.rivers[1], spec.rivers[2] = ["5p"], ["E"]
    hidden = TableSpec(rivers=[["9m"], [], ["E"], []])  # the 5p not seen yet
    early = _read(reader, hidden, 4)
    assert _discards(early) == []  # seat 2 played out of turn: it waits
    events += early + _read(reader, spec)
    assert _discards(events) == [(0, "9m"), (1, "5p"), (2, "E")]


def test_a_discard_whose_turn_never_shows_is_published_after_the_hold() -> None:
    reader, spec = _reader(), TableSpec()
    spec.rivers[0] = ["9m"]
    events = _read(reader, spec)
    spec.rivers[2] = ["E"]  # seat 1's discard never seen at all
    events += _read(reader, spec, reader.hold_frames + 4)
    assert _discards(events) == [(0, "9m"), (2, "E")]


def test_a_claimer_plays_next_without_waiting() -> None:
    """Seat 2 pungs seat 0's 9m and discards at once: its meld makes it next to play."""
    reader, spec = _reader(), TableSpec()
    spec.rivers[0] = ["9m"]
    events = _read(reader, spec)
    spec.rivers[0] = []
    spec.melds[2] = [MeldSpec(["9m", "9m", "9m"], 1)]
    spec.rivers[2] = ["E"]
    events += _read(reader, spec, 4)
    assert _discards(events) == [(0, "9m"), (2, "E")]
    assert [to_json(e)["type"] for e in events][-2:] == ["meld", "discard"]


def test_the_seat_to_play_next_follows_discards_and_claims() -> None:
    tile = Tile.parse("9m")
    pung = MeldSeen(2, MeldKind.PUNG, (tile,) * 3, RelativeSeat.OPPOSITE, tile)
    assert next_to_play([DiscardSeen(3, tile)], None) == 0
    assert next_to_play([DiscardSeen(0, tile), pung], 1) == 2
    assert next_to_play([ConcealedKongSeen(1, tile)], 1) == 1
    assert next_to_play([HandRevealed(1, (tile,) * 14)], 2) is None
    assert next_to_play([RiverTaken(1, tile)], 2) == 2
