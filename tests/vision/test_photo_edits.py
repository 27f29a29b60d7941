"""A photographed hand that is no win as read, edited to the likeliest win: a weak box taken for
no tile, two doubted tiles read as their runners-up (vision/photo_alternatives.py; synthetic
quads, no model)."""

from __future__ import annotations

from dataclasses import replace

from engine.notation import parse_hand, parse_tile
from engine.rulesets import WinRequest, find_rules
from tests.vision.test_hand_photo import photo
from tests.vision.test_score_photo import EXPECTED, HAND
from vision.photo import PhotoTile
from vision.photo_alternatives import likeliest_edits, score_photo_tiles
from vision.photo_score import ScoredPhoto

BASE = WinRequest(parse_hand(""), parse_tile("1m"), flowers=1)


def _score(tiles: list[PhotoTile]) -> ScoredPhoto:
    return score_photo_tiles(tiles, None, BASE, find_rules("mcr"))


def _with_extra_box(tiles: list[PhotoTile], name: str, box_score: float) -> list[PhotoTile]:
    """``tiles`` and a box beside the 9s laid apart, read surely as ``name`` on a weak box (the
    side of a turned tile read as a face)."""
    apart = next(t for t in tiles if t.tile == "9s")
    moved = tuple((x + 0.6 * apart.width, y) for x, y in apart.corners)
    extra = PhotoTile(name, moved, 0.97 * box_score, (), box_score=box_score)
    return [*tiles, extra]


def test_a_weak_box_that_breaks_the_win_is_dropped_named_and_kept_for_the_picture() -> None:
    tiles = _with_extra_box(photo(HAND), "7s", 0.22)
    scored = _score(tiles)
    assert scored.result.valid and scored.notation == EXPECTED
    assert scored.provisional
    (note,) = [d for d in scored.doubts if d.kind == "dropped_box"]
    assert "7s" in note.message
    assert [t.tile for t in scored.dropped] == ["7s"]
    assert scored.to_json()["dropped"][0]["tile"] == "7s"


def test_a_strong_box_is_never_dropped() -> None:
    tiles = _with_extra_box(photo(HAND), "7s", 0.9)
    scored = _score(tiles)
    assert not scored.result.valid and not scored.dropped
    assert all(edit.name is not None for group in likeliest_edits(tiles) for edit in group)


def test_two_doubted_misreads_are_both_read_as_their_runners_up() -> None:
    misread = HAND.replace("1m 2m 3m", "1m 2m 8p").replace("4p 5p 6p", "4p 5p 7s")
    tiles = photo(misread)
    tiles = [_doubted(t, "3m") if t.tile == "8p" else t for t in tiles]
    tiles = [_doubted(t, "6p") if t.tile == "7s" else t for t in tiles]
    scored = _score(tiles)
    assert scored.result.valid and scored.notation == EXPECTED
    changed = sorted(d.message for d in scored.doubts if d.kind == "read_as_runner_up")
    assert len(changed) == 2
    assert "7s read as 6p" in changed[0] and "8p read as 3m" in changed[1]
    named = [d.members for d in scored.doubts if d.kind == "read_as_runner_up"]
    assert sorted(scored.reading.tiles[i].tile for (i,) in named) == ["3m", "6p"]


def test_edits_are_tried_likeliest_first_and_a_change_beats_an_unlikely_drop() -> None:
    tiles = [_doubted(t, "6p") if t.tile == "7s" else t for t in photo(HAND.replace("6p", "7s"))]
    tiles = _with_extra_box(tiles, "E", 0.38)  # a box nearly sure: dropping it is unlikely
    groups = likeliest_edits(tiles)
    odds = [_odds(group) for group in groups]
    assert odds == sorted(odds, reverse=True)
    assert groups[0][0].name == "6p"


def _doubted(tile: PhotoTile, runner_up: str) -> PhotoTile:
    return replace(tile, confidence=0.45, alternatives=((runner_up, 0.4),))


def _odds(group: tuple) -> float:
    product = 1.0
    for edit in group:
        product *= edit.odds
    return product


def test_a_doubted_reading_on_a_sure_box_may_be_taken_for_no_tile() -> None:
    """A tile cut off by the photo's edge (another player's) reads unsure on a box the detector
    is sure of: when the hand with it is no win, it may be dropped, named, and never final."""
    tiles = _with_extra_box(photo(HAND), "7s", 0.9)
    tiles[-1] = replace(tiles[-1], confidence=0.3, alternatives=(("8s", 0.2),))
    scored = _score(tiles)
    assert scored.result.valid and scored.notation == EXPECTED
    assert scored.provisional and [t.tile for t in scored.dropped] == ["7s"]
    assert any(d.kind == "dropped_box" for d in scored.doubts)
