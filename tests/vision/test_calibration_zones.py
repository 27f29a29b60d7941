"""Calibration math, ArUco corners, and zone / river-slot assignment."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.drawn.dataset import random_spec
from vision.calibration import Calibration, CalibrationError
from vision.layout import from_table, layout, to_table
from vision.zones import place_of, seat_of

CORNERS = ((412.0, 98.0), (1501.0, 130.0), (1480.0, 1010.0), (396.0, 985.0))


def test_homography_maps_corners_and_round_trips() -> None:
    calibration = Calibration(CORNERS)
    unit = calibration.to_table(np.array(CORNERS))
    assert np.allclose(unit, [[0, 0], [1, 0], [1, 1], [0, 1]], atol=1e-9)
    points = np.random.default_rng(0).uniform(0, 1, (50, 2))
    assert np.allclose(calibration.to_table(calibration.to_image(points)), points, atol=1e-9)
    centre = calibration.to_image(np.array([[0.5, 0.5]]))[0]
    assert 900 < centre[0] < 1000 and 500 < centre[1] < 600


def test_calibration_json_round_trip_and_errors() -> None:
    calibration = Calibration(CORNERS)
    assert Calibration.from_json(calibration.to_json()) == calibration
    with pytest.raises(CalibrationError, match="not a calibration"):
        Calibration.from_json('{"corner": []}')
    with pytest.raises(CalibrationError, match="need 4 corners"):
        Calibration(((0.0, 0.0), (1.0, 0.0), (1.0, 1.0)))
    with pytest.raises(CalibrationError, match="no table"):
        Calibration(((5.0, 5.0),) * 4)


def test_aruco_markers_give_the_table_corners() -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    image = np.full((700, 900, 3), 255, np.uint8)
    size, places = 100, [(50, 40), (750, 40), (750, 560), (50, 560)]
    for marker, (x, y) in enumerate(places):
        tag = cv2.aruco.generateImageMarker(dictionary, marker, size)
        image[y : y + size, x : x + size] = cv2.cvtColor(tag, cv2.COLOR_GRAY2BGR)
    calibration = Calibration.from_aruco(image)
    expected = [(50, 40), (850, 40), (850, 660), (50, 660)]
    assert np.allclose(np.array(calibration.corners), expected, atol=2.0)
    with pytest.raises(CalibrationError, match=r"\[3\] not found"):
        Calibration.from_aruco(_without_marker(image, 3, places))


def _without_marker(image: np.ndarray, marker: int, places: list[tuple[int, int]]) -> np.ndarray:
    out = image.copy()
    x, y = places[marker]
    out[y : y + 100, x : x + 100] = 255
    return out


@given(st.integers(0, 3), st.floats(-0.5, 0.5), st.floats(-0.5, 0.5))
def test_seat_frames_invert(seat: int, u: float, v: float) -> None:
    x, y = to_table(seat, u, v)
    assert np.allclose(from_table(seat, x, y), (u, v))


def test_every_laid_out_tile_is_found_in_its_zone_and_slot() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        for spot in layout(random_spec(rng)):
            place = place_of(*spot.centre)
            assert place.seat == spot.seat
            expected = {"river": "river", "wall": "wall", "meld": "hand_row", "hand": "hand_row"}
            assert place.zone == expected[spot.zone], spot
            if spot.zone == "river":
                assert (place.row, place.column) == spot.slot


def test_river_order_follows_position_for_every_seat() -> None:
    from vision.layout import river_slot_centre

    for seat in range(4):
        order = [place_of(*river_slot_centre(seat, r, c)) for r in range(4) for c in range(6)]
        assert [(p.row, p.column) for p in order] == [(r, c) for r in range(4) for c in range(6)]
        assert {seat_of(*river_slot_centre(seat, r, c)) for r in range(4) for c in range(6)} == {
            seat
        }
