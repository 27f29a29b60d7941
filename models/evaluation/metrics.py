"""Detection metrics (COCO-style AP with 101-point interpolation) and a confusion-matrix image."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import cv2
import numpy as np

Box = tuple[float, float, float, float]


@dataclass
class Sample:
    truth: list[tuple[str, Box]]
    predicted: list[tuple[str, Box, float]]


def iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU matrix between boxes ``a`` (N x 4) and ``b`` (M x 4)."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    x1 = np.maximum(a[:, None, 0], b[None, :, 0])
    y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2])
    y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / (area_a[:, None] + area_b[None, :] - inter + 1e-9)


def average_precision(samples: list[Sample], name: str, threshold: float) -> float | None:
    """AP of one class at one IoU threshold; None when the class never occurs in the truth."""
    total = sum(1 for s in samples for t, _ in s.truth if t == name)
    if total == 0:
        return None
    scored = []
    for index, sample in enumerate(samples):
        for tile, box, score in sample.predicted:
            if tile == name:
                scored.append((score, index, box))
    scored.sort(key=lambda item: -item[0])
    used: dict[int, set[int]] = defaultdict(set)
    hits = []
    for _, index, box in scored:
        truth = [(i, b) for i, (t, b) in enumerate(samples[index].truth) if t == name]
        best, best_iou = -1, threshold
        if truth:
            overlaps = iou(np.array([box]), np.array([b for _, b in truth]))[0]
            for (i, _), overlap in zip(truth, overlaps, strict=True):
                if overlap >= best_iou and i not in used[index]:
                    best, best_iou = i, overlap
        if best >= 0:
            used[index].add(best)
        hits.append(best >= 0)
    tp = np.cumsum(hits)
    recall = tp / total if hits else np.zeros(0)
    precision = tp / np.arange(1, len(hits) + 1) if hits else np.zeros(0)
    envelope = np.maximum.accumulate(precision[::-1])[::-1] if hits else precision
    points = np.linspace(0, 1, 101)
    ap = 0.0
    for r in points:
        above = envelope[recall >= r]
        ap += float(above.max()) if above.size else 0.0
    return ap / len(points)


def map_scores(samples: list[Sample], names: list[str]) -> tuple[float, float, dict[str, float]]:
    """(mAP50, mAP50-95, AP50 per class) over the classes present in the truth."""
    ap50: dict[str, float] = {}
    ap_all: list[float] = []
    for name in names:
        first = average_precision(samples, name, 0.5)
        if first is None:
            continue
        ap50[name] = first
        per_threshold = [
            average_precision(samples, name, t) or 0.0 for t in np.arange(0.5, 0.96, 0.05)
        ]
        ap_all.append(float(np.mean(per_threshold)))
    return (
        float(np.mean(list(ap50.values()))) if ap50 else 0.0,
        float(np.mean(ap_all)) if ap_all else 0.0,
        ap50,
    )


def confusion(
    samples: list[Sample], names: list[str], min_score: float, threshold: float = 0.5
) -> np.ndarray:
    """Rows: true class, then "none" (false detections); columns: predicted, then "missed"."""
    index = {n: i for i, n in enumerate(names)}
    matrix = np.zeros((len(names) + 1, len(names) + 1), np.int64)
    for sample in samples:
        predicted = [(t, b) for t, b, s in sample.predicted if s >= min_score and t in index]
        truth = [(t, b) for t, b in sample.truth if t in index]
        overlaps = iou(
            np.array([b for _, b in truth]).reshape(-1, 4),
            np.array([b for _, b in predicted]).reshape(-1, 4),
        )
        matched_pred: set[int] = set()
        for ti, (tile, _) in enumerate(truth):
            order = np.argsort(-overlaps[ti]) if predicted else []
            pick = next(
                (
                    int(p)
                    for p in order
                    if overlaps[ti, p] >= threshold and int(p) not in matched_pred
                ),
                None,
            )
            if pick is None:
                matrix[index[tile], -1] += 1
            else:
                matched_pred.add(pick)
                matrix[index[tile], index[predicted[pick][0]]] += 1
        for pi, (tile, _) in enumerate(predicted):
            if pi not in matched_pred:
                matrix[-1, index[tile]] += 1
    return matrix


def wilson_interval(hits: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a proportion of ``hits`` in ``total``.

    A class's recall over a few dozen tiles is decided by one tile either way; the interval says
    whether a recall under a target is under it for sure or only by chance.
    """
    if total <= 0:
        return 0.0, 1.0
    share = hits / total
    centre = (share + z * z / (2 * total)) / (1 + z * z / total)
    half = (
        z
        / (1 + z * z / total)
        * float(np.sqrt(share * (1 - share) / total + z * z / (4 * total**2)))
    )
    return max(centre - half, 0.0), min(centre + half, 1.0)


@dataclass(frozen=True)
class ReadingErrors:
    map50: float
    errors: int  # true tiles missed or read as another kind at the confidence
    false: int  # detections matching no true tile
    under: list[tuple[str, float]]  # classes with recall under 0.98, by name
    unboxed: int = 0  # of ``errors``, true tiles no detection matched at any confidence
    faint: int = 0  # of ``errors``, true tiles matched only by detections under the confidence
    false_faces: int = 0  # of ``false``, those read as a face (a tile that is not there)

    @property
    def wrong(self) -> int:
        """Of ``errors``, true tiles read as another kind at the confidence."""
        return self.errors - self.unboxed - self.faint


def reading_errors(
    samples: list[Sample], names: list[str], min_score: float = 0.3
) -> ReadingErrors:
    """The figures the tuning benchmarks compare settings by."""
    map50, _, _ = map_scores(samples, names)
    matrix = confusion(samples, names, min_score=min_score)
    errors = int(matrix[:-1].sum() - np.trace(matrix[:-1, :-1]))
    recall = {n: matrix[i, i] / matrix[i].sum() for i, n in enumerate(names) if matrix[i].sum()}
    under = [(n, float(v)) for n, v in sorted(recall.items()) if v < 0.98]
    unboxed = int(confusion(samples, names, min_score=0.0)[:-1, -1].sum())
    faint = int(matrix[:-1, -1].sum()) - unboxed
    false = int(matrix[-1].sum())
    false_faces = false - int(matrix[-1, names.index("back")]) if "back" in names else false
    return ReadingErrors(map50, errors, false, under, unboxed, faint, false_faces)


def confusion_png(matrix: np.ndarray, names: list[str], path: str, cell: int = 18) -> None:
    """Row-normalised confusion matrix as a heat map with labels."""
    labels = [*names, "none/missed"]
    n = len(labels)
    margin = 90
    image = np.full((margin + n * cell + 10, margin + n * cell + 10, 3), 255, np.uint8)
    rows = matrix / np.maximum(matrix.sum(axis=1, keepdims=True), 1)
    for r in range(n):
        for c in range(n):
            shade = int(255 * (1 - rows[r, c]))
            top_left = (margin + c * cell, margin + r * cell)
            bottom_right = (top_left[0] + cell - 1, top_left[1] + cell - 1)
            cv2.rectangle(
                image,
                top_left,
                bottom_right,
                (shade, shade, 255) if r != c else (shade, 255, shade),  # errors red, hits green
                -1,
            )
    for i, label in enumerate(labels):
        cv2.putText(
            image,
            label[:6],
            (4, margin + i * cell + cell - 5),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.38,
            (0, 0, 0),
            1,
            cv2.LINE_AA,
        )
        column = np.full((cell, 80, 3), 255, np.uint8)
        cv2.putText(
            column,
            label[:6],
            (2, cell - 5),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.38,
            (0, 0, 0),
            1,
            cv2.LINE_AA,
        )
        rotated = cv2.rotate(column, cv2.ROTATE_90_COUNTERCLOCKWISE)
        image[5:85, margin + i * cell : margin + (i + 1) * cell] = rotated
    cv2.imwrite(path, image)
