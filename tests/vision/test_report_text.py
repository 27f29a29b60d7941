"""The evaluation report's per-class table and its recall intervals."""

from __future__ import annotations

import pytest

from models.evaluation.metrics import wilson_interval
from models.evaluation.report_text import report_markdown


def test_wilson_interval_brackets_the_share_and_narrows_with_more_tiles() -> None:
    low, high = wilson_interval(60, 62)
    assert low < 60 / 62 < high
    assert low < 0.98 < high  # two misses in 62 tiles: not under 0.98 for sure
    wide = high - low
    low, high = wilson_interval(600, 620)
    assert high - low < wide / 2
    assert high < 0.98  # the same share over ten times the tiles is under for sure
    assert wilson_interval(5, 5)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 5)[0] == pytest.approx(0.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def _scenes(**extra: object) -> dict:
    scenes = {
        "frames": 2,
        "truth_tiles": 162,
        "map50": 0.99,
        "map50_95": 0.7,
        "missed": 1,
        "false_detections": 0,
        "orientation_accuracy": 1.0,
        "seconds_per_frame": 0.04,
        "ap50": {"1m": 1.0, "3f": 0.98},
        "recall": {"1m": 1.0, "3f": 60 / 62},
    }
    return scenes | extra


def test_report_names_the_classes_under_target_with_counts_and_intervals() -> None:
    text = report_markdown(_scenes(class_tiles={"1m": 100, "3f": 62}), None, None)
    assert "Classes with recall >= 0.98: 1 of 2 (under: 3f 0.968)." in text
    row = next(line for line in text.splitlines() if line.startswith("| 3f |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[3:5] == ["62", "2"]
    low, high = (float(x) for x in cells[5].split("-"))
    assert (low, high) == pytest.approx(wilson_interval(60, 62), abs=5e-4)


def test_an_older_metrics_file_without_tile_counts_still_reports() -> None:
    text = report_markdown(_scenes(), None, None)
    assert "| 3f | 0.980 | 0.968 |" in text
    assert "interval" not in text


def test_report_tells_a_class_under_target_by_chance_from_one_under_for_sure() -> None:
    by_chance = report_markdown(_scenes(class_tiles={"1m": 100, "3f": 62}), None, None)
    low = wilson_interval(60, 62)[0]
    assert f"lies under 0.98: none; the lowest interval starts at {low:.3f} (3f)." in by_chance
    many = _scenes(recall={"1m": 1.0, "3f": 600 / 620}, class_tiles={"1m": 100, "3f": 620})
    assert "lies under 0.98: 3f;" in report_markdown(many, None, None)
