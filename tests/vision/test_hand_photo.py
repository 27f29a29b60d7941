"""Grouping a photographed hand: synthetic tiles laid on a table plane and seen by a camera at
any turn, tilted up to 45 degrees, in any order (vision.hand_photo)."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.notation import format_hand, parse_tile
from vision.hand_photo import read_hand
from vision.photo import PhotoTile
from vision.photo_hand import GroupKind, PhotoHand

W, H = 30.0, 40.0  # a face on the table, mm
TOUCH, GAP, ROW_GAP = 0.6, 18.0, 12.0  # mm between tiles side by side, between groups, rows


def lay(layout: str) -> list[tuple[str, np.ndarray]]:
    """Tiles on the table plane (x to the owner's right, y away from the owner, mm) with their
    face corners TL, TR, BR, BL as the owner reads them. ``layout``: tiles by name, ``*`` after
    a name lays it turned (its top to the owner's left), ``_`` leaves a gap, ``|`` starts the
    row behind."""
    laid = []
    for row, text in enumerate(layout.split("|")):
        x, y = 0.0, row * (H + ROW_GAP)
        for token in text.split():
            if token == "_":
                x += GAP
                continue
            name, turned = token.rstrip("*"), token.endswith("*")
            if turned:  # upright corners turned a quarter counter-clockwise about the centre
                cx, cy = x + H / 2, y + W / 2
                corners = [(cx - H / 2, cy - W / 2), (cx - H / 2, cy + W / 2)]
                corners += [(cx + H / 2, cy + W / 2), (cx + H / 2, cy - W / 2)]
                x += H + TOUCH
            else:
                corners = [(x, y + H), (x + W, y + H), (x + W, y), (x, y)]
                x += W + TOUCH
            laid.append((name, np.array(corners)))
    return laid


def camera(
    spin: float, tilt: float, azimuth: float, distance: float, aim: tuple[float, float] = (200, 30)
) -> np.ndarray:
    """The homography from the table plane (mm) to a 1600x1200 photo: a camera ``distance`` mm
    from ``aim`` (the photo's centre), tilted ``tilt`` degrees from straight down, seen from
    ``azimuth`` and turned ``spin`` degrees about its axis."""

    def rot(axis: int, degrees: float) -> np.ndarray:
        c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
        i, j = [(1, 2), (0, 2), (0, 1)][axis]
        m = np.eye(3)
        m[i, i], m[i, j], m[j, i], m[j, j] = c, -s, s, c
        return m

    down = np.array([[1.0, 0, 0], [0, -1, 0], [0, 0, -1]])  # image y toward the owner
    r = rot(2, spin) @ rot(0, tilt) @ down @ rot(2, azimuth)
    target = np.array([*aim, 0.0])
    centre = target - distance * r.T @ np.array([0.0, 0, 1])
    k = np.array([[1400.0, 0, 800], [0, 1400, 600], [0, 0, 1]])
    return k @ np.column_stack([r[:, 0], r[:, 1], -r @ centre])


def photo(
    layout: str, h: np.ndarray | None = None, seed: int = 0, jitter: float = 0.0, **kinds: str
) -> list[PhotoTile]:
    """The tiles of ``layout`` as a reader would give them through homography ``h``, shuffled,
    each corner moved at random by up to ``jitter`` of the tile's width; ``kinds`` maps a name
    to ``doubt`` to have it read unsure."""
    h = camera(0, 0, 0, 900) if h is None else h
    rng = np.random.default_rng(seed)
    tiles = []
    for name, corners in lay(layout):
        points = np.column_stack([corners, np.ones(4)]) @ h.T
        points = points[:, :2] / points[:, 2:]
        size = float(np.linalg.norm(points[1] - points[0]))
        points += rng.uniform(-jitter, jitter, points.shape) * size
        quad = tuple((float(x), float(y)) for x, y in points)
        unsure = kinds.get(name) == "doubt"
        alternatives = (("6p", 0.4),) if unsure else ()
        tiles.append(PhotoTile(name, quad, 0.45 if unsure else 0.97, alternatives))
    random.Random(seed).shuffle(tiles)
    return tiles


def kinds_of(hand: PhotoHand) -> list[tuple[str, str | None]]:
    return [(g.kind.value, g.notation) for g in hand.groups]


def test_one_row_with_melds_turned_and_the_winning_tile_apart() -> None:
    hand = read_hand(photo("1m 2m 3m 4p 5p 6p 9s _ 5p 5p* 5p _ E E* E _ 9s"))
    assert kinds_of(hand) == [
        ("concealed", "123m456p9s"),
        ("meld", "[555p<2]"),
        ("meld", "[EEE<2]"),
        ("apart", "9s"),
    ]
    assert hand.doubts == ()
    win = parse_tile("9s")
    assert hand.apart == win
    assert format_hand(hand.hand_for(win)) == "123m9s456p [555p<2] [EEE<2]"


@pytest.mark.parametrize(
    ("meld", "expected"),
    [
        ("1m* 2m 3m", "[123m<3]"),
        ("1m 2m* 3m", "[123m<2]"),
        ("1m 2m 3m*", "[123m<1]"),
        ("C* C C C", "[CCCC<3]"),
        ("C C* C C", "[CCCC<2]"),
        ("C C C* C", "[CCCC<2]"),
        ("C C C C*", "[CCCC<1]"),
    ],
)
def test_the_turned_tile_gives_the_source_seat(meld: str, expected: str) -> None:
    hand = read_hand(photo(f"{meld} | 4p 5p 6p 7s 8s 9s S S _ W W W"))
    assert (GroupKind.MELD.value, expected) in kinds_of(hand)
    assert hand.doubts == ()


@pytest.mark.parametrize("kong", ["back C C back", "C back back C", "back back back C"])
@pytest.mark.parametrize("backs_turned", [False, True])
def test_concealed_kongs_with_backs(kong: str, backs_turned: bool) -> None:
    """A back's quad may come a quarter turned (a back has no face to say which way is up)."""
    tiles = photo(f"{kong} _ 1m 2m 3m 4p 5p 6p 7s 8s 9s S _ S")
    if backs_turned:
        tiles = [
            replace(t, corners=t.corners[1:] + t.corners[:1]) if t.tile == "back" else t
            for t in tiles
        ]
    hand = read_hand(tiles)
    assert ("concealed_kong", "{CCCC}") in kinds_of(hand)
    assert hand.apart == parse_tile("S")
    assert hand.doubts == ()


def test_a_kong_all_face_down_is_counted_but_doubted() -> None:
    hand = read_hand(photo("back back back back _ 1m 2m 3m 4p 5p 6p 7s 8s 9s S _ S"))
    assert hand.face_down_kongs == 1
    assert [d.kind for d in hand.doubts] == ["face_down_kong"]


def test_flowers_anywhere_are_set_aside() -> None:
    hand = read_hand(photo("1f 2f _ 1m 2m 3m 4p 5p 6p 7s 8s 9s E E 3f _ C C* C | 5f"))
    assert [str(t) for t in sorted(hand.flowers)] == ["1f", "2f", "3f", "5f"]
    assert ("meld", "[CCC<2]") in kinds_of(hand)
    assert hand.doubts == ()
    assert all(str(t)[-1] != "f" for t in hand.concealed)


def test_two_rows_melds_in_front_concealed_behind() -> None:
    hand = read_hand(photo("1m* 2m 3m _ 5p 5p 5p* _ C C* C C | 4p 5p 6p 9s _ 9s"))
    assert len(hand.rows) == 2
    assert kinds_of(hand) == [
        ("meld", "[123m<3]"),
        ("meld", "[555p<1]"),
        ("meld", "[CCCC<2]"),
        ("concealed", "456p9s"),
        ("apart", "9s"),
    ]
    assert hand.doubts == ()


def test_a_set_in_the_meld_row_without_a_turned_tile_is_a_doubted_meld() -> None:
    hand = read_hand(photo("1m 2m 3m _ 5p 5p 5p* | 4p 5p 6p 7s 8s 9s 9s _ 9s"))
    assert ("meld", "[123m]") in kinds_of(hand)
    assert [d.kind for d in hand.doubts] == ["meld_not_turned"]


def test_a_flower_unsure_only_of_which_flower_it_is_is_no_doubt() -> None:
    tiles = photo("1f 3f _ 1m 2m 3m 4p 5p 6p 7s 8s 9s E E E C _ C")
    unsure = [replace(t, confidence=0.4, alternatives=(("7f", 0.35),)) for t in tiles]
    hand = read_hand(unsure)
    kinds = {hand.tiles[d.members[0]].tile for d in hand.doubts if d.kind == "doubted_tile"}
    assert kinds == {"1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "C"}
    assert len(hand.flowers) == 2


def test_a_doubted_tile_is_named_with_its_runner_up() -> None:
    hand = read_hand(photo("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E C _ C", C="doubt"))
    doubts = [d for d in hand.doubts if d.kind == "doubted_tile"]
    assert len(doubts) == 2 and "6p 0.40" in doubts[0].message
    assert all(hand.tiles[d.members[0]].tile == "C" for d in doubts)


def test_a_group_that_makes_no_meld_is_doubted() -> None:
    hand = read_hand(photo("1m 2m 3m 4p 5p 6p 7s 8s 9s E E _ C S* F"))
    assert "illegal_group" in [d.kind for d in hand.doubts]


def test_a_fifth_copy_and_a_short_hand_are_doubted() -> None:
    hand = read_hand(photo("5p 5p 5p 5p 6p 7p 8p _ 5p 5p* 5p"))
    kinds = [d.kind for d in hand.doubts]
    assert "fifth_copy" in kinds and "tile_count" in kinds
    assert any("10 tiles" in d.message for d in hand.doubts)


def test_a_back_among_the_concealed_tiles_is_doubted() -> None:
    hand = read_hand(photo("1m 2m 3m 4p back 6p 7s 8s 9s E E E C _ C"))
    assert "unexpected_back" in [d.kind for d in hand.doubts]


def test_no_winning_shape_is_doubted() -> None:
    hand = read_hand(photo("1m 3m 5m 4p 5p 6p 7s 8s 9s E E E C _ N"))
    assert [d.kind for d in hand.doubts] == ["no_winning_shape"]


def test_a_meld_touching_the_concealed_tiles_is_read_but_doubted() -> None:
    hand = read_hand(photo("C C* C 1m 2m 3m 4p 5p 6p 7s 8s 9s E _ E"))
    assert ("meld", "[CCC<2]") in kinds_of(hand)
    assert [d.kind for d in hand.doubts] == ["meld_touching"]


def test_four_of_a_kind_face_up_is_a_kong_when_the_count_needs_it() -> None:
    hand = read_hand(photo("1m 2m 3m 4p 5p 6p 7s 7s E E _ 9s 9s 9s 9s _ 7s"))
    assert ("concealed_kong", "{9999s}") in kinds_of(hand)
    assert [d.kind for d in hand.doubts] == ["four_as_kong"]


def test_tiles_away_from_the_hand_are_left_out_and_doubted() -> None:
    tiles = photo("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E C _ C")
    stray = PhotoTile("N", ((1500, 1100), (1530, 1100), (1530, 1140), (1500, 1140)), 0.9)
    hand = read_hand([*tiles, stray])
    assert [d.kind for d in hand.doubts] == ["outside"]
    assert hand.apart == parse_tile("C")


def test_no_tiles_reads_as_an_empty_short_hand() -> None:
    hand = read_hand([])
    assert hand.groups == () and [d.kind for d in hand.doubts] == ["tile_count"]


LAYOUTS = [
    "1m 2m 3m 4p 5p 6p 9s _ 5p 5p* 5p _ E E* E _ 9s",
    "1m* 2m 3m _ 5p 5p 5p* _ back C C back | 4p 5p 6p 9s _ 9s",
    "1f _ 2s 3s 4s 6m 7m 8m 9p 9p _ 7p* 8p 9p _ W W W* W | 2f",
]


VIEWS = st.tuples(st.floats(0, 360), st.floats(0, 45), st.floats(0, 360), st.floats(500, 1500))


@settings(max_examples=60, deadline=None)
@given(layout=st.sampled_from(LAYOUTS), view=VIEWS, seed=st.integers(0, 1000))
def test_reading_does_not_depend_on_turn_tilt_or_order(
    layout: str, view: tuple[float, float, float, float], seed: int
) -> None:
    """Spin, tilt (up to 45 degrees), side and distance of the camera, the order the tiles come
    in and a reader's jitter of the corners (3 % of a tile's width) change nothing."""
    expected = read_hand(photo(layout))
    hand = read_hand(photo(layout, camera(*view), seed, jitter=0.03))
    assert kinds_of(hand) == kinds_of(expected)
    assert hand.doubts == expected.doubts == ()
    assert [[hand.tiles[i].tile for i in row] for row in hand.rows] == [
        [expected.tiles[i].tile for i in row] for row in expected.rows
    ]
