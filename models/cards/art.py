"""Our own card art: the 54 faces of a pack and card backs, drawn with OpenCV (no card art
copied from anywhere; glyph outlines from :mod:`models.cards.glyphs`, pips from
:func:`models.cards.glyphs.draw_pip`).

A card is 63 x 88 mm drawn at :data:`PX_PER_MM`. Faces carry a corner index (rank over suit
pip; a joker's is 小 / 大 over a star) at the top left and, turned, at the bottom right; number
cards their pips, J Q K a simple court design, jokers a star and 王. Codes are the engine's
notation (:mod:`engine.gouji.notation`): ``7h``, ``Td``, ``BJ``, ``RJ``. A :class:`CardStyle`
varies paper, inks and the index's place a little, as packs differ. Backs (:func:`back`): a
paper border round a coloured field with a pattern, in the colours packs come in.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from models.cards.glyphs import draw_pip, draw_text

CARD_W_MM, CARD_H_MM = 63.0, 88.0
PX_PER_MM = 6.0
CORNER_MM = 3.0
#: The top-left corner index (rank and pip), x0, y0, x1, y1 in mm (the scenes' labels).
INDEX_MM = (2.2, 3.0, 9.8, 18.6)
RANKS = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2")
SUITS = ("s", "h", "d", "c")
#: All 54 faces of one pack, in the engine's notation.
FACES: tuple[str, ...] = (*(r + s for r in RANKS for s in SUITS), "BJ", "RJ")
_COLUMNS = {"l": 21.0, "m": 31.5, "r": 42.0}
_TOP, _BOTTOM = 17.0, 71.0
_LAYOUT: dict[str, list[tuple[str, float]]] = {
    "2": [("m", 0), ("m", 1)],
    "3": [("m", 0), ("m", 0.5), ("m", 1)],
    "4": [(c, r) for r in (0, 1) for c in "lr"],
    "5": [*((c, r) for r in (0, 1) for c in "lr"), ("m", 0.5)],
    "6": [(c, r) for r in (0, 0.5, 1) for c in "lr"],
    "7": [*((c, r) for r in (0, 0.5, 1) for c in "lr"), ("m", 0.25)],
    "8": [*((c, r) for r in (0, 0.5, 1) for c in "lr"), ("m", 0.25), ("m", 0.75)],
    "9": [*((c, r) for r in (0, 1 / 3, 2 / 3, 1) for c in "lr"), ("m", 0.5)],
    "T": [*((c, r) for r in (0, 1 / 3, 2 / 3, 1) for c in "lr"), ("m", 1 / 6), ("m", 5 / 6)],
}


@dataclass(frozen=True)
class CardStyle:
    """How one pack looks: paper and ink colours (BGR), the index nudged (mm) and scaled."""

    paper: tuple[int, int, int] = (246, 248, 250)
    black: tuple[int, int, int] = (30, 28, 26)
    red: tuple[int, int, int] = (40, 36, 200)
    gold: tuple[int, int, int] = (40, 170, 220)
    blue: tuple[int, int, int] = (150, 80, 30)
    index_dx: float = 0.0
    index_dy: float = 0.0
    index_scale: float = 1.0


def random_style(rng: np.random.Generator) -> CardStyle:
    """A plausible pack: white to cream paper, near-black and red inks of varied depth."""
    cream = rng.uniform(0, 18)
    paper = (
        int(250 - cream - rng.uniform(0, 6)),
        int(250 - cream / 3),
        int(252 - rng.uniform(0, 4)),
    )
    grey = int(rng.uniform(10, 55))
    return CardStyle(
        paper=paper,
        black=(grey + int(rng.uniform(0, 15)), grey, grey),
        red=(int(rng.uniform(20, 70)), int(rng.uniform(15, 50)), int(rng.uniform(160, 225))),
        gold=(int(rng.uniform(20, 70)), int(rng.uniform(140, 190)), int(rng.uniform(200, 240))),
        blue=(int(rng.uniform(110, 180)), int(rng.uniform(50, 110)), int(rng.uniform(10, 60))),
        index_dx=float(rng.uniform(-0.5, 0.5)),
        index_dy=float(rng.uniform(-0.6, 0.6)),
        index_scale=float(rng.uniform(0.9, 1.08)),
    )


def _mm(*values: float) -> tuple[float, ...]:
    return tuple(v * PX_PER_MM for v in values)


def card_mask() -> np.ndarray:
    """The card's shape (uint8 0/255, rounded corners) at :data:`PX_PER_MM`."""
    w, h = round(CARD_W_MM * PX_PER_MM), round(CARD_H_MM * PX_PER_MM)
    mask = np.zeros((h, w), np.uint8)
    r = round(CORNER_MM * PX_PER_MM)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def _ink(code: str, style: CardStyle) -> tuple[int, int, int]:
    return style.red if code[-1] in "hd" or code == "RJ" else style.black


def index_box_mm(style: CardStyle) -> tuple[float, float, float, float]:
    """The top-left index's box (x0, y0, x1, y1 mm) in ``style``."""
    x0, y0, x1, y1 = INDEX_MM
    cx, cy = (x0 + x1) / 2 + style.index_dx, (y0 + y1) / 2 + style.index_dy
    half_w, half_h = (x1 - x0) / 2 * style.index_scale, (y1 - y0) / 2 * style.index_scale
    return cx - half_w, cy - half_h, cx + half_w, cy + half_h


def _draw_index(image: np.ndarray, code: str, style: CardStyle, rotate180: bool) -> None:
    x0, y0, x1, y1 = index_box_mm(style)
    split = y0 + (y1 - y0) * 0.55
    card_w, card_h = CARD_W_MM, CARD_H_MM

    def turn(box: tuple[float, float, float, float]) -> tuple[float, ...]:
        if rotate180:
            box = (card_w - box[2], card_h - box[3], card_w - box[0], card_h - box[1])
        return _mm(*box)

    colour = _ink(code, style)
    joker = code in ("BJ", "RJ")
    text = ("大" if code == "RJ" else "小") if joker else ("10" if code[0] == "T" else code[0])
    draw_text(image, text, turn((x0, y0, x1, split)), colour, rotate180=rotate180, condense=0.62)  # type: ignore[arg-type]
    pip = "star" if joker else code[1]
    pad = (x1 - x0) * 0.14
    draw_pip(image, pip, turn((x0 + pad, split + 0.6, x1 - pad, y1)), colour, rotate180=rotate180)  # type: ignore[arg-type]


def _court(image: np.ndarray, code: str, style: CardStyle) -> None:
    """J Q K and jokers: a framed design, its top half drawn and its bottom half the same turned."""
    colour = _ink(code, style)
    frame = _mm(14.5, 9.0, 48.5, 79.0)
    fx0, fy0, fx1, fy1 = (round(v) for v in frame)
    cv2.rectangle(image, (fx0, fy0), (fx1, fy1), style.gold, -1)
    cv2.rectangle(image, (fx0, fy0), (fx1, fy1), style.blue, round(PX_PER_MM * 0.6))
    mid = (fy0 + fy1) // 2
    half = image[fy0:mid, fx0 : fx1 + 1]
    inner = (PX_PER_MM * 3, PX_PER_MM * 3, half.shape[1] - PX_PER_MM * 3, half.shape[0] - 4.0)
    cv2.rectangle(
        half,
        (round(inner[0]), round(inner[1])),
        (round(inner[2]), round(inner[3])),
        style.paper,
        -1,
    )
    w, h = half.shape[1], half.shape[0]
    if code in ("BJ", "RJ"):
        draw_pip(half, "star", (w * 0.2, h * 0.08, w * 0.8, h * 0.6), colour)
        draw_text(half, "王", (w * 0.3, h * 0.62, w * 0.7, h * 0.94), colour)
    else:
        crown = np.array(
            [
                (0.25, 0.42),
                (0.25, 0.12),
                (0.38, 0.28),
                (0.5, 0.08),
                (0.62, 0.28),
                (0.75, 0.12),
                (0.75, 0.42),
            ]
        ) * (w, h)
        cv2.fillPoly(half, [np.round(crown).astype(np.int32)], style.blue, cv2.LINE_AA)
        draw_text(half, code[0], (w * 0.14, h * 0.5, w * 0.52, h * 0.94), colour)
        draw_pip(half, code[1], (w * 0.58, h * 0.56, w * 0.86, h * 0.9), colour)
    image[mid + 1 : mid + 1 + h, fx0 : fx1 + 1] = half[::-1, ::-1]
    cv2.line(image, (fx0, mid), (fx1, mid), style.blue, 2)


@lru_cache(maxsize=1024)
def face(code: str, style: CardStyle = CardStyle()) -> np.ndarray:
    """The face of ``code`` (one of :data:`FACES`) as BGR uint8, outside the corners paper."""
    if code not in FACES:
        raise ValueError(f"not a card face: {code!r} (expected e.g. '7h', 'Td', 'BJ', 'RJ')")
    h, w = round(CARD_H_MM * PX_PER_MM), round(CARD_W_MM * PX_PER_MM)
    image = np.empty((h, w, 3), np.uint8)
    image[:] = style.paper
    rank = code[0] if code not in ("BJ", "RJ") else code
    if rank in _LAYOUT or rank == "A":
        spots = _LAYOUT.get(rank, [("m", 0.5)])
        size = 15.0 if rank == "A" else 9.0
        for column, row in spots:
            cx, cy = _COLUMNS[column], _TOP + row * (_BOTTOM - _TOP)
            box = _mm(cx - size / 2, cy - size * 0.55, cx + size / 2, cy + size * 0.55)
            draw_pip(image, code[1], box, _ink(code, style), rotate180=row > 0.5)  # type: ignore[arg-type]
    else:
        _court(image, code, style)
    _draw_index(image, code, style, False)
    _draw_index(image, code, style, True)
    return image


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
