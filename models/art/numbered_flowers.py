"""Flower faces that must be read by their corner numeral, for the flower reader's training.

On real flower tiles the picture changes from set to set; what stays is a numeral 1-4 in a top
corner and the plant's or season's character (梅蘭菊竹 / 春夏秋冬) in the other. Hong Kong sets
mostly put a season's numeral on the left and a plant's on the right, but not all do (our own MCR
faces put every numeral on the left), so the side leans only a little (``side_lean``); some sets
letter only the character. Here the picture is usually another flower's (so it cannot be learnt
as the answer), the numeral is drawn in one of OpenCV's Hershey fonts (or, with Pillow, a DejaVu
face when installed) or as the Chinese numeral cut from our 一二三四 faces, in any of five inks.
Nothing is fetched; no CJK font is needed.
"""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from models.art.faces import FACE_W, load_faces
from models.art.flower_art import INKS, character_ink, ink_of, paste_ink, picture_face

HERSHEY = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC,
    cv2.FONT_HERSHEY_COMPLEX | cv2.FONT_ITALIC,
)
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
ALL_INKS = [*INKS, (120, 40, 20)]  # and a dark navy


@functools.cache
def _dejavu_fonts() -> list[Path]:
    return sorted(DEJAVU.glob("DejaVu*.ttf")) if DEJAVU.is_dir() else []


def _draw_digit(canvas: np.ndarray, digit: int, box: tuple[int, int, int, int], ink, rng) -> None:  # type: ignore[no-untyped-def]
    """The Arabic ``digit`` fitted into ``box``: drawn big in white, cut tight, pasted."""
    sheet = np.full((120, 100, 3), 255, np.uint8)
    fonts = _dejavu_fonts()
    if fonts and rng.random() < 0.4:
        try:
            from PIL import Image, ImageDraw, ImageFont  # training extra only

            face = ImageFont.truetype(str(fonts[int(rng.integers(len(fonts)))]), 90)
            layer = Image.fromarray(sheet)
            ImageDraw.Draw(layer).text((10, 5), str(digit), fill=(0, 0, 0), font=face)
            sheet = np.asarray(layer).copy()
        except ImportError:
            fonts = []
    if not fonts or sheet.min() == 255:
        font = HERSHEY[int(rng.integers(len(HERSHEY)))]
        thickness = int(rng.integers(4, 10))
        cv2.putText(sheet, str(digit), (15, 100), font, 3.0, (0, 0, 0), thickness, cv2.LINE_AA)
    paste_ink(canvas, ink_of(sheet), box, ink)


def numbered_flower_faces(
    rng: np.random.Generator, variants: int, own_motif: float = 0.3, side_lean: float = 0.1
) -> dict[str, list[np.ndarray]]:
    """``variants`` faces per flower ``1f``-``8f`` whose numeral and character decide it; a
    plant flower shows its own plant with probability ``own_motif`` (seasons any plant); a
    season's numeral is on the left with probability 0.5 + ``side_lean``, a plant's 0.5 -."""
    ours = load_faces()
    out: dict[str, list[np.ndarray]] = {}
    for rank in range(1, 9):
        number = (rank - 1) % 4 + 1
        character = character_ink(ours[f"{rank}f"])
        chinese_numeral = ink_of(ours[f"{number}m"][5:75, 10:110])
        faces = []
        for _ in range(variants):
            paper = int(rng.integers(214, 250))
            canvas = picture_face(rank, rng, paper=paper, tint=(-16, 8), own_motif=own_motif)
            inks = [ALL_INKS[i] for i in rng.permutation(len(ALL_INKS))]
            season = rank > 4
            numeral_left = rng.random() < 0.5 + (side_lean if season else -side_lean)
            digit_h = int(rng.integers(24, 40))
            digit_w = int(digit_h * rng.uniform(0.5, 0.75))
            top = int(rng.integers(4, 14))
            margin = int(rng.integers(4, 14))
            numeral_x = margin if numeral_left else FACE_W - margin - digit_w
            shown = rng.random()
            if shown < 0.75:
                _draw_digit(canvas, number, (numeral_x, top, digit_w, digit_h), inks[0], rng)
            elif shown < 0.88:  # the Chinese numeral, wider than tall
                w = int(digit_h * 1.1)
                gh, gw = chinese_numeral.shape[:2]
                h = int(np.clip(w * gh / gw, 4, digit_h))  # 一 stays a stroke
                x = margin if numeral_left else FACE_W - margin - w
                paste_ink(canvas, chinese_numeral, (x, top + (digit_h - h) // 2, w, h), inks[0])
            if rng.random() < 0.9 or shown >= 0.88:  # the character, in the other corner
                size = int(rng.integers(24, 38))
                x = FACE_W - margin - size if numeral_left else margin
                paste_ink(canvas, character, (x, top, size, size), inks[1])
            faces.append(canvas)
        out[f"{rank}f"] = faces
    return out


def numbered_flower_crops(variants: int, copies: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`numbered_flower_faces` cut to crop size like the photos (both ways up)."""
    from models.training.crop_sets import jittered_crops

    faces = numbered_flower_faces(np.random.default_rng(seed), variants)
    items = [(name, face) for name, images in faces.items() for face in images]
    return jittered_crops(items, copies, seed)


if __name__ == "__main__":  # a contact sheet: python -m models.art.numbered_flowers X.png
    import sys

    sheet = numbered_flower_faces(np.random.default_rng(0), 8)
    rows = [np.hstack(sheet[f"{rank}f"]) for rank in range(1, 9)]
    cv2.imwrite(sys.argv[1], np.vstack(rows))
