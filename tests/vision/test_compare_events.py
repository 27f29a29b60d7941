"""The scripted-video scoring (evaluation part 3) counts concealed kongs like other events."""

from __future__ import annotations

from models.evaluation.evaluate_video import compare_events


def test_concealed_kongs_are_scored_missed_wrong_and_in_order() -> None:
    truth: list[dict[str, object]] = [
        {"type": "discard", "seat": 0, "tile": "1m"},
        {"type": "concealed_kong", "seat": 1, "tile": "5p"},
        {"type": "discard", "seat": 1, "tile": "E"},
        {"type": "concealed_kong", "seat": 2, "tile": "C"},
        {"type": "discard", "seat": 2, "tile": "9s"},
    ]
    seen: list[dict[str, object]] = [
        {"type": "discard", "seat": 0, "tile": "1m"},
        {"type": "discard", "seat": 1, "tile": "E"},
        {"type": "concealed_kong", "seat": 1, "tile": "5p"},  # read after its seat's discard
        {"type": "concealed_kong", "seat": 2, "tile": "F"},  # a wrong tile
        {"type": "discard", "seat": 2, "tile": "9s"},
        {"type": "river_taken", "seat": 0, "tile": "1m"},  # not compared
    ]
    result = compare_events(truth, seen)
    assert (result["true_events"], result["read_events"]) == (5, 5)
    assert (result["missed"], result["false"], result["wrong_tile"]) == (0, 0, 1)
    assert (result["in_order"], result["wrong_order"]) == (3, 1)


def test_face_down_kongs_are_compared_by_seat_and_order() -> None:
    truth: list[dict[str, object]] = [
        {"type": "face_down_kong", "seat": 3},
        {"type": "discard", "seat": 3, "tile": "2s"},
        {"type": "face_down_kong", "seat": 0},
    ]
    seen: list[dict[str, object]] = [
        {"type": "face_down_kong", "seat": 3, "frame": 9},
        {"type": "discard", "seat": 3, "tile": "2s", "frame": 9},
        {"type": "face_down_kong", "seat": 1, "frame": 30},  # the wrong seat: invented
    ]
    result = compare_events(truth, seen)
    assert (result["true_events"], result["read_events"], result["in_order"]) == (3, 3, 2)
    assert (result["missed"], result["false"], result["wrong_tile"]) == (1, 1, 0)
