"""A photographed hand among the game's other tiles: loose tiles and far flowers lying around a
hand are left out of it (vision.hand_photo; synthetic quads, no model)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from tests.vision.test_hand_photo import kinds_of, photo
from vision.hand_photo import read_hand
from vision.photo import PhotoTile


def _loose(near: PhotoTile, name: str, dx: float, dy: float, degrees: float) -> PhotoTile:
    """A tile like ``near`` moved by (dx, dy) of its width and height and turned ``degrees``:
    one of the game's other tiles lying loose on the table."""
    q = near.quad
    centre = q.mean(axis=0) + np.array([dx * near.width, dy * near.height])
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    turned = (q - q.mean(axis=0)) @ np.array([[c, s], [-s, c]]) + centre
    return PhotoTile(name, tuple((float(x), float(y)) for x, y in turned), 0.45, (("3s", 0.3),))


def test_loose_tiles_behind_a_whole_row_stay_apart_and_their_readings_are_no_doubt() -> None:
    tiles = photo("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E C C")
    first = next(t for t in tiles if t.tile == "4p")
    loose = [_loose(first, n, 0.8 * k, -1.6, 25 + 20 * k) for k, n in enumerate(["N", "S", "W"])]
    hand = read_hand([*tiles, *loose])
    assert len(hand.rows) == 1 and len(hand.rows[0]) == 14
    assert [d.kind for d in hand.doubts] == ["outside"]  # not "doubted_tile" for each loose one
    assert ("outside", "NSW") in kinds_of(hand)


def test_loose_tiles_at_angles_are_no_meld_row_beside_a_short_one() -> None:
    tiles = photo("1m 2m 3m 4p 5p 6p 7s 8s 9s E E")
    first = next(t for t in tiles if t.tile == "4p")
    loose = [_loose(first, "C", 1.1 * k, -1.5, 30.0) for k in range(3)]
    hand = read_hand([*tiles, *loose])
    assert len(hand.rows) == 1
    assert ("outside", "CCC") in kinds_of(hand)


def test_a_flower_away_from_the_hand_is_not_counted_and_doubted() -> None:
    tiles = photo("1f 1m 2m 3m 4p 5p 6p 7s 8s 9s E E E C C")
    first = next(t for t in tiles if t.tile == "1m")
    away = replace(_loose(first, "6f", 6.0, -6.0, 40.0), confidence=0.97, alternatives=())
    hand = read_hand([*tiles, away])
    assert [str(t) for t in hand.flowers] == ["1f"]
    assert sorted(d.kind for d in hand.doubts) == ["flower_away", "outside"]


def test_a_hand_laid_as_a_block_of_short_lines_is_one_concealed_hand() -> None:
    """A sorted hand photographed as a block, a set to a line (1m2m3m / 1m2m3m / 5m6m7m /
    6m7m8m / CC), flowers beside it: no line is taken for a meld (none has a turned tile)."""
    block = "1m 2m 3m | 1m 2m 3m | 5m 6m 7m | 6m 7m 8m | C C 3f"
    hand = read_hand(photo(block, jitter=0.03))
    assert len(hand.rows) == 1 and len(hand.rows[0]) == 14
    assert hand.melds == () and [str(t) for t in hand.flowers] == ["3f"]
    assert sorted(str(t) for t in hand.concealed) == sorted(
        ["1m", "1m", "2m", "2m", "3m", "3m", "5m", "6m", "6m", "7m", "7m", "8m", "C", "C"]
    )
    assert not [d for d in hand.doubts if d.kind in ("meld_not_turned", "outside")]


def test_two_short_lines_are_no_block() -> None:
    hand = read_hand(photo("1m 2m 3m | 4p 5p 6p"))
    assert len(hand.rows) == 2  # a meld row in front and the concealed row behind, as before
