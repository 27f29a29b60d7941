"""Claimed tiles are recognised on every seat from the detector's image-axis boxes."""

from __future__ import annotations

import pytest

from engine.tiles import RelativeSeat, Tile
from tests.vision.exact_reading import UNIT, meld_events, perfect_boxes, play_events, revealed_hands
from vision.faces import BACK, face
from vision.layout import MeldSpec, TableSpec, layout
from vision.observed import to_json
from vision.reader import TableReader, table_detections
from vision.stabiliser import Stabiliser, TableDetection


@pytest.mark.parametrize("seat", range(4))
def test_melds_are_read_on_every_seat(seat: int) -> None:
    spec = TableSpec()
    spec.melds[seat] = [MeldSpec(["W", "W", "W"], 0), MeldSpec(["3s", "4s", "5s"], 2)]
    spec.revealed[seat] = ["1m", "2m", "3m", "9p"]
    observed = (
        Stabiliser(confirm_frames=1).update(table_detections(perfect_boxes(spec))).seats[seat]
    )
    sources = {tuple(str(t) for t in m.tiles): m.source for m in observed.melds}
    assert sources == {("W", "W", "W"): RelativeSeat.UPPER, ("3s", "4s", "5s"): RelativeSeat.LOWER}
    assert observed.revealed == tuple(Tile.parse(t) for t in ("1m", "2m", "3m", "9p"))


def test_each_meld_is_reported_once_and_unreadable_groups_are_not_melds() -> None:
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.melds[1] = [MeldSpec(["F", "F", "F"], 0)]
    assert [(e["type"], e["kind"]) for e in meld_events(reader, spec)] == [("meld", "pung")]
    spec.melds[1] += [MeldSpec(["2m", "3m", "4m"], 0), MeldSpec(["2m", "3m", "4m"], 2)]
    assert [e["kind"] for e in meld_events(reader, spec)] == ["chow", "chow"]  # identical chows
    spec.melds[1] += [MeldSpec(["5p", "6p", "9p"], 1)]  # a misread: no legal meld
    assert [e["type"] for e in meld_events(reader, spec)] == ["meld_unreadable"]
    spec.melds[1] = []  # next hand: the table is cleared
    assert meld_events(reader, spec) == []
    spec.melds[1] = [MeldSpec(["F", "F", "F"], 0)]
    assert [(e["type"], e["kind"]) for e in meld_events(reader, spec)] == [("meld", "pung")]


def test_a_meld_relaid_mid_hand_is_not_reported_again() -> None:
    """An added kong is laid by lifting the pung: for a few frames the seat shows no meld (or a
    stray group), then the kong. The pung must not come back as a second claim."""
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.rivers[0] = ["1m", "2m"]
    spec.melds[1] = [MeldSpec(["F", "F", "F"], 0)]
    assert [e["kind"] for e in meld_events(reader, spec)] == ["pung"]
    spec.melds[1] = []  # lifted to add the fourth tile; the rest of the table is still there
    assert meld_events(reader, spec) == []
    spec.melds[1] = [MeldSpec(["F", "F", "F"], 0)]  # put back as it was for a moment
    assert meld_events(reader, spec) == []
    spec.melds[1] = [MeldSpec(["F", "F", "F", "F"], 0)]
    assert [e["kind"] for e in meld_events(reader, spec)] == ["kong"]


def test_only_a_whole_hand_laid_face_up_is_a_reveal() -> None:
    """Melds whose turned tile is not read for a moment look like face-up tiles in the hand row;
    that must not publish a revealed hand (the engine bridge makes it a Win)."""
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.melds[3] = [MeldSpec(["2s", "2s", "2s"], 1), MeldSpec(["S", "S", "S"], 2)]
    play_events(reader, spec)
    spec.melds[3] = [MeldSpec(["S", "S", "S"], 2)]
    spec.revealed[3] = ["2s", "2s", "2s"]  # the pung, its turned tile read upright
    assert revealed_hands(reader, spec) == []
    spec.melds[3] = [MeldSpec(["2s", "2s", "2s"], 1), MeldSpec(["S", "S", "S"], 2)]
    spec.revealed[3] = ["1m", "2m", "3m", "5p", "5p", "5p", "8s", "8s"]  # 2 melds + 8: a win
    assert revealed_hands(reader, spec) == [["1m", "2m", "3m", "5p", "5p", "5p", "8s", "8s"]]


@pytest.mark.parametrize(
    "names",
    [["back", "7p", "7p", "back"], ["7p", "back", "back", "7p"], ["back", "back", "back", "7p"]],
)
def test_a_concealed_kong_with_a_face_showing_is_read_once(names: list[str]) -> None:
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=1, remove_frames=1))
    spec = TableSpec()
    spec.melds[2] = [MeldSpec(["W", "W", "W"], 0), MeldSpec(names, -1)]
    spots = [TableDetection(face(s.name), *s.centre, sideways=s.sideways) for s in layout(spec)]
    events = []
    for frame in range(8):
        # one frame in three a back goes unread: the group breaks up, then comes back
        shown = [s for s in spots if frame % 3 != 1 or s.face is not BACK]
        events += map(to_json, reader.process_table(shown, empty_at=lambda x, y: False))
    kongs = [(e["seat"], e["tile"]) for e in events if e["type"] == "concealed_kong"]
    assert kongs == [(2, "7p")]
    assert [e["kind"] for e in events if e["type"] == "meld"] == ["pung"]
    assert reader.published is not None
    assert reader.published.seats[2].revealed == ()


def test_backs_outside_a_kong_are_not_tiles() -> None:
    spec = TableSpec()  # walls of backs, a kong all face down, a pung with a stray back by it
    spec.melds[0] = [MeldSpec(["back"] * 4, -1), MeldSpec(["C", "C", "C", "back"], 1)]
    observed = Stabiliser(confirm_frames=1).update(table_detections(perfect_boxes(spec))).seats[0]
    assert observed.concealed_kongs == () and observed.face_down_kongs == 1
    assert [tuple(str(t) for t in m.tiles) for m in observed.melds] == [("C", "C", "C")]
    assert observed.revealed == ()


def test_a_concealed_kong_turned_face_up_to_win_is_not_in_the_hand() -> None:
    from vision.engine_bridge import ActionBridge
    from vision.observed import ConcealedKongSeen, DiscardSeen, HandRevealed

    bridge = ActionBridge()
    bridge.start(dealer=1)  # its kong is the hand's first play: no discard before it missed
    actions = bridge.actions(ConcealedKongSeen(1, Tile.parse("5s")))
    assert [a.name for a in actions] == ["draw", "concealed_kong"]
    bridge.actions(DiscardSeen(1, Tile.parse("9m")))
    bridge.actions(DiscardSeen(2, Tile.parse("E")))
    tiles = ["5s"] * 4 + ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E"]
    (win,) = bridge.actions(HandRevealed(1, tuple(map(Tile.parse, tiles))))
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
        seen.append(
            TableDetection(face(name), *to_table(0, u + width / 2, HAND_V), sideways=turned)
        )
        u += width
    observed = Stabiliser(confirm_frames=1).update(seen).seats[0]
    assert [(tuple(map(str, m.tiles)), m.source) for m in observed.melds] == [
        (("4m", "5m", "6m"), RelativeSeat.UPPER),
        (("3p", "1p", "2p"), RelativeSeat.UPPER),
    ]
    assert observed.revealed == ()
    seen[4] = TableDetection(face("9s"), seen[4].x, seen[4].y, sideways=False)  # no meld: 3p 9s 2p
    assert Stabiliser(confirm_frames=1).update(seen).seats[0].melds == ()
