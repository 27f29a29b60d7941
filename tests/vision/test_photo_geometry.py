"""The photo reader's geometry: oriented boxes, their suppression, upright quads and crops."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.photo import PhotoTile, box_corners, upright_quads, warp_crop
from vision.photo_boxes import _suppress, rectangle_corners


@given(
    st.floats(50, 500),
    st.floats(50, 500),
    st.floats(5, 80),
    st.floats(5, 80),
    st.floats(0, math.pi),
)
def test_rectangle_corners_match_opencv(x: float, y: float, w: float, h: float, r: float) -> None:
    ours = rectangle_corners(np.array([[x, y, w, h, r]]))[0]
    theirs = cv2.boxPoints(((x, y), (w, h), math.degrees(r)))
    distances = np.linalg.norm(ours[:, None, :] - theirs[None, :, :], axis=2)
    assert distances.min(axis=1).max() < 1e-2  # the same four points, in some order


def test_suppression_keeps_the_best_of_a_tile_seen_twice_and_both_neighbours() -> None:
    rows = np.array(
        [
            [100, 100, 30, 40, 0.3, 0.9, 0],
            [101, 100, 31, 40, 0.31, 0.6, 0],  # the same tile found at another level
            [131, 116, 30, 40, 0.3, 0.8, 1],  # its neighbour along the row, touching
        ]
    )
    kept = _suppress(rows)
    assert [round(b.score, 2) for b in kept] == [0.9, 0.8]
    assert [b.back for b in kept] == [False, True]


@settings(max_examples=60)
@given(st.floats(0, 2 * math.pi), st.floats(1.25, 1.6))
def test_upright_quads_stand_the_long_side_up(turn: float, ratio: float) -> None:
    corners = rectangle_corners(np.array([[200, 200, 30, 30 * ratio, turn]]))[0]
    (quad,) = upright_quads(corners)
    top, bottom = (quad[0] + quad[1]) / 2, (quad[3] + quad[2]) / 2
    assert np.linalg.norm(quad[1] - quad[0]) == pytest.approx(30, abs=1e-6)  # across: short
    assert np.linalg.norm(top - bottom) == pytest.approx(30 * ratio, abs=1e-6)
    assert top[1] <= bottom[1] + 1e-9  # "up" points up the image; upside down is the reader's


def test_a_nearly_square_box_is_read_both_ways_round() -> None:
    corners = rectangle_corners(np.array([[200, 200, 30, 33, 0.2]]))[0]
    first, second = upright_quads(corners)
    assert not np.allclose(first, second)
    assert {tuple(p) for p in np.round(first, 6)} == {tuple(p) for p in np.round(second, 6)}


def test_warp_crop_cuts_the_quad_upright_at_the_size_asked() -> None:
    image = np.zeros((200, 200, 3), np.uint8)
    image[50:90, 60:90] = (0, 0, 255)  # red top half of a face
    image[90:130, 60:90] = (255, 0, 0)  # blue bottom half
    upright = np.array([[60, 50], [90, 50], [90, 130], [60, 130]], np.float32)
    crop = warp_crop(image, upright, (36, 48))
    assert crop.shape == (48, 36, 3)
    assert crop[8, 18, 2] > 200 and crop[40, 18, 0] > 200
    flipped = warp_crop(image, np.roll(upright, 2, axis=0), (36, 48))
    assert flipped[8, 18, 0] > 200 and flipped[40, 18, 2] > 200


def test_box_corners_follow_the_face_turn() -> None:
    tile = PhotoTile("5p", box_corners((0, 0, 20, 30), 0), 0.9)
    assert tile.up == pytest.approx((0, -1))
    turned = PhotoTile("5p", box_corners((0, 0, 30, 20), 90), 0.9)  # face's top to the left
    assert turned.up == pytest.approx((-1, 0))
    assert turned.width == pytest.approx(20) and turned.height == pytest.approx(30)
    assert PhotoTile("5p", box_corners((0, 0, 20, 30), 180), 0.9).up == pytest.approx((0, 1))


@pytest.mark.parametrize("orientation", [0, 90, 180, 270])
def test_a_tiles_angle_and_orientation_follow_its_corners(orientation: int) -> None:
    tile = PhotoTile("7m", box_corners((10, 10, 50, 50), orientation), 0.9)
    assert tile.orientation == orientation
    assert tile.angle == pytest.approx(orientation)
    assert tile.to_dict()["orientation"] == orientation


def test_a_box_over_two_tiles_halves_and_a_box_inside_another_are_dropped() -> None:
    rows = np.array(
        [
            [100, 100, 30, 40, 0.0, 0.9, 0],  # a tile
            [130, 100, 30, 40, 0.0, 0.85, 0],  # the tile beside it
            [115, 100, 30, 40, 0.0, 0.95, 0],  # a box over both tiles' halves, scoring best
            [131, 101, 12, 16, 0.0, 0.5, 0],  # a small box inside the second tile
        ]
    )
    kept = _suppress(rows)
    centres = sorted(tuple(np.round(b.corners.mean(axis=0))) for b in kept)
    assert centres == [(100, 100), (130, 100)]


def test_a_grown_quad_keeps_its_centre_and_turn_and_shifts_along_the_tile() -> None:
    from vision.photo import GEOMETRIES, grown_quad, reading_quads

    quad = upright_quads(rectangle_corners(np.array([[50.0, 40.0, 20.0, 30.0, 0.4]]))[0])[0]
    assert np.allclose(grown_quad(quad, 1.0, 1.0, 0.0), quad)  # the first geometry is the box
    assert GEOMETRIES[0] == (1.0, 1.0, 0.0)
    big = grown_quad(quad, 1.2, 1.1, 0.0)
    assert np.allclose(big.mean(axis=0), quad.mean(axis=0))
    length = np.linalg.norm(quad[0] - quad[3])
    width = np.linalg.norm(quad[1] - quad[0])
    assert np.isclose(np.linalg.norm(big[0] - big[3]), 1.2 * length)
    assert np.isclose(np.linalg.norm(big[1] - big[0]), 1.1 * width)
    up = (quad[0] + quad[1]) / 2 - (quad[3] + quad[2]) / 2
    moved = grown_quad(quad, 1.0, 1.0, 0.1).mean(axis=0) - quad.mean(axis=0)
    assert np.allclose(moved, 0.1 * up)  # a tenth of its length toward its top
    square = rectangle_corners(np.array([[0.0, 0.0, 20.0, 21.0, 0.0]]))[0]
    assert len(reading_quads(square, 1.15, 1.08, 0.0)) == len(upright_quads(square)) == 2


@settings(max_examples=40, deadline=None)
@given(st.floats(-0.6, 0.6), st.floats(1.3, 1.6))
def test_a_box_crop_shows_the_tile_as_it_is_never_mirrored(turn: float, ratio: float) -> None:
    """A face marked in its top-left corner, turned in the photo and found as a rotated box:
    the crop has the mark top left (a ring run the wrong way round warps to a mirror image,
    which read 3m as 1s and every wind as another until 2026-12-07)."""
    w, h = 40, 40 * ratio
    face = np.full((round(h), w, 3), 255, np.uint8)
    face[: round(h / 3), : w // 3] = 0  # the mark: top left
    image = np.full((300, 300, 3), 128, np.uint8)
    cos, sin = math.cos(turn), math.sin(turn)
    rotate = np.array([[cos, -sin], [sin, cos]])
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) - [w / 2, h / 2]
    placed = corners @ rotate.T + [150, 150]
    matrix = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [w, 0], [w, round(h)], [0, round(h)]]), placed.astype(np.float32)
    )
    cv2.warpPerspective(face, matrix, (300, 300), image, borderMode=cv2.BORDER_TRANSPARENT)
    box = rectangle_corners(np.array([[150, 150, w, h, turn]]))[0]
    crop = warp_crop(image, upright_quads(box)[0], (36, 48), pad=0.0)
    quarter = crop.reshape(2, 24, 2, 18, 3).mean(axis=(1, 3, 4))  # the four quarters' brightness
    assert quarter[0, 0] < min(quarter[0, 1], quarter[1, 0], quarter[1, 1]) - 60


def test_a_weak_box_is_reported_only_when_a_sure_reading_vouches_for_it() -> None:
    corners = box_corners((0, 0, 30, 40), 0)
    sure_face_weak_box = PhotoTile("5p", corners, 0.22 * 0.97, box_score=0.22)
    unsure_face_weak_box = PhotoTile("5p", corners, 0.22 * 0.8, box_score=0.22)
    too_weak_box = PhotoTile("5p", corners, 0.15 * 0.99, box_score=0.15)
    a_back = PhotoTile("back", corners, 0.25 * 0.99, box_score=0.25)
    strong = PhotoTile("5p", corners, 0.5, box_score=0.9)
    assert sure_face_weak_box.reported() and sure_face_weak_box.doubted
    assert not unsure_face_weak_box.reported()
    assert not too_weak_box.reported()
    assert not a_back.reported()
    assert strong.reported() and not strong.vouched
    half_seen = PhotoTile("5p", corners, 0.22 * 0.97, box_score=0.22, cut_off=True)
    assert not half_seen.vouched and not half_seen.reported()


def test_a_flower_unsure_which_but_sure_it_is_a_flower_is_reported_doubted() -> None:
    corners = box_corners((0, 0, 30, 40), 0)
    seasons = (("5f", 0.3), ("6f", 0.2))
    flower = PhotoTile("8f", corners, 0.7 * 0.45, seasons, box_score=0.7)
    assert abs(flower.flower_probability - 0.95) < 1e-9
    assert flower.reported() and flower.doubted
    maybe_bamboo = PhotoTile("8f", corners, 0.7 * 0.45, (("1s", 0.3), ("6f", 0.1)), box_score=0.7)
    assert not maybe_bamboo.reported()  # 0.7 x 0.55 < 0.4
    not_a_flower = PhotoTile("1s", corners, 0.7 * 0.45, seasons, box_score=0.7)
    assert not_a_flower.flower_probability == 0.0 and not not_a_flower.reported()


def test_doubt_is_the_readings_and_the_boxs_apart_not_their_product() -> None:
    """A sure face on a box the detector scores 0.55 (a rack's standing tile) is no doubt; a
    box under 0.4, a reading under 0.6 or a runner-up close behind the reading is."""
    corners = box_corners((0, 0, 30, 40), 0)
    rack_tile = PhotoTile("5p", corners, 0.55 * 0.99, box_score=0.55)
    assert rack_tile.probability == pytest.approx(0.99) and not rack_tile.doubted
    assert PhotoTile("5p", corners, 0.35 * 0.99, box_score=0.35).doubted
    assert PhotoTile("5p", corners, 0.9 * 0.5, box_score=0.9).doubted
    close = PhotoTile("5p", corners, 0.9 * 0.7, (("6p", 0.5),), box_score=0.9)
    far = PhotoTile("5p", corners, 0.9 * 0.7, (("6p", 0.3),), box_score=0.9)
    assert close.doubted and not far.doubted
    assert PhotoTile("5p", corners, 0.99, cut_off=True).doubted


@pytest.mark.parametrize(
    ("box", "cut"),
    [
        ((10, 10, 40, 50), False),
        ((-2, 10, 28, 50), False),
        ((-8, 10, 22, 50), True),
        ((80, 70, 110, 110), True),
        ((70, 55, 100, 95), False),
    ],
)
def test_a_tile_the_photos_edge_cuts_off_is_marked(box: tuple, cut: bool) -> None:
    from vision.photo import _cut_off

    quad = np.asarray(box_corners(box, 0), np.float64)
    assert _cut_off(quad, (100, 100, 3)) is cut
