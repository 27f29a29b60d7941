"""The order the reader reports discards and claims in, from exact detections (no model): a
discard claimed before the camera confirmed it is inferred from the meld, a claim comes before
its claimer's next discard, and discards settled together go in turn order."""

from __future__ import annotations

from engine.tiles import MeldKind, RelativeSeat, Tile
from tests.vision.exact_reading import UNIT, play_events
from vision.layout import MeldSpec, TableSpec
from vision.observed import DiscardSeen, MeldSeen, SeatObserved, to_json
from vision.reader import TableReader
from vision.stabiliser import Stabiliser


def test_a_discard_claimed_before_the_camera_confirmed_it_is_inferred_from_the_meld() -> None:
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[3] = ["1m"]
    assert play_events(reader, spec) == [("discard", 3, "1m", False)]
    # seat 0 draws and discards 5p, seat 1 chows it at once: the camera never saw 5p in the river
    spec.melds[1] = [MeldSpec(["5p", "3p", "4p"], 0)]
    assert play_events(reader, spec) == [("discard", 0, "5p", True), ("meld", 1, "chow", False)]
    # seat 1 discards, seat 3 pungs it after the discard was seen: nothing inferred
    spec.rivers[1] = ["E"]
    assert play_events(reader, spec) == [("discard", 1, "E", False)]
    spec.rivers[1] = []
    spec.melds[3] = [MeldSpec(["E", "E", "E"], 1)]
    assert play_events(reader, spec) == [("meld", 3, "pung", False)]
    # the pung becomes an added kong: no discard behind it
    spec.melds[3] = [MeldSpec(["E", "E", "E", "E"], 1)]
    assert play_events(reader, spec) == [("meld", 3, "kong", False)]


def test_a_discard_and_its_claim_seen_in_one_frame_come_in_that_order() -> None:
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[2] = ["9s", "7m"]
    spec.melds[1] = [MeldSpec(["7m", "7m", "7m"], 2)]  # turned on the right: from seat 2
    events = play_events(reader, spec)
    assert events[-1] == ("meld", 1, "pung", False)
    assert [e for e in events if e[0] == "discard"] == [
        ("discard", 2, "9s", False),
        ("discard", 2, "7m", False),
    ]


def test_a_discard_misread_as_another_kind_is_not_doubled_by_its_claim() -> None:
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[0] = ["6s"]  # the camera read 6s; seat 1 chows what was really 5s
    assert play_events(reader, spec) == [("discard", 0, "6s", False)]
    spec.rivers[0] = []
    spec.melds[1] = [MeldSpec(["5s", "6s", "7s"], 0)]
    assert play_events(reader, spec) == [("meld", 1, "chow", False)]


def test_a_claim_read_after_the_claimers_next_discard_still_finds_its_discard() -> None:
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[2] = ["6m"]
    assert play_events(reader, spec) == [("discard", 2, "6m", False)]
    spec.rivers[2] = []  # seat 3 pungs it and discards N before the camera settles the pung
    spec.rivers[3] = ["N"]
    assert play_events(reader, spec) == [("discard", 3, "N", False)]
    spec.melds[3] = [MeldSpec(["6m", "6m", "6m"], 0)]
    assert play_events(reader, spec) == [("meld", 3, "pung", False)]


def test_a_claim_confirmed_with_the_claimers_next_discard_comes_before_it() -> None:
    """A meld is often confirmed late (an arm over it, a tile read two ways), in the same frame
    as the discard its claimer made next; the claim must still come first."""
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[2] = ["6m"]
    spec.rivers[1] = ["E"]
    assert play_events(reader, spec) == [("discard", 1, "E", False), ("discard", 2, "6m", False)]
    spec.rivers[2] = []  # seat 3 pungs 6m, discards N; both are confirmed in one frame
    spec.rivers[3] = ["N"]
    spec.melds[3] = [MeldSpec(["6m", "6m", "6m"], 0)]
    assert play_events(reader, spec) == [("meld", 3, "pung", False), ("discard", 3, "N", False)]


def test_a_claimers_discard_waits_while_the_claim_still_reads_as_no_meld() -> None:
    """A pung read as 8m-6m-6m for a few frames (one tile misread until the stabiliser corrects
    it) must not let the claimer's next discard through first; a meld that never reads holds a
    discard back only ``hold_frames``."""
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1), hold_frames=6)
    spec = TableSpec()
    spec.rivers[2] = ["6m"]
    assert play_events(reader, spec) == [("discard", 2, "6m", False)]
    spec.rivers[2] = []
    spec.rivers[3] = ["N"]
    spec.melds[3] = [MeldSpec(["8m", "6m", "6m"], 0)]  # the misread claim, and N discarded
    assert play_events(reader, spec) == []
    spec.melds[3] = [MeldSpec(["6m", "6m", "6m"], 0)]  # read right now
    assert play_events(reader, spec) == [("meld", 3, "pung", False), ("discard", 3, "N", False)]
    spec.rivers[3] = ["N", "1p"]
    spec.melds[3] = [MeldSpec(["6m", "6m", "6m"], 0), MeldSpec(["2s", "9s", "4s"], 1)]
    assert play_events(reader, spec, frames=6) == []  # held back ...
    assert play_events(reader, spec, frames=4) == [("discard", 3, "1p", False)]  # ... not for ever


def test_discards_settled_together_go_in_turn_order_after_the_last_one() -> None:
    from vision.reader import in_play_order

    batch: list[SeatObserved] = [
        DiscardSeen(0, Tile.parse("7s")),
        DiscardSeen(3, Tile.parse("N")),
        _meld(3, MeldKind.PUNG),
    ]
    ordered = map(to_json, in_play_order(batch, last_discarder=2))
    after_seat_2 = [(e["type"], e["seat"]) for e in ordered]
    assert after_seat_2 == [("discard", 0), ("meld", 3), ("discard", 3)]  # 0 not a melder
    plain = [e for e in batch if isinstance(e, DiscardSeen)]
    assert [e.seat for e in in_play_order(plain, last_discarder=2)] == [3, 0]
    assert [e.seat for e in in_play_order(plain, last_discarder=3)] == [0, 3]
    assert [e.seat for e in in_play_order(plain)] == [0, 3]


def _meld(seat: int, kind: MeldKind) -> MeldSeen:
    """A meld of ``kind`` (its tiles do not matter to the order)."""
    tile = Tile.parse("N")
    return MeldSeen(seat, kind, (tile,) * kind.size, RelativeSeat.UPPER, tile)


def test_an_added_kong_comes_before_its_discard_and_the_next_seats() -> None:
    """An added kong takes no discard: it is made in its seat's own turn, before that seat's
    discard. While it is pushed together (its turned tile unread, the seat's melds showing as
    face-up tiles that make no whole hand) the seat's new discard waits for it (seed 3000)."""
    from vision.reader import in_play_order

    batch: list[SeatObserved] = [
        DiscardSeen(0, Tile.parse("N")),
        _meld(3, MeldKind.KONG),
        DiscardSeen(3, Tile.parse("N")),
    ]
    ordered = in_play_order(batch, last_discarder=2, added_kongs={3})
    assert [(e["type"], e["seat"]) for e in map(to_json, ordered)] == [
        ("meld", 3),
        ("discard", 3),
        ("discard", 0),
    ]
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[2] = ["1p"]
    spec.melds[3] = [MeldSpec(["7s", "8s", "9s"], 0), MeldSpec(["C", "C", "C"], 2)]
    assert [e[0] for e in play_events(reader, spec)].count("meld") == 2
    spec.melds[3] = []  # being pushed together: read as seven face-up tiles
    spec.revealed[3] = ["7s", "8s", "9s", "C", "C", "C", "C"]
    spec.rivers[3] = ["N"]
    assert play_events(reader, spec) == []  # N waits for the kong ...
    spec.rivers[0] = ["N"]
    assert play_events(reader, spec) == []
    spec.revealed[3] = []
    spec.melds[3] = [MeldSpec(["7s", "8s", "9s"], 0), MeldSpec(["C", "C", "C", "C"], 2)]
    assert play_events(reader, spec) == [
        ("meld", 3, "kong", False),
        ("discard", 3, "N", False),
        ("discard", 0, "N", False),
    ]


def test_a_meld_seen_again_is_no_claim_when_ordering_the_discards_with_it() -> None:
    """A reported pung that flickers out and back (an arm, a tile nudged) comes back in the frame
    that also settles two seats' discards: only a new claim puts its seat's discard after the
    others; this one must not (the demo's seed 1, hand 2, read seat 2 before seat 1)."""
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[0] = ["1m"]
    spec.melds[1] = [MeldSpec(["F", "F", "F"], 0)]
    assert play_events(reader, spec) == [("discard", 0, "1m", False), ("meld", 1, "pung", False)]
    spec.melds[1] = []
    assert play_events(reader, spec) == []
    spec.melds[1] = [MeldSpec(["F", "F", "F"], 0)]
    spec.rivers[1], spec.rivers[2] = ["2p"], ["3p"]
    assert play_events(reader, spec) == [("discard", 1, "2p", False), ("discard", 2, "3p", False)]
