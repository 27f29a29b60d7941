"""A claim takes the discard just made: a discard of the claimed seat's from the round before is
not the one taken (read as another kind), so the discard the camera never confirmed is inferred.
Exact detections (no model), as tests/vision/test_reader_melds.py."""

from __future__ import annotations

from tests.vision.exact_reading import UNIT, play_events
from vision.layout import MeldSpec, TableSpec
from vision.reader import TableReader
from vision.stabiliser import Stabiliser


def _reader() -> TableReader:
    return TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))


def test_a_claim_of_a_discard_never_confirmed_is_not_matched_to_the_round_before() -> None:
    """wsom seed 4 hand 3 through tilesight run: seat 2's F, then seats 3, 0 and 1 discard
    (seat 1 a 4s); seat 2 discards a 4s that seat 1 pungs at once. The F three discards back
    was taken for the claimed tile misread, nothing was inferred, and the engine saw seat 1
    pung its own 4s (``claim_own_discard``, ``out_of_turn``, ``small_xianggong``)."""
    reader, spec = _reader(), TableSpec()
    for seat, tile in ((2, "F"), (3, "W"), (0, "5p"), (1, "4s")):
        spec.rivers[seat].append(tile)
        assert play_events(reader, spec) == [("discard", seat, tile, False)]
    spec.melds[1] = [MeldSpec(["4s", "4s", "4s"], 2)]  # turned on the right: from seat 2
    assert play_events(reader, spec) == [("discard", 2, "4s", True), ("meld", 1, "pung", False)]


def test_the_claimers_own_next_discard_does_not_hide_the_discard_it_took() -> None:
    reader, spec = _reader(), TableSpec()
    spec.rivers[2] = ["6m"]
    assert play_events(reader, spec) == [("discard", 2, "6m", False)]
    spec.rivers[2] = []  # seat 3 pungs it and discards N before the camera settles the pung
    spec.rivers[3] = ["N"]
    assert play_events(reader, spec) == [("discard", 3, "N", False)]
    spec.melds[3] = [MeldSpec(["6m", "6m", "6m"], 0)]
    assert play_events(reader, spec) == [("meld", 3, "pung", False)]  # nothing inferred


def test_a_river_tile_lost_from_view_and_seen_again_is_not_a_new_discard() -> None:
    """national seed 4 hand 2 through tilesight run: seat 3's last discard (a 9s) went from
    view for five frames (``river_taken``) and came back as a new discard, so seat 3's win on
    seat 1's discard was taken for a claim of its own 9s."""
    reader, spec = _reader(), TableSpec()
    spec.rivers[3] = ["1m", "9s"]
    assert play_events(reader, spec) == [("discard", 3, "1m", False), ("discard", 3, "9s", False)]
    spec.rivers[3] = ["1m"]  # lost from view: no claim follows
    assert play_events(reader, spec) == []
    spec.rivers[3] = ["1m", "9s"]
    assert play_events(reader, spec) == []  # the same tile, seen again
    spec.rivers[0] = ["4m"]
    assert play_events(reader, spec) == [("discard", 0, "4m", False)]


def test_a_claimed_discard_is_gone_and_the_next_of_its_kind_in_its_place_is_new() -> None:
    reader, spec = _reader(), TableSpec()
    spec.rivers[2] = ["9s"]
    assert play_events(reader, spec) == [("discard", 2, "9s", False)]
    spec.rivers[2] = []
    spec.melds[3] = [MeldSpec(["9s", "9s", "9s"], 0)]  # seat 3 pungs it from seat 2
    assert play_events(reader, spec) == [("meld", 3, "pung", False)]
    spec.rivers[3] = ["E"]
    spec.rivers[0] = ["1p"]
    spec.rivers[1] = ["2p"]
    play_events(reader, spec)
    spec.rivers[2] = ["9s"]  # seat 2 discards another 9s, where the claimed one lay
    assert play_events(reader, spec) == [("discard", 2, "9s", False)]


def test_a_claimed_discard_seen_gone_after_its_meld_is_not_lost_from_view() -> None:
    """national seed 4 hand 10 through tilesight run (2026-12-07): seat 0 chowed seat 3's 2p,
    the meld read before the 2p was seen gone from the river (the stabiliser removes a tile
    only after a while), so it was noted as lost from view; seat 3's last discard, another 2p in
    the same place, was then taken for it seen again and never published: the hand ended one
    live tile short of its washout and was abandoned."""
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=3, remove_frames=10))
    spec = TableSpec()
    spec.rivers[3] = ["5s", "2p"]
    assert play_events(reader, spec) == [("discard", 3, "5s", False), ("discard", 3, "2p", False)]
    spec.melds[0] = [MeldSpec(["2p", "1p", "3p"], 0)]  # the chow, from the seat before
    spec.rivers[3] = ["5s"]
    assert play_events(reader, spec) == [("meld", 0, "chow", False)]
    for seat, tile in ((0, "4p"), (1, "7s"), (2, "6s")):  # the 2p seen gone among these
        spec.rivers[seat].append(tile)
        assert play_events(reader, spec) == [("discard", seat, tile, False)]
    spec.rivers[3] = ["5s", "2p"]  # seat 3 discards another 2p, where the claimed one lay
    assert play_events(reader, spec) == [("discard", 3, "2p", False)]
