"""Claimed tiles are recognised on every seat from the detector's image-axis boxes."""

from __future__ import annotations

import pytest

from engine.tiles import RelativeSeat, Tile
from vision.calibration import Calibration
from vision.detector import Detection
from vision.detector_backends import CANVAS
from vision.layout import MeldSpec, TableSpec, layout
from vision.reader import TableReader, table_detections
from vision.stabiliser import Stabiliser, TableDetection

UNIT = Calibration(((0.0, 0.0), (1024.0, 0.0), (1024.0, 1024.0), (0.0, 1024.0)))


def _boxes(spec: TableSpec) -> list[Detection]:
    """What a perfect detector reports: axis-aligned canvas boxes around each drawn tile."""
    found = []
    for spot in layout(spec):
        corners = spot.corners() * CANVAS
        x1, y1 = corners.min(axis=0)
        x2, y2 = corners.max(axis=0)
        found.append(Detection(spot.name, (x1, y1, x2, y2), 0.95, spot.orientation))
    return found


@pytest.mark.parametrize("seat", range(4))
def test_melds_are_read_on_every_seat(seat: int) -> None:
    spec = TableSpec()
    spec.melds[seat] = [MeldSpec(["W", "W", "W"], 0), MeldSpec(["3s", "4s", "5s"], 2)]
    spec.revealed[seat] = ["1m", "2m", "3m", "9p"]
    observed = Stabiliser(confirm_frames=1).update(table_detections(_boxes(spec))).seats[seat]
    sources = {tuple(str(t) for t in m.tiles): m.source for m in observed.melds}
    assert sources == {("W", "W", "W"): RelativeSeat.UPPER, ("3s", "4s", "5s"): RelativeSeat.LOWER}
    assert observed.revealed == tuple(Tile.parse(t) for t in ("1m", "2m", "3m", "9p"))


def _frames(reader: TableReader, spec: TableSpec, frames: int = 6) -> list[dict[str, object]]:
    spots = [TableDetection(s.name, *s.centre, sideways=s.sideways) for s in layout(spec)]
    events: list[dict[str, object]] = []
    for _ in range(frames):
        events += reader.process_table(spots, empty_at=lambda x, y: True)
    return [e for e in events if str(e["type"]).startswith("meld")]


def test_each_meld_is_reported_once_and_unreadable_groups_are_not_melds() -> None:
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.melds[1] = [MeldSpec(["F", "F", "F"], 0)]
    assert [(e["type"], e["kind"]) for e in _frames(reader, spec)] == [("meld", "pung")]
    spec.melds[1] += [MeldSpec(["2m", "3m", "4m"], 0), MeldSpec(["2m", "3m", "4m"], 2)]
    assert [e["kind"] for e in _frames(reader, spec)] == ["chow", "chow"]  # identical chows
    spec.melds[1] += [MeldSpec(["5p", "6p", "9p"], 1)]  # a misread: no legal meld
    assert [e["type"] for e in _frames(reader, spec)] == ["meld_unreadable"]
    spec.melds[1] = []  # next hand: the table is cleared
    assert _frames(reader, spec) == []
    spec.melds[1] = [MeldSpec(["F", "F", "F"], 0)]
    assert [(e["type"], e["kind"]) for e in _frames(reader, spec)] == [("meld", "pung")]


def test_a_meld_relaid_mid_hand_is_not_reported_again() -> None:
    """An added kong is laid by lifting the pung: for a few frames the seat shows no meld (or a
    stray group), then the kong. The pung must not come back as a second claim."""
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[0] = ["1m", "2m"]
    spec.melds[1] = [MeldSpec(["F", "F", "F"], 0)]
    assert [e["kind"] for e in _frames(reader, spec)] == ["pung"]
    spec.melds[1] = []  # lifted to add the fourth tile; the rest of the table is still there
    assert _frames(reader, spec) == []
    spec.melds[1] = [MeldSpec(["F", "F", "F"], 0)]  # put back as it was for a moment
    assert _frames(reader, spec) == []
    spec.melds[1] = [MeldSpec(["F", "F", "F", "F"], 0)]
    assert [e["kind"] for e in _frames(reader, spec)] == ["kong"]


def _events(reader: TableReader, spec: TableSpec, frames: int = 4) -> list[tuple[object, ...]]:
    spots = [TableDetection(s.name, *s.centre, sideways=s.sideways) for s in layout(spec)]
    events: list[dict[str, object]] = []
    for _ in range(frames):
        events += reader.process_table(spots, empty_at=lambda x, y: True)
    return [
        (e["type"], e["seat"], e.get("tile", e.get("kind")), bool(e.get("inferred")))
        for e in events
        if e["type"] in ("discard", "meld")
    ]


def test_a_discard_claimed_before_the_camera_confirmed_it_is_inferred_from_the_meld() -> None:
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[3] = ["1m"]
    assert _events(reader, spec) == [("discard", 3, "1m", False)]
    # seat 0 draws and discards 5p, seat 1 chows it at once: the camera never saw 5p in the river
    spec.melds[1] = [MeldSpec(["5p", "3p", "4p"], 0)]
    assert _events(reader, spec) == [("discard", 0, "5p", True), ("meld", 1, "chow", False)]
    # seat 1 discards, seat 3 pungs it after the discard was seen: nothing inferred
    spec.rivers[1] = ["E"]
    assert _events(reader, spec) == [("discard", 1, "E", False)]
    spec.rivers[1] = []
    spec.melds[3] = [MeldSpec(["E", "E", "E"], 1)]
    assert _events(reader, spec) == [("meld", 3, "pung", False)]
    # the pung becomes an added kong: no discard behind it
    spec.melds[3] = [MeldSpec(["E", "E", "E", "E"], 1)]
    assert _events(reader, spec) == [("meld", 3, "kong", False)]


def test_a_discard_and_its_claim_seen_in_one_frame_come_in_that_order() -> None:
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[2] = ["9s", "7m"]
    spec.melds[1] = [MeldSpec(["7m", "7m", "7m"], 2)]  # turned on the right: from seat 2
    events = _events(reader, spec)
    assert events[-1] == ("meld", 1, "pung", False)
    assert [e for e in events if e[0] == "discard"] == [
        ("discard", 2, "9s", False),
        ("discard", 2, "7m", False),
    ]


def test_a_discard_misread_as_another_kind_is_not_doubled_by_its_claim() -> None:
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[0] = ["6s"]  # the camera read 6s; seat 1 chows what was really 5s
    assert _events(reader, spec) == [("discard", 0, "6s", False)]
    spec.rivers[0] = []
    spec.melds[1] = [MeldSpec(["5s", "6s", "7s"], 0)]
    assert _events(reader, spec) == [("meld", 1, "chow", False)]


def test_a_claim_read_after_the_claimers_next_discard_still_finds_its_discard() -> None:
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[2] = ["6m"]
    assert _events(reader, spec) == [("discard", 2, "6m", False)]
    spec.rivers[2] = []  # seat 3 pungs it and discards N before the camera settles the pung
    spec.rivers[3] = ["N"]
    assert _events(reader, spec) == [("discard", 3, "N", False)]
    spec.melds[3] = [MeldSpec(["6m", "6m", "6m"], 0)]
    assert _events(reader, spec) == [("meld", 3, "pung", False)]


def test_a_claim_confirmed_with_the_claimers_next_discard_comes_before_it() -> None:
    """A meld is often confirmed late (an arm over it, a tile read two ways), in the same frame
    as the discard its claimer made next; the claim must still come first."""
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[2] = ["6m"]
    spec.rivers[1] = ["E"]
    assert _events(reader, spec) == [("discard", 1, "E", False), ("discard", 2, "6m", False)]
    spec.rivers[2] = []  # seat 3 pungs 6m, discards N; both are confirmed in one frame
    spec.rivers[3] = ["N"]
    spec.melds[3] = [MeldSpec(["6m", "6m", "6m"], 0)]
    assert _events(reader, spec) == [("meld", 3, "pung", False), ("discard", 3, "N", False)]


def test_a_claimers_discard_waits_while_the_claim_still_reads_as_no_meld() -> None:
    """A pung read as 8m-6m-6m for a few frames (one tile misread until the stabiliser corrects
    it) must not let the claimer's next discard through first; a meld that never reads holds a
    discard back only ``hold_frames``."""
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1), hold_frames=6)
    spec = TableSpec()
    spec.rivers[2] = ["6m"]
    assert _events(reader, spec) == [("discard", 2, "6m", False)]
    spec.rivers[2] = []
    spec.rivers[3] = ["N"]
    spec.melds[3] = [MeldSpec(["8m", "6m", "6m"], 0)]  # the misread claim, and N discarded
    assert _events(reader, spec) == []
    spec.melds[3] = [MeldSpec(["6m", "6m", "6m"], 0)]  # read right now
    assert _events(reader, spec) == [("meld", 3, "pung", False), ("discard", 3, "N", False)]
    spec.rivers[3] = ["N", "1p"]
    spec.melds[3] = [MeldSpec(["6m", "6m", "6m"], 0), MeldSpec(["2s", "9s", "4s"], 1)]
    assert _events(reader, spec, frames=6) == []  # held back ...
    assert _events(reader, spec, frames=4) == [("discard", 3, "1p", False)]  # ... not for ever


def test_only_a_whole_hand_laid_face_up_is_a_reveal() -> None:
    """Melds whose turned tile is not read for a moment look like face-up tiles in the hand row;
    that must not publish a revealed hand (the engine bridge makes it a Win)."""
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.melds[3] = [MeldSpec(["2s", "2s", "2s"], 1), MeldSpec(["S", "S", "S"], 2)]
    _events(reader, spec)
    spec.melds[3] = [MeldSpec(["S", "S", "S"], 2)]
    spec.revealed[3] = ["2s", "2s", "2s"]  # the pung, its turned tile read upright
    assert _reveals(reader, spec) == []
    spec.melds[3] = [MeldSpec(["2s", "2s", "2s"], 1), MeldSpec(["S", "S", "S"], 2)]
    spec.revealed[3] = ["1m", "2m", "3m", "5p", "5p", "5p", "8s", "8s"]  # 2 melds + 8: a win
    assert _reveals(reader, spec) == [["1m", "2m", "3m", "5p", "5p", "5p", "8s", "8s"]]


def _reveals(reader: TableReader, spec: TableSpec) -> list[object]:
    spots = [TableDetection(s.name, *s.centre, sideways=s.sideways) for s in layout(spec)]
    events: list[dict[str, object]] = []
    for _ in range(4):
        events += reader.process_table(spots, empty_at=lambda x, y: True)
    return [e["tiles"] for e in events if e["type"] == "hand_revealed"]


def test_discards_settled_together_go_in_turn_order_after_the_last_one() -> None:
    from vision.reader import in_play_order

    batch: list[dict[str, object]] = [
        {"type": "discard", "seat": 0, "tile": "7s"},
        {"type": "discard", "seat": 3, "tile": "N"},
        {"type": "meld", "seat": 3, "kind": "pung"},
    ]
    after_seat_2 = [(e["type"], e["seat"]) for e in in_play_order(batch, last_discarder=2)]
    assert after_seat_2 == [("discard", 0), ("meld", 3), ("discard", 3)]  # 0 not a melder
    plain = [e for e in batch if e["type"] == "discard"]
    assert [e["seat"] for e in in_play_order(plain, last_discarder=2)] == [3, 0]
    assert [e["seat"] for e in in_play_order(plain, last_discarder=3)] == [0, 3]
    assert [e["seat"] for e in in_play_order(plain)] == [0, 3]


def test_an_added_kong_comes_before_its_discard_and_the_next_seats() -> None:
    """An added kong takes no discard: it is made in its seat's own turn, before that seat's
    discard. While it is pushed together (its turned tile unread, the seat's melds showing as
    face-up tiles that make no whole hand) the seat's new discard waits for it (seed 3000)."""
    from vision.reader import in_play_order

    batch: list[dict[str, object]] = [
        {"type": "discard", "seat": 0, "tile": "N"},
        {"type": "meld", "seat": 3, "kind": "kong"},
        {"type": "discard", "seat": 3, "tile": "N"},
    ]
    ordered = in_play_order(batch, last_discarder=2, added_kongs={3})
    assert [(e["type"], e["seat"]) for e in ordered] == [
        ("meld", 3),
        ("discard", 3),
        ("discard", 0),
    ]
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[2] = ["1p"]
    spec.melds[3] = [MeldSpec(["7s", "8s", "9s"], 0), MeldSpec(["C", "C", "C"], 2)]
    assert [e[0] for e in _events(reader, spec)].count("meld") == 2
    spec.melds[3] = []  # being pushed together: read as seven face-up tiles
    spec.revealed[3] = ["7s", "8s", "9s", "C", "C", "C", "C"]
    spec.rivers[3] = ["N"]
    assert _events(reader, spec) == []  # N waits for the kong ...
    spec.rivers[0] = ["N"]
    assert _events(reader, spec) == []
    spec.revealed[3] = []
    spec.melds[3] = [MeldSpec(["7s", "8s", "9s"], 0), MeldSpec(["C", "C", "C", "C"], 2)]
    assert _events(reader, spec) == [
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
    assert _events(reader, spec) == [("discard", 0, "1m", False), ("meld", 1, "pung", False)]
    spec.melds[1] = []
    assert _events(reader, spec) == []
    spec.melds[1] = [MeldSpec(["F", "F", "F"], 0)]
    spec.rivers[1], spec.rivers[2] = ["2p"], ["3p"]
    assert _events(reader, spec) == [("discard", 1, "2p", False), ("discard", 2, "3p", False)]


@pytest.mark.parametrize(
    "names",
    [["back", "7p", "7p", "back"], ["7p", "back", "back", "7p"], ["back", "back", "back", "7p"]],
)
def test_a_concealed_kong_with_a_face_showing_is_read_once(names: list[str]) -> None:
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.melds[2] = [MeldSpec(["W", "W", "W"], 0), MeldSpec(names, -1)]
    spots = [TableDetection(s.name, *s.centre, sideways=s.sideways) for s in layout(spec)]
    events = []
    for frame in range(8):
        # one frame in three a back goes unread: the group breaks up, then comes back
        shown = [s for s in spots if frame % 3 != 1 or s.tile != "back"]
        events += reader.process_table(shown, empty_at=lambda x, y: False)
    kongs = [(e["seat"], e["tile"]) for e in events if e["type"] == "concealed_kong"]
    assert kongs == [(2, "7p")]
    assert [e["kind"] for e in events if e["type"] == "meld"] == ["pung"]
    assert reader.published is not None
    assert reader.published.seats[2].revealed == ()


def test_backs_outside_a_kong_are_not_tiles() -> None:
    spec = TableSpec()  # walls of backs, a kong all face down, a pung with a stray back by it
    spec.melds[0] = [MeldSpec(["back"] * 4, -1), MeldSpec(["C", "C", "C", "back"], 1)]
    observed = Stabiliser(confirm_frames=1).update(table_detections(_boxes(spec))).seats[0]
    assert observed.concealed_kongs == () and observed.face_down_kongs == 1
    assert [tuple(str(t) for t in m.tiles) for m in observed.melds] == [("C", "C", "C")]
    assert observed.revealed == ()


def test_a_concealed_kong_turned_face_up_to_win_is_not_in_the_hand() -> None:
    from vision.engine_bridge import ActionBridge

    bridge = ActionBridge()
    bridge.start(dealer=1)  # its kong is the hand's first play: no discard before it missed
    actions = bridge.actions({"type": "concealed_kong", "seat": 1, "tile": "5s"})
    assert [a.name for a in actions] == ["draw", "concealed_kong"]
    bridge.actions({"type": "discard", "seat": 1, "tile": "9m"})
    bridge.actions({"type": "discard", "seat": 2, "tile": "E"})
    tiles = ["5s"] * 4 + ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E"]
    (win,) = bridge.actions({"type": "hand_revealed", "seat": 1, "tiles": tiles})
    assert win.tile == Tile.parse("E")
    assert win.hand is not None
    assert [str(t) for t in win.hand.concealed] == tiles[4:-1]


def test_melds_laid_touching_are_still_separate_melds() -> None:
    """No gap read between two melds (a box's jitter closes a narrow one): each turned tile
    starts or ends its own meld, so 4m-5m-6m beside 3p-1p-2p is two chows, not six hand tiles."""
    from vision.layout import HAND_V, TILE_H, TILE_W, to_table

    names = [("4m", True), ("5m", False), ("6m", False), ("3p", True), ("1p", False), ("2p", False)]
    u, seen = 0.0, []
    for name, turned in names:
        width = TILE_H if turned else TILE_W
        seen.append(TableDetection(name, *to_table(0, u + width / 2, HAND_V), sideways=turned))
        u += width
    observed = Stabiliser(confirm_frames=1).update(seen).seats[0]
    assert [(tuple(map(str, m.tiles)), m.source) for m in observed.melds] == [
        (("4m", "5m", "6m"), RelativeSeat.UPPER),
        (("3p", "1p", "2p"), RelativeSeat.UPPER),
    ]
    assert observed.revealed == ()
    seen[4] = TableDetection("9s", seen[4].x, seen[4].y, sideways=False)  # no meld: 3p 9s 2p
    assert Stabiliser(confirm_frames=1).update(seen).seats[0].melds == ()
