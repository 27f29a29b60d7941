"""Card backs, drawn: a paper border round a coloured field with a pattern (lattice, dots,
rings, checks or stripes), in the colours packs come in. Same size as the faces."""

from __future__ import annotations

import cv2
import numpy as np

from models.cards.art import CARD_H_MM, CARD_W_MM, PX_PER_MM

#: Field colours (BGR): red, blue, green, black, purple, brown.
COLOURS = (
    (40, 30, 170),
    (150, 70, 30),
    (60, 120, 30),
    (40, 35, 35),
    (120, 40, 100),
    (40, 70, 120),
)
PATTERNS = ("lattice", "dots", "rings", "checks", "stripes")


def back(colour: int, pattern: str, *, border_mm: float = 3.5) -> np.ndarray:
    """The back with field colour ``COLOURS[colour]`` and ``pattern`` (one of :data:`PATTERNS`)."""
    if pattern not in PATTERNS:
        raise ValueError(f"unknown back pattern {pattern!r}; one of {PATTERNS}")
    h, w = round(CARD_H_MM * PX_PER_MM), round(CARD_W_MM * PX_PER_MM)
    field = np.array(COLOURS[colour % len(COLOURS)], np.float64)
    light = tuple(int(v) for v in np.clip(field * 0.45 + 140, 0, 255))
    image = np.full((h, w, 3), 245, np.uint8)
    b = round(border_mm * PX_PER_MM)
    inner = np.empty((h - 2 * b, w - 2 * b, 3), np.uint8)
    inner[:] = tuple(int(v) for v in field)
    ih, iw = inner.shape[:2]
    step = round(5 * PX_PER_MM)
    thick = max(1, round(0.6 * PX_PER_MM))
    if pattern == "lattice":
        for k in range(-ih, iw + ih, step):
            cv2.line(inner, (k, 0), (k + ih, ih), light, thick, cv2.LINE_AA)
            cv2.line(inner, (k, ih), (k + ih, 0), light, thick, cv2.LINE_AA)
    elif pattern == "dots":
        for y in range(step // 2, ih, step):
            for x in range(step // 2 + (y // step % 2) * step // 2, iw, step):
                cv2.circle(inner, (x, y), round(step * 0.22), light, -1, cv2.LINE_AA)
    elif pattern == "rings":
        for r in range(step // 2, max(ih, iw), step):
            cv2.ellipse(
                inner, (iw // 2, ih // 2), (r, round(r * 1.3)), 0, 0, 360, light, thick, cv2.LINE_AA
            )
    elif pattern == "checks":
        for y in range(0, ih, step):
            for x in range((y // step % 2) * step, iw, 2 * step):
                cv2.rectangle(inner, (x, y), (x + step - 1, y + step - 1), light, -1)
    else:
        for k in range(-ih, iw, step // 2):
            cv2.line(inner, (k, ih), (k + ih, 0), light, thick, cv2.LINE_AA)
    cv2.rectangle(inner, (0, 0), (iw - 1, ih - 1), light, thick * 2)
    image[b : h - b, b : w - b] = inner
    return image
