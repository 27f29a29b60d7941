"""The stabiliser: N-frame rule, occlusion deletes and invents nothing, melds and their sources."""

from __future__ import annotations

from engine.tiles import RelativeSeat, Tile
from vision.faces import face
from vision.layout import MeldSpec, TableSpec, layout, river_slot_centre
from vision.stabiliser import Stabiliser, TableDetection


def _river(seat: int, names: list[str]) -> list[TableDetection]:
    out = []
    for i, name in enumerate(names):
        x, y = river_slot_centre(seat, *divmod(i, 6))
        out.append(TableDetection(face(name), x, y, sideways=False, confidence=0.9))
    return out


def _tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(t) for t in text.split())


def test_tile_counts_only_after_n_consistent_frames() -> None:
    stabiliser = Stabiliser(confirm_frames=3)
    frame = _river(0, ["5m", "E"])
    assert stabiliser.update(frame).seats[0].river == ()
    assert stabiliser.update(frame).seats[0].river == ()
    assert stabiliser.update(frame).seats[0].river == _tiles("5m E")


def test_flickering_kind_is_not_confirmed_until_one_kind_leads() -> None:
    stabiliser = Stabiliser(confirm_frames=3)
    for name in ["5m", "6m", "7m", "6m"]:  # never a strict majority
        assert stabiliser.update(_river(1, [name])).seats[1].river == ()
    assert stabiliser.update(_river(1, ["6m"])).seats[1].river == _tiles("6m")


def test_one_odd_frame_does_not_stop_confirmation() -> None:
    stabiliser = Stabiliser(confirm_frames=3)
    for name in ["E", "S", "E"]:
        observed = stabiliser.update(_river(0, [name]))
    assert observed.seats[0].river == _tiles("E")


def test_arm_over_the_river_deletes_nothing_and_invents_nothing() -> None:
    stabiliser = Stabiliser(confirm_frames=3, remove_frames=4)
    river = _river(2, ["1p", "2p", "3p", "4p", "5p", "6p", "7p"])
    for _ in range(3):
        stabiliser.update(river)
    for frame in range(30):  # an arm hides tiles 2-6 for a long time, and looks like a tile
        arm = TableDetection(face("C" if frame % 2 else "F"), 0.52 + 0.01 * frame, 0.3, False, 0.8)
        observed = stabiliser.update([river[0], arm])
        assert observed.seats[2].river == _tiles("1p 2p 3p 4p 5p 6p 7p")
    assert all(seat.river == () for i, seat in enumerate(observed.seats) if i != 2)


def test_claimed_last_discard_is_removed_when_its_neighbours_are_seen() -> None:
    stabiliser = Stabiliser(confirm_frames=2, remove_frames=3)
    river = _river(3, ["9s", "8s", "7s"])
    for _ in range(2):
        stabiliser.update(river)
    for _ in range(2):
        assert stabiliser.update(river[:2]).seats[3].river == _tiles("9s 8s 7s")
    assert stabiliser.update(river[:2]).seats[3].river == _tiles("9s 8s")


def test_melds_read_their_source_from_the_turned_tile_and_hand_is_separate() -> None:
    spec = TableSpec()
    spec.melds[1] = [MeldSpec(["W", "W", "W"], 0), MeldSpec(["3s", "4s", "5s"], 2)]
    spec.revealed[1] = ["1m", "1m", "2p", "3p", "4p", "9m", "9m", "9m"]
    detections = [
        TableDetection(face(spot.name), *spot.centre, sideways=spot.sideways)
        for spot in layout(spec)
    ]
    stabiliser = Stabiliser(confirm_frames=1)
    seat = stabiliser.update(detections).seats[1]
    by_tiles = {m.tiles: m for m in seat.melds}
    assert by_tiles[_tiles("W W W")].source is RelativeSeat.UPPER
    assert by_tiles[_tiles("3s 4s 5s")].source is RelativeSeat.LOWER
    assert seat.revealed == _tiles("1m 1m 2p 3p 4p 9m 9m 9m")


def test_isolated_claimed_tile_is_removed_only_when_felt_shows() -> None:
    stabiliser = Stabiliser(confirm_frames=2, remove_frames=3)
    river = _river(0, ["9s"])
    for _ in range(2):
        stabiliser.update(river)
    for _ in range(10):  # hidden by an arm: no felt visible there
        assert stabiliser.update([], empty_at=lambda x, y: False).seats[0].river == _tiles("9s")
    for _ in range(2):
        assert stabiliser.update([], empty_at=lambda x, y: True).seats[0].river == _tiles("9s")
    assert stabiliser.update([], empty_at=lambda x, y: True).seats[0].river == ()


def test_confirmed_tile_read_as_another_kind_long_enough_is_corrected() -> None:
    stabiliser = Stabiliser(confirm_frames=2)
    for _ in range(2):
        stabiliser.update(_river(0, ["2m"]))
    for _ in range(3):
        assert stabiliser.update(_river(0, ["3m"])).seats[0].river == _tiles("2m")
    assert stabiliser.update(_river(0, ["3m"])).seats[0].river == _tiles("3m")


def test_felt_check_tells_bare_felt_from_tiles_and_arms(faces) -> None:
    import numpy as np

    from models.drawn.render import render_table
    from vision.detector_backends import CANVAS
    from vision.reader import FeltCheck

    spec = TableSpec(concealed=[0] * 4, walls=[(0, 0)] * 4)
    spec.rivers[0] = ["5p"]
    canvas, labels = render_table(spec, faces, CANVAS, np.random.default_rng(2))
    check = FeltCheck(canvas)
    x, y = labels[0].spot.centre
    assert not check(x, y)
    empty_x, empty_y = river_slot_centre(0, 1, 3)
    assert check(empty_x, empty_y)
    px, py = int(empty_x * CANVAS), int(empty_y * CANVAS)
    canvas[py - 40 : py + 40, px - 40 : px + 40] = (120, 160, 210)  # a skin-coloured arm
    assert not FeltCheck(canvas)(empty_x, empty_y)


def test_a_stray_box_over_part_of_a_tile_neither_steals_its_track_nor_adds_a_tile() -> None:
    """A box over the top half of a river tile (read as another kind) comes first in the
    detector's list for a few frames: the tile keeps its track and no second tile appears."""
    stabiliser = Stabiliser(confirm_frames=3, remove_frames=3)
    river = _river(1, ["P", "9s"])
    for _ in range(3):
        stabiliser.update(river)
    tile = river[1]
    stray = TableDetection(face("2s"), tile.x - 0.012, tile.y - 0.002, False, 0.45)
    for frame in range(8):
        new = _river(1, ["P", "9s", "E"]) if frame >= 2 else river
        observed = stabiliser.update([stray, *new])
        assert observed.seats[1].river[:2] == _tiles("P 9s")
    assert observed.seats[1].river == _tiles("P 9s E")
    assert len(stabiliser.tracks) == 3


def test_a_tile_read_unsurely_stays_but_a_faint_box_on_bare_felt_keeps_nothing() -> None:
    stabiliser = Stabiliser(confirm_frames=2, remove_frames=3)
    river = _river(2, ["F", "N", "E"])
    for _ in range(2):
        stabiliser.update(river)
    unsure = TableDetection(face("N"), river[1].x, river[1].y, False, confidence=0.2)
    for _ in range(10):  # N's box stays, its reading drops below the voting threshold
        observed = stabiliser.update([river[0], unsure, river[2]], lambda x, y: False)
    assert observed.seats[2].river == _tiles("F N E")
    felt_at_n = lambda x, y: abs(x - river[1].x) < 1e-3 and abs(y - river[1].y) < 1e-3  # noqa: E731
    for _ in range(3):  # N was taken; a faint box lingers where felt shows
        observed = stabiliser.update([river[0], unsure, river[2]], felt_at_n)
    assert observed.seats[2].river == _tiles("F E")


def test_a_second_box_over_a_discard_is_not_a_second_discard() -> None:
    """A wide stray box over part of a river tile (it reads as turned, so it does not crowd
    the upright tile's track) keeps its own track; the slot still shows one tile."""
    stabiliser = Stabiliser(confirm_frames=3)
    river = _river(1, ["7s", "9s", "4s"])
    for _ in range(3):
        stabiliser.update(river)
    x, y = river[1].x, river[1].y
    stray = TableDetection(face("9s"), x + 0.004, y + 0.004, sideways=True, confidence=0.9)
    for _ in range(6):
        observed = stabiliser.update([*river, stray])
        assert observed.seats[1].river == _tiles("7s 9s 4s")
    assert sum(track.confirmed for track in stabiliser.tracks) == 4  # the stray is tracked
    for _ in range(3):  # the stray outlasts the tile's own box: still one tile in the slot
        observed = stabiliser.update([river[0], river[2], stray])
    assert observed.seats[1].river == _tiles("7s 9s 4s")


def test_a_meld_row_pushed_along_by_an_added_kong_leaves_no_ghosts() -> None:
    """A pung grown to a kong pushes the melds beside it one tile along: tracks of the old
    places, overlapped by tiles now seen, go within ``remove_frames`` (they kept each other
    alive as each other's unseen neighbours, and the old places are not bare felt)."""
    spec = TableSpec()
    spec.melds[0] = [MeldSpec(["C", "C", "C"], 2), MeldSpec(["2p", "1p", "3p"], 0)]
    spec.melds[0].append(MeldSpec(["6m", "4m", "5m"], 0))

    def seen() -> list[TableDetection]:
        return [TableDetection(face(s.name), *s.centre, s.sideways, 0.9) for s in layout(spec)]

    def never_empty(x: float, y: float) -> bool:  # no felt check: ghosts must go all the same
        return False

    stabiliser = Stabiliser(confirm_frames=2, remove_frames=4)
    for _ in range(3):
        before = stabiliser.update(seen(), never_empty).seats[0]
    assert len(before.melds) == 3 and before.revealed == ()
    spec.melds[0][0] = MeldSpec(["C", "C", "C", "C"], 3)
    for _ in range(12):
        after = stabiliser.update(seen(), never_empty).seats[0]
    assert len(after.melds) == 3
    assert after.revealed == (), after.revealed  # no ghost read into the hand row
    assert sorted(str(t) for m in after.melds for t in m.tiles) == sorted(
        ["C"] * 4 + ["2p", "1p", "3p", "6m", "4m", "5m"]
    )


def test_two_tracks_over_one_meld_tile_are_one_tile() -> None:
    """A second box over part of a meld's tile, tracked apart, is not a fourth tile: a pung
    read as a kong had been published as a kong the seat never made (national seed 1000)."""
    from vision.layout import HAND_V, TILE_H, TILE_W, to_table

    u = 0.3
    seen = [
        TableDetection(face("8s"), *to_table(2, u, HAND_V), sideways=False),
        TableDetection(face("8s"), *to_table(2, u + (TILE_W + TILE_H) / 2, HAND_V), sideways=True),
        TableDetection(face("8s"), *to_table(2, u + TILE_W + TILE_H, HAND_V), sideways=False),
        TableDetection(face("8s"), *to_table(2, u, HAND_V + 0.3 * TILE_H), sideways=False),  # stray
    ]
    stabiliser = Stabiliser(confirm_frames=2)  # both boxes start tracks before either confirms
    stabiliser.update(seen)
    observed = stabiliser.update(seen).seats[2]
    assert [len(m.tiles) for m in observed.melds] == [3]
    assert observed.revealed == ()
