"""Counting what a photo reader got right: tiles present read right, boxes reported right.

A reported tile matches the true tile whose box it overlaps most (intersection over union of
the axis-aligned bounds at least ``MATCH_IOU``; the real sets' boxes hold the whole tile, ours
its face, so the bar is lower than COCO's 0.5), each true tile at most once, best overlaps
first. A true tile only partly seen (a rendered label under half visible) neither counts as
missed nor makes a box that found it wrong.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from models.evaluation.metrics import wilson_interval

MATCH_IOU = 0.3
# A box on no labelled tile whose centre lies farther than this many labelled-tile lengths (the
# photo's median) from every labelled tile is "away": publishers often label only a player's
# hand and leave the game's other tiles unlabelled (docs/photo-sources.md), so such boxes are
# counted apart (``boxes_near`` leaves them out; ``boxes`` counts them wrong).
AWAY = 2.0
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Truth:
    tile: str | None  # engine notation or "back"; None when the source could not name it
    box: Box
    counted: bool = True  # False: a tile too hidden to hold a reader to


@dataclass
class Tally:
    """Per-class counts over a set of images."""

    present: Counter[str] = field(default_factory=Counter)  # true tiles per kind
    found: Counter[str] = field(default_factory=Counter)  # ... given a box, whatever it read
    read_right: Counter[str] = field(default_factory=Counter)  # ... found and named right
    reported: Counter[str] = field(default_factory=Counter)  # boxes reported per kind read
    reported_right: Counter[str] = field(default_factory=Counter)
    reported_away: int = 0  # boxes on no labelled tile, far from every labelled one (AWAY)
    images: int = 0
    images_without_tiles: int = 0
    silent_on_empty: int = 0  # images without tiles where nothing was reported
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, truths: list[Truth], reported: list[tuple[str, Box]]) -> None:
        self.images += 1
        if not truths:
            self.images_without_tiles += 1
            self.silent_on_empty += not reported
        pairs = match([t.box for t in truths], [box for _, box in reported])
        matched_truth = dict(pairs)
        matched_report = {ri: ti for ti, ri in pairs}
        for ti, truth in enumerate(truths):
            if not truth.counted or truth.tile is None:
                continue
            self.present[truth.tile] += 1
            ri = matched_truth.get(ti)
            self.found[truth.tile] += ri is not None
            if ri is not None and reported[ri][0] == truth.tile:
                self.read_right[truth.tile] += 1
            elif ri is not None:
                self.confusions[(truth.tile, reported[ri][0])] += 1
        far = _away([t.box for t in truths], [box for _, box in reported])
        for ri, (name, _box) in enumerate(reported):
            ti = matched_report.get(ri)
            if ti is not None and (not truths[ti].counted or truths[ti].tile is None):
                continue  # a box on a hidden or unnamed tile is neither right nor wrong
            self.reported_away += ti is None and bool(far[ri])
            self.reported[name] += 1
            if ti is not None and truths[ti].tile == name:
                self.reported_right[name] += 1

    def summary(self) -> dict[str, object]:
        flowers = [k for k in self.present if k.endswith("f")]
        out: dict[str, object] = {
            "images": self.images,
            "tiles": _share(sum(self.read_right.values()), sum(self.present.values())),
            "found": _share(sum(self.found.values()), sum(self.present.values())),
            "boxes": _share(sum(self.reported_right.values()), sum(self.reported.values())),
            "boxes_near": _share(
                sum(self.reported_right.values()),
                sum(self.reported.values()) - self.reported_away,
            ),
            "flowers": _share(
                sum(self.read_right[k] for k in flowers), sum(self.present[k] for k in flowers)
            ),
            "per_class": {
                k: _share(self.read_right[k], self.present[k]) for k in sorted(self.present)
            },
            "confusions": [[a, b, n] for (a, b), n in self.confusions.most_common(12)],
        }
        if self.images_without_tiles:
            out["silent_on_empty"] = _share(self.silent_on_empty, self.images_without_tiles)
        return out


def _away(truth: list[Box], reported: list[Box]) -> np.ndarray:
    """For each reported box, whether its centre lies farther than AWAY labelled-tile lengths
    from every labelled tile's centre (all False when nothing is labelled: a tile-free photo's
    boxes are all wrong)."""
    if not truth or not reported:
        return np.zeros(len(reported), bool)
    t = np.asarray(truth, np.float64)
    r = np.asarray(reported, np.float64)
    length = float(np.median(np.maximum(t[:, 2] - t[:, 0], t[:, 3] - t[:, 1])))
    tc = (t[:, :2] + t[:, 2:]) / 2
    rc = (r[:, :2] + r[:, 2:]) / 2
    nearest = np.linalg.norm(rc[:, None] - tc[None], axis=2).min(axis=1)
    return nearest > AWAY * length


def _share(hits: int, total: int) -> dict[str, float | int]:
    low, high = wilson_interval(hits, total)
    return {
        "hits": hits,
        "total": total,
        "share": round(hits / total, 4) if total else 0.0,
        "low": round(low, 4),
        "high": round(high, 4),
    }


def iou_matrix(a: list[Box], b: list[Box]) -> np.ndarray:
    if not a or not b:
        return np.zeros((len(a), len(b)))
    x = np.asarray(a, np.float64)[:, None, :]
    y = np.asarray(b, np.float64)[None, :, :]
    w = np.clip(np.minimum(x[..., 2], y[..., 2]) - np.maximum(x[..., 0], y[..., 0]), 0, None)
    h = np.clip(np.minimum(x[..., 3], y[..., 3]) - np.maximum(x[..., 1], y[..., 1]), 0, None)
    inter = w * h
    area = lambda v: (v[..., 2] - v[..., 0]) * (v[..., 3] - v[..., 1])  # noqa: E731
    return inter / np.maximum(area(x) + area(y) - inter, 1e-9)


def match(truth: list[Box], reported: list[Box], bar: float = MATCH_IOU) -> list[tuple[int, int]]:
    """(truth index, reported index) pairs, greedily by overlap, each used once."""
    overlap = iou_matrix(truth, reported)
    pairs = []
    used_t: set[int] = set()
    used_r: set[int] = set()
    for flat in np.argsort(-overlap, axis=None):
        ti, ri = divmod(int(flat), overlap.shape[1])
        if overlap[ti, ri] < bar:
            break
        if ti in used_t or ri in used_r:
            continue
        pairs.append((ti, ri))
        used_t.add(ti)
        used_r.add(ri)
    return pairs
