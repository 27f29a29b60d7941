"""Where the cards are, from their corner indices: each index read places its card (the index
sits at a fixed spot of the face), and the two indices of one card make one card.

A card's size in the frame varies with the camera's tilt, so the scale is a plane fitted over
the frame to the indices' sizes (:func:`scale_field`); two indices of one card give their card's
size exactly (their distance is fixed on the face).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

CARD_W_MM, CARD_H_MM = 63.0, 88.0
#: Centre of the top-left corner index on the face (mm from the top-left corner).
INDEX_CENTRE_MM = (6.0, 10.8)
#: A candidate blob's long side over the card's height, as measured on the rendered scenes.
LENGTH_PER_HEIGHT = 0.2
_DIAGONAL = (CARD_W_MM - 2 * INDEX_CENTRE_MM[0], CARD_H_MM - 2 * INDEX_CENTRE_MM[1])
#: Distance between the two corner indices' centres (mm) and its direction on the face.
INDEX_GAP_MM = math.hypot(*_DIAGONAL)
_GAP_ANGLE = math.atan2(_DIAGONAL[1], _DIAGONAL[0])
#: How far (radians) the line between two indices may turn from the card's diagonal (each
#: index's up-down, from its blob's shape, is good to 10-20 degrees; a tilted camera bends the
#: diagonal too). Tuned on scenes 1,200,000-1,200,059: 18 degrees left 8 invented reads, 25
#: left 4, 35 left 3, all reading the same cards.
_TURN = math.radians(35)


@dataclass(frozen=True)
class IndexRead:
    """One corner index read: the face, confidence, the index's centre, the card's right and
    down directions (unit, px), the card's height there (px) and the index's quad."""

    code: str
    score: float
    at: np.ndarray
    right: np.ndarray
    down: np.ndarray
    height: float
    quad: np.ndarray


@dataclass(frozen=True)
class Placed:
    code: str
    quad: np.ndarray
    score: float
    indices: tuple[np.ndarray, ...]


def scale_field(points: np.ndarray, heights: np.ndarray) -> Callable[[np.ndarray], float]:
    """Card height (px) at a point: a plane fitted to per-index estimates (robustly: the
    farthest fifth dropped and fitted again), or their median with fewer than eight."""
    median = float(np.median(heights))
    if len(heights) < 8:
        return lambda _point: median
    design = np.column_stack([np.ones(len(points)), points])
    keep = np.ones(len(points), bool)
    coef = np.zeros(3)
    for _ in range(2):
        coef = np.linalg.lstsq(design[keep], heights[keep], rcond=None)[0]
        residual = np.abs(design @ coef - heights)
        keep = residual <= np.percentile(residual, 80)

    def at(point: np.ndarray) -> float:
        value = float(coef[0] + coef[1:] @ point)
        return min(max(value, 0.6 * median), 1.6 * median)

    return at


def _rank(code: str) -> str:
    return code if code in ("BJ", "RJ") else code[0]


def _opposite(first: IndexRead, other: IndexRead) -> tuple[float, float] | None:
    """If ``other`` may be ``first``'s card's other index: how badly it fits (0 exactly) and
    the card height (px) the two give; else None."""
    if float(other.down @ first.down) > -0.8 or other.code != first.code:
        return None
    gap = other.at - first.at
    down = first.down - other.down  # both indices' idea of the card's down, averaged
    down = down / np.linalg.norm(down)
    right = np.array([down[1], -down[0]])
    x, y = float(gap @ right), float(gap @ down)
    turn = abs(math.atan2(y, x) - _GAP_ANGLE)
    height = math.hypot(x, y) / INDEX_GAP_MM * CARD_H_MM
    size = abs(math.log(height / first.height))
    if turn > _TURN or size > math.log(1.6):
        return None
    return turn / _TURN + size / math.log(1.6), height


def card_quad(centre: np.ndarray, right: np.ndarray, down: np.ndarray, height: float) -> np.ndarray:
    """A card's corners (its own TL, TR, BR, BL) from its centre, axes and height."""
    w, h = height * CARD_W_MM / CARD_H_MM, height
    corner = centre - right * w / 2 - down * h / 2
    return np.array([corner, corner + right * w, corner + right * w + down * h, corner + down * h])


def place(found: list[IndexRead]) -> list[Placed]:
    """One card per index, or per the two indices of one card (the same face, turned half
    round, along the card's diagonal: the best fitting pairs first); the same index found
    twice counts once. Surest first."""
    found = sorted(found, key=lambda f: -f.score)
    kept: list[IndexRead] = []
    for read in found:  # an index found twice (two candidates on it) counts once
        if not any(
            float(read.down @ k.down) > 0.5  # its turn, from a blob's shape, is rough
            and float(np.linalg.norm(read.at - k.at)) < 0.08 * k.height
            and _rank(read.code) == _rank(k.code)
            for k in kept
        ):
            kept.append(read)
    pairs = []
    for i, first in enumerate(kept):
        for j in range(i + 1, len(kept)):
            fit = _opposite(first, kept[j])
            if fit is not None:
                pairs.append((fit[0], i, j, fit[1]))
    partner: dict[int, tuple[int, float]] = {}
    for _, i, j, height in sorted(pairs):
        if i not in partner and j not in partner:
            partner[i], partner[j] = (j, height), (i, height)
    cards: list[Placed] = []
    for i, first in enumerate(kept):
        if i in partner and partner[i][0] < i:
            continue  # placed with its partner
        if i in partner:
            other, height = kept[partner[i][0]], partner[i][1]
            centre = (first.at + other.at) / 2  # the card lies between its indices
            quads = (first.quad, other.quad)
            gap = (other.at - first.at) / np.linalg.norm(other.at - first.at)
            cos, sin = math.cos(_GAP_ANGLE), math.sin(_GAP_ANGLE)  # the diagonal turned back
            right = np.array([gap[0] * cos + gap[1] * sin, -gap[0] * sin + gap[1] * cos])
            down = np.array([-right[1], right[0]])
            cards.append(
                Placed(first.code, card_quad(centre, right, down, height), first.score, quads)
            )
            continue
        height = first.height
        offset = (CARD_W_MM / 2 - INDEX_CENTRE_MM[0], CARD_H_MM / 2 - INDEX_CENTRE_MM[1])
        mm = height / CARD_H_MM
        centre = first.at + mm * (offset[0] * first.right + offset[1] * first.down)
        quads = (first.quad,)
        quad = card_quad(centre, first.right, first.down, height)
        cards.append(Placed(first.code, quad, first.score, quads))
    return cards
