"""The tuning benchmarks' error counts: misread and unboxed tiles told apart."""

from __future__ import annotations

from models.evaluation.metrics import Sample, reading_errors

NAMES = ["1m", "2m", "3m"]


def test_unboxed_tiles_are_counted_apart_from_misread_ones() -> None:
    truth = [("1m", (0, 0, 10, 14)), ("2m", (20, 0, 30, 14)), ("3m", (40, 0, 50, 14))]
    predicted = [
        ("1m", (0, 0, 10, 14), 0.9),  # right
        ("3m", (20, 0, 30, 14), 0.8),  # boxed, wrong kind
        ("2m", (80, 0, 90, 14), 0.9),  # over no tile: false
    ]
    read = reading_errors([Sample(truth, predicted)], NAMES)
    assert (read.errors, read.unboxed, read.faint, read.false) == (2, 1, 0, 1)  # 3m: no box
    assert read.wrong == 1
    assert dict(read.under) == {"2m": 0.0, "3m": 0.0}
    unsure = [*predicted, ("3m", (40, 0, 50, 14), 0.2)]  # boxed, under the confidence
    read = reading_errors([Sample(truth, unsure)], NAMES)
    assert (read.errors, read.unboxed, read.faint, read.false) == (2, 0, 1, 1)


def test_false_faces_are_told_from_false_backs() -> None:
    names = [*NAMES, "back"]
    truth = [("1m", (0, 0, 10, 14))]
    predicted = [
        ("1m", (0, 0, 10, 14), 0.9),
        ("back", (40, 0, 50, 14), 0.9),  # a wall tile the labels left out
        ("2m", (80, 0, 90, 14), 0.9),  # a face where there is none
        ("3m", (120, 0, 130, 14), 0.1),  # under the confidence: not counted
    ]
    read = reading_errors([Sample(truth, predicted)], names)
    assert (read.false, read.false_faces) == (2, 1)
