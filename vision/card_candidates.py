"""Where a card's corner index may be: dark or red ink on lighter paper, found without a network.

A morphological black-hat of the frame's luma (a closing minus the frame) keeps thin dark
strokes whatever the light and drops the steps at a card's edge; ink darker than
:data:`INK_RATIO` of its surroundings is kept, a small dilation joins a rank to its suit pip,
and each blob about an index's size becomes a :class:`Candidate`: its rotated box, long axis
taken as the index's up-down. Each is cut out upright (and the network decides whether it is
upside down) as a :data:`CROP_H` x :data:`CROP_W` crop. Sizes scale with the card height in px.

The network's classes: the 54 faces of a pack (engine notation) each upright or upside down in
a crop, and ``none`` (a candidate that is no corner index).

>>> len(FACES), OUTPUTS, output_of("7h", flipped=True), class_of(output_of("RJ")), class_of(NONE)
(54, 109, 35, ('RJ', False), None)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CROP_H, CROP_W = 40, 24
#: Ink is at least this much darker than the closing (the local paper).
INK_RATIO = 0.28
#: Paper's closing has chroma (max - min channel) under this percentage of its brightest channel.
PAPER_CHROMA = 32
#: A blob's long side over the card's height, for it to be taken as a candidate.
LONG_RANGE = (0.085, 0.3)
#: Ink blobs longer than this (over the card's height) are lines, not a rank or a pip.
STROKE_MAX = 0.24
#: A card's height (px) in the image the search runs on.
WORK_HEIGHT = 110.0
#: Dilations (over the card's height) that join a rank to its pip.
JOINS = (0.02, 0.04, 0.065)
#: Ink blobs smaller than this (over the card's height squared) are specks of noise.
SPECK = 0.0006
#: The crop's height over the blob's long side, and its width over its height.
CROP_SCALE, CROP_ASPECT = 1.3, CROP_W / CROP_H


RANKS = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2")
SUITS = ("s", "h", "d", "c")
#: The faces of one pack: ranks with suits, then the small and the big joker.
FACES: tuple[str, ...] = (*(r + s for r in RANKS for s in SUITS), "BJ", "RJ")
OUTPUTS = 2 * len(FACES) + 1
NONE = OUTPUTS - 1
_INDEX = {code: i for i, code in enumerate(FACES)}


def output_of(code: str, flipped: bool = False) -> int:
    """The network output for ``code`` seen upright (or upside down when ``flipped``)."""
    return 2 * _INDEX[code] + int(flipped)


def class_of(output: int) -> tuple[str, bool] | None:
    """``(code, flipped)`` of an output, None for :data:`NONE`."""
    if output == NONE:
        return None
    return FACES[output // 2], bool(output % 2)


@dataclass(frozen=True)
class Candidate:
    """An ink blob: centre (px), unit vector of its up direction (px), long side (px)."""

    cx: float
    cy: float
    ux: float
    uy: float
    length: float


def paper_mask(image: np.ndarray, card_height: float) -> np.ndarray:
    """Where the ground is card paper, at a quarter of the size (uint8 0/1): the closing of
    the colour (ink filled in) is near-neutral and among the frame's brighter grounds."""
    size = (max(1, image.shape[1] // 4), max(1, image.shape[0] // 4))
    small = cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)
    k = max(3, round(card_height * 0.09 / 4) | 1)
    closed = cv2.morphologyEx(
        small, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    )
    top = closed.max(axis=2).astype(np.int16)
    chroma = top - closed.min(axis=2)
    bright = float(np.percentile(top[::2, ::2], 99.5))
    return ((chroma * 100 < top * PAPER_CHROMA) & (top > bright * 0.45)).astype(np.uint8)


def ink_mask(image: np.ndarray, card_height: float) -> np.ndarray:
    """Pixels of dark strokes on card paper (uint8 0/255)."""
    gray = cv2.min(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), image[:, :, 1])  # red ink dark too
    k = max(5, round(card_height * 0.09) | 1)
    # closings along rows and along columns: each fills strokes across it, neither fills the
    # table outside a turned card's corner (a square kernel would, and call it ink)
    across = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, np.ones((1, k), np.uint8))
    down = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, np.ones((k, 1), np.uint8))
    closed = cv2.max(across, down)
    hat = cv2.subtract(closed, gray)
    floor = cv2.max(cv2.multiply(closed, INK_RATIO, dtype=cv2.CV_8U), 18)
    paper = cv2.resize(
        paper_mask(image, card_height),
        (gray.shape[1], gray.shape[0]),
        interpolation=cv2.INTER_NEAREST,
    )
    return np.where((hat > floor) & (paper > 0), 255, 0).astype(np.uint8)


def blob_masks(image: np.ndarray, card_height: float) -> list[np.ndarray]:
    """The ink of ranks and pips (uint8 0/255), dilated by each of :data:`JOINS` so that a rank
    joins its pip (one join too little, another too much, for cards crowded or blurred)."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink_mask(image, card_height))
    longest = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    area = stats[:, cv2.CC_STAT_AREA]
    keep = ((longest <= card_height * STROKE_MAX) & (area >= card_height**2 * SPECK)).astype(
        np.uint8
    )
    keep *= 255
    keep[0] = 0
    mask = keep[labels]  # edges, shadows and frames (long) left out
    joined = []
    for join in JOINS:
        j = max(3, round(card_height * join) | 1)
        joined.append(cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (j, j))))
    return joined


def find(image: np.ndarray, card_height: float, limit: int = 400) -> list[Candidate]:
    """Candidates in a BGR ``image`` whose cards are ``card_height`` px tall (give or take a
    quarter), at most ``limit`` of them (the most index-like first). The search runs on the
    image shrunk so that a card is about :data:`WORK_HEIGHT` px tall; candidates are in
    ``image`` px."""
    shrink = min(1.0, WORK_HEIGHT / card_height)
    if shrink < 0.95:
        small = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_LINEAR)
        found = _find(small, card_height * shrink, limit)
        return [
            Candidate(c.cx / shrink, c.cy / shrink, c.ux, c.uy, c.length / shrink) for c in found
        ]
    return _find(image, card_height, limit)


def _find(image: np.ndarray, card_height: float, limit: int) -> list[Candidate]:
    contours = [
        contour
        for joined in blob_masks(image, card_height)
        for contour in cv2.findContours(joined, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    ]
    lo, hi = LONG_RANGE[0] * card_height, LONG_RANGE[1] * card_height
    found: list[tuple[float, Candidate]] = []
    for contour in contours:
        if len(contour) < 4:
            continue
        _, _, w, h = cv2.boundingRect(contour)
        if max(w, h) < lo * 0.7 or max(w, h) > hi * 1.42:
            continue
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
        long_side, short_side = max(rw, rh), min(rw, rh)
        if (
            not lo <= long_side <= hi
            or short_side < 0.2 * long_side
            or short_side > 0.95 * long_side
        ):
            continue
        theta = np.deg2rad(angle)
        # OpenCV's angle is that of the side of length rw; the up direction is along the long side
        along = (np.cos(theta), np.sin(theta)) if rw >= rh else (-np.sin(theta), np.cos(theta))
        oddness = abs(short_side / long_side - 0.5) + abs(long_side / card_height - 0.18) * 2
        found.append(
            (
                oddness,
                Candidate(float(cx), float(cy), float(along[0]), float(along[1]), float(long_side)),
            )
        )
    found.sort(key=lambda item: item[0])
    kept: list[Candidate] = []
    for _, candidate in found:  # the same blob found at two joins: keep the first
        if not any(_same(candidate, other) for other in kept):
            kept.append(candidate)
        if len(kept) >= limit:
            break
    return kept


def _same(a: Candidate, b: Candidate) -> bool:
    near = (a.cx - b.cx) ** 2 + (a.cy - b.cy) ** 2 < (0.15 * max(a.length, b.length)) ** 2
    return near and abs(a.length - b.length) < 0.2 * max(a.length, b.length)


def crop_matrix(candidate: Candidate, flip: bool = False) -> np.ndarray:
    """The affine map from crop px to image px for ``candidate`` (2 x 3), up = its up vector,
    or the reverse when ``flip``."""
    ux, uy = (-candidate.ux, -candidate.uy) if flip else (candidate.ux, candidate.uy)
    height = candidate.length * CROP_SCALE
    width = height * CROP_ASPECT
    down = np.array([-ux, -uy])  # the crop's +y, in the image (y down)
    right = np.array([-uy, ux])  # the crop's +x
    sx, sy = width / CROP_W, height / CROP_H
    origin = np.array([candidate.cx, candidate.cy]) - right * width / 2 - down * height / 2
    return np.array(
        [[right[0] * sx, down[0] * sy, origin[0]], [right[1] * sx, down[1] * sy, origin[1]]]
    )


def crops(image: np.ndarray, candidates: list[Candidate]) -> np.ndarray:
    """The upright crops of ``candidates`` (N x CROP_H x CROP_W x 3, uint8 BGR)."""
    out = np.empty((len(candidates), CROP_H, CROP_W, 3), np.uint8)
    for i, candidate in enumerate(candidates):
        matrix = crop_matrix(candidate)
        out[i] = cv2.warpAffine(
            image,
            matrix,
            (CROP_W, CROP_H),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return out
