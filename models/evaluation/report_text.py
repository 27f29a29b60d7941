"""The evaluation report's text (report.md), from the figures in metrics.json.

python -m models.evaluation.report_text models/report   # rewrite report.md from its metrics.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from models.art.faces import class_names
from models.evaluation.evaluate_real import real_lines
from models.evaluation.metrics import wilson_interval

RECALL_TARGET = 0.98


def _intervals(recall: dict, tiles: dict) -> dict[str, tuple[int, int, float, float]]:
    """Per class with a tile count: (hits, true tiles, and the recall's 95 % interval)."""
    out = {}
    for name, total in tiles.items():
        if name in recall:
            hits = round(recall[name] * total)  # recall is hits / total
            out[name] = (hits, total, *wilson_interval(hits, total))
    return out


def _class_table(scenes: dict, names: list[str]) -> list[str]:
    """Per-class AP50 and recall; with tile counts (newer metrics.json) their 95 % intervals."""
    tiles = scenes.get("class_tiles", {})
    recall = scenes["recall"]
    under = [n for n in names if n in recall and recall[n] < RECALL_TARGET]
    shown = [n for n in names if n in recall]
    lines = [
        "",
        f"Classes with recall >= {RECALL_TARGET}: {len(shown) - len(under)} of {len(shown)}"
        + (f" (under: {', '.join(f'{n} {recall[n]:.3f}' for n in under)})" if under else "")
        + ".",
    ]
    intervals = _intervals(recall, tiles)
    lines += _interval_summary(intervals)
    header = ["class", "AP50", "recall"]
    if tiles:
        header += ["true tiles", "not read", "recall 95 % interval"]
    lines += ["", "| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for name in names:
        if name not in scenes["ap50"] or (tiles and name not in tiles):
            continue
        cells = [name, f"{scenes['ap50'][name]:.3f}", f"{recall.get(name, 0):.3f}"]
        if tiles:
            hits, total, low, high = intervals.get(name, (0, tiles[name], 0.0, 1.0))
            cells += [str(total), str(total - hits), f"{low:.3f}-{high:.3f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _interval_summary(intervals: dict[str, tuple[int, int, float, float]]) -> list[str]:
    """Which classes are under the target for sure (their whole 95 % interval is), and the
    lowest interval's start: a recall a tile or two under the target over a few hundred tiles
    can be chance, one whose interval lies under it is not."""
    if not intervals:
        return []
    sure = [n for n, (*_, high) in intervals.items() if high < RECALL_TARGET]
    lowest = min(intervals, key=lambda n: intervals[n][2])
    return [
        "",
        f"Classes whose whole 95 % interval lies under {RECALL_TARGET}: "
        + (", ".join(sure) if sure else "none")
        + f"; the lowest interval starts at {intervals[lowest][2]:.3f} ({lowest}).",
    ]


def report_markdown(
    scenes: dict,
    crops: dict | None,
    video: dict | None,
    hands: dict | None = None,
    tables: dict | None = None,
    *,
    national: dict | None = None,
) -> str:
    """report.md for the five parts' figures (as written to metrics.json)."""
    names = class_names()
    lines = [
        "# Vision evaluation",
        "",
        "Written by `python -m models.evaluation.evaluate`; see docs/vision.md for what each"
        " figure means.",
        "",
        "## Held-out rendered tables",
        "",
        f"- frames: {scenes['frames']}, true tiles: {scenes['truth_tiles']}",
        f"- mAP50 {scenes['map50']:.4f}, mAP50-95 {scenes['map50_95']:.4f}",
        f"- missed {scenes['missed']}, false detections {scenes['false_detections']} "
        "(confidence >= 0.3)",
        f"- orientation accuracy of correctly read faces: {scenes['orientation_accuracy']:.4f}",
        f"- median seconds per frame (rectify + detect + classify): "
        f"{scenes['seconds_per_frame']:.3f}",
    ]
    if "baseline" in scenes:
        b = scenes["baseline"]
        lines.append(
            f"- mahjong-detector 0.0.6 on the same frames (34 kinds, whole frame): "
            f"mAP50 {b['map50']:.4f}, mAP50-95 {b['map50_95']:.4f}, "
            f"{b['seconds_per_frame']:.3f} s per frame"
        )
    lines += _class_table(scenes, names)
    lines += ["", "Confusion matrix (rows true, columns predicted): `confusion.png`.", ""]
    lines += real_lines(crops, tables)
    lines += _hands("Complete engine hands", hands)
    lines += _hands(
        "Complete national hands (144 tiles with flowers, kongs face down, MCR scoring)", national
    )
    if video:
        extra = {
            "with_concealed_kongs": "concealed kongs (end tiles face down)",
            "with_face_down_kongs": "concealed kongs laid all face down (national rules)",
        }
        lines += ["## Rendered video of a scripted hand", ""]
        lines += [f"- {k}: {v}" for k, v in video.items() if k not in extra]
        for name, title in extra.items():
            if video.get(name):
                lines += ["", f"## The same with {title}", ""]
                lines += [f"- {k}: {v}" for k, v in video[name].items()]
    return "\n".join(lines) + "\n"


def _hands(title: str, hands: dict | None) -> list[str]:
    """The section for part 3b (models/evaluation/evaluate_hands.py) and its camera scoring."""
    if not hands:
        return []
    lines = [f"## {title}, rendered at 1920x1080 (seed {hands['seed']})", ""]
    skip = ("per_hand", "seed", "camera_scoring", "procedure")
    lines += [f"- {k}: {v}" for k, v in hands.items() if k not in skip]
    for hand in hands["per_hand"]:
        warnings = "; ".join(hand["warnings"]) or "all read"
        lines.append(f"- hand {hand['hand']}: {hand['seen']}/{hand['expected']}: {warnings}")
    lines.append("")
    return lines + _camera_scoring(hands.get("camera_scoring"))


def _camera_scoring(scoring: dict | None) -> list[str]:
    """The section for part 3c (models/evaluation/camera_scoring.py)."""
    if not scoring:
        return []
    return [
        "## Wins scored from the camera alone (the same hands)",
        "",
        "Each winner lays its hand face up; the reader's events drive a camera-only table",
        "(no draw or concealed tile known), whose win is compared with the truth's.",
        "",
        f"- same winner, fans, total and payments: {scoring['scored_same']}/{scoring['hands']}",
        f"- alerts raised on the camera-only table (all false): {scoring['false_alerts']}",
        *(f"- {line}" for line in scoring["per_hand"]),
        "",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("report", type=Path, help="a folder holding metrics.json")
    folder = parser.parse_args().report
    metrics = json.loads((folder / "metrics.json").read_text())
    text = report_markdown(
        metrics["rendered"],
        metrics.get("real_crops"),
        metrics.get("video"),
        metrics.get("engine_hands"),
        metrics.get("real_tables"),
        national=metrics.get("national_hands"),
    )
    (folder / "report.md").write_text(text)


if __name__ == "__main__":
    main()
