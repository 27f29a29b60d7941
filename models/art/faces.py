"""Draw Tilesight's own tile faces in the Chinese (MCR table) style and save them as PNGs.

Run once at generation time with a CJK font installed (``fonts-wqy-zenhei``)::

    python -m models.art.faces --font /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc

The PNGs under ``models/faces/mcr/`` are committed, so tests and CI render scenes without a font.
Faces are 120x160 px, upright (the way the tile's owner reads it).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

FACE_W, FACE_H = 120, 160
FACES_DIR = Path(__file__).resolve().parent.parent / "faces" / "mcr"
IVORY = (236, 242, 246)  # BGR
BLUE, GREEN, RED, BLACK = (150, 60, 20), (60, 130, 20), (40, 30, 200), (30, 30, 30)
NUMERALS = "一二三四五六七八九"
DOT_LAYOUTS: dict[int, list[tuple[float, float, tuple[int, int, int]]]] = {
    1: [(0.5, 0.5, RED)],
    2: [(0.5, 0.28, GREEN), (0.5, 0.72, BLUE)],
    3: [(0.25, 0.2, BLUE), (0.5, 0.5, RED), (0.75, 0.8, GREEN)],
    4: [
        (x, y, c)
        for (x, y), c in zip(
            ((0.3, 0.28), (0.7, 0.28), (0.3, 0.72), (0.7, 0.72)),
            (BLUE, GREEN, GREEN, BLUE),
            strict=True,
        )
    ],
    5: [
        (0.27, 0.22, BLUE),
        (0.73, 0.22, GREEN),
        (0.5, 0.5, RED),
        (0.27, 0.78, GREEN),
        (0.73, 0.78, BLUE),
    ],
    6: [(x, y, GREEN if y < 0.3 else RED) for y in (0.2, 0.55, 0.82) for x in (0.3, 0.7)],
    7: [(0.22, 0.13, GREEN), (0.5, 0.25, GREEN), (0.78, 0.37, GREEN)]
    + [(x, y, RED) for y in (0.6, 0.85) for x in (0.3, 0.7)],
    8: [(x, y, BLUE) for y in (0.13, 0.37, 0.63, 0.87) for x in (0.3, 0.7)],
    9: [(x, y, c) for y, c in ((0.18, BLUE), (0.5, RED), (0.82, GREEN)) for x in (0.2, 0.5, 0.8)],
}
BAMBOO_LAYOUTS: dict[int, list[tuple[float, float, float, tuple[int, int, int]]]] = {
    # (x, y, tilt in degrees, colour) of each stick's centre, in face fractions.
    2: [(0.5, 0.28, 0, GREEN), (0.5, 0.72, 0, BLUE)],
    3: [(0.5, 0.28, 0, BLUE), (0.3, 0.72, 0, GREEN), (0.7, 0.72, 0, GREEN)],
    4: [(x, y, 0, c) for y in (0.28, 0.72) for x, c in ((0.3, BLUE), (0.7, GREEN))],
    5: [(x, y, 0, GREEN) for y in (0.25, 0.75) for x in (0.22, 0.78)] + [(0.5, 0.5, 0, RED)],
    6: [(x, y, 0, GREEN if y < 0.5 else BLUE) for y in (0.28, 0.72) for x in (0.22, 0.5, 0.78)],
    7: [(0.5, 0.16, 0, RED)] + [(x, y, 0, GREEN) for y in (0.5, 0.82) for x in (0.22, 0.5, 0.78)],
    8: [(x, y, t, GREEN) for y, t in ((0.27, 20), (0.73, -20)) for x in (0.15, 0.38)]
    + [(x, y, -t, GREEN) for y, t in ((0.27, 20), (0.73, -20)) for x in (0.62, 0.85)],
    9: [(x, y, 0, RED if x == 0.5 else GREEN) for y in (0.18, 0.5, 0.82) for x in (0.2, 0.5, 0.8)],
}
WIND_GLYPHS = "東南西北"
FLOWER_GLYPHS = "梅蘭菊竹春夏秋冬"


def _glyph(  # noqa: PLR0917 - a drawing primitive, positional like cv2's
    canvas: np.ndarray,
    text: str,
    font: str,
    size: int,
    centre: tuple[int, int],
    colour: tuple[int, int, int],
) -> None:
    """Draw CJK text with Pillow (OpenCV's Hershey fonts have no CJK) onto a BGR canvas."""
    from PIL import Image, ImageDraw, ImageFont

    pil = Image.fromarray(cv2.cvtColor(canvas, cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(pil)
    face = ImageFont.truetype(font, size)
    draw.text(centre, text, font=face, fill=tuple(reversed(colour)), anchor="mm")
    canvas[:] = cv2.cvtColor(np.asarray(pil), cv2.COLOR_RGB2BGR)


def _dot(canvas: np.ndarray, x: float, y: float, radius: int, colour: tuple[int, int, int]) -> None:
    centre = (int(x * FACE_W), int(y * FACE_H))
    cv2.circle(canvas, centre, radius, colour, -1, cv2.LINE_AA)
    cv2.circle(canvas, centre, int(radius * 0.7), IVORY, max(1, radius // 6), cv2.LINE_AA)
    cv2.circle(canvas, centre, int(radius * 0.35), colour, -1, cv2.LINE_AA)


def _stick(  # noqa: PLR0917 - a drawing primitive, positional like cv2's
    canvas: np.ndarray,
    x: float,
    y: float,
    tilt: float,
    colour: tuple[int, int, int],
    length: int = 54,
    width: int = 12,
) -> None:
    rect = ((x * FACE_W, y * FACE_H), (width, length), tilt)
    box = cv2.boxPoints(rect).astype(np.int32)
    cv2.fillConvexPoly(canvas, box, colour, cv2.LINE_AA)
    c, s = np.cos(np.radians(tilt)), np.sin(np.radians(tilt))
    for frac in (-0.25, 0.0, 0.25):  # the bamboo's nodes
        cx, cy = x * FACE_W - s * frac * length, y * FACE_H + c * frac * length
        cv2.line(
            canvas,
            (int(cx - c * width / 2), int(cy - s * width / 2)),
            (int(cx + c * width / 2), int(cy + s * width / 2)),
            IVORY,
            2,
            cv2.LINE_AA,
        )


def _bird(canvas: np.ndarray) -> None:
    """The one of bamboo: a stylised peacock, distinct from every other face."""
    cv2.ellipse(canvas, (60, 95), (34, 44), 0, 0, 360, GREEN, -1, cv2.LINE_AA)
    for angle in range(200, 350, 30):
        end = (int(60 + 50 * np.cos(np.radians(angle))), int(95 + 55 * np.sin(np.radians(angle))))
        cv2.line(canvas, (60, 95), end, BLUE, 4, cv2.LINE_AA)
    cv2.circle(canvas, (60, 45), 14, RED, -1, cv2.LINE_AA)
    cv2.circle(canvas, (64, 42), 4, BLACK, -1, cv2.LINE_AA)
    cv2.fillConvexPoly(canvas, np.array([[74, 44], [88, 50], [74, 50]], np.int32), RED)
    cv2.ellipse(canvas, (60, 100), (14, 18), 0, 0, 360, RED, -1, cv2.LINE_AA)


def draw_face(name: str, font: str) -> np.ndarray:
    """One upright face in the engine's notation (``"5m"``, ``"E"``, ``"3f"``) or ``"back"``."""
    canvas = np.full((FACE_H, FACE_W, 3), IVORY, np.uint8)
    if name == "back":
        canvas[:] = (70, 120, 20)
        cv2.rectangle(canvas, (10, 10), (FACE_W - 11, FACE_H - 11), (90, 150, 40), 3)
        return canvas
    suit, rank = (name[-1], int(name[0])) if name[0].isdigit() else (name, 0)
    if suit == "m":
        _glyph(canvas, NUMERALS[rank - 1], font, 62, (60, 42), BLUE if rank % 2 else BLACK)
        _glyph(canvas, "萬", font, 74, (60, 112), RED)
    elif suit == "p":
        radius = {1: 44, 2: 24, 3: 20, 4: 22, 5: 19, 6: 17, 7: 14, 8: 14, 9: 16}[rank]
        for x, y, colour in DOT_LAYOUTS[rank]:
            _dot(canvas, x, y, radius, colour)
        if rank == 1:
            cv2.circle(canvas, (60, 80), 14, GREEN, -1, cv2.LINE_AA)
    elif suit == "s":
        if rank == 1:
            _bird(canvas)
        for x, y, tilt, colour in BAMBOO_LAYOUTS.get(rank, []):
            _stick(canvas, x, y, tilt, colour, length=44 if rank >= 7 else 54)
    elif suit == "f":
        glyph_colour = GREEN if rank <= 4 else BLUE
        _glyph(canvas, FLOWER_GLYPHS[rank - 1], font, 76, (60, 92), glyph_colour)
        _glyph(canvas, str((rank - 1) % 4 + 1), font, 30, (22, 24), RED)
        cv2.ellipse(canvas, (60, 150), (40, 6), 0, 180, 360, glyph_colour, 3, cv2.LINE_AA)
    elif name in WIND_KEYS:
        _glyph(canvas, WIND_GLYPHS[WIND_KEYS.index(name)], font, 96, (60, 82), BLACK)
    elif name == "C":
        _glyph(canvas, "中", font, 100, (60, 82), RED)
    elif name == "F":
        _glyph(canvas, "發", font, 96, (60, 82), GREEN)
    elif name == "P":
        cv2.rectangle(canvas, (16, 16), (FACE_W - 17, FACE_H - 17), BLUE, 5)
        cv2.rectangle(canvas, (28, 28), (FACE_W - 29, FACE_H - 29), BLUE, 2)
    else:
        raise ValueError(f"no face for {name!r}")
    return canvas


WIND_KEYS = "ESWN"


def class_names() -> list[str]:
    """The 43 class names in the engine's index order, then ``back``."""
    from engine.tiles import ALL_TILES

    return [str(tile) for tile in ALL_TILES] + ["back"]


def load_faces(directory: Path = FACES_DIR) -> dict[str, np.ndarray]:
    """The committed faces, keyed by class name (BGR, 160x120)."""
    faces = {}
    for name in class_names():
        image = cv2.imread(str(directory / f"{name}.png"), cv2.IMREAD_COLOR)
        if image is None:
            raise FileNotFoundError(
                f"missing face {directory / name}.png: run python -m models.art.faces"
            )
        faces[name] = image
    return faces


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--font", default="/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc")
    parser.add_argument("--out", type=Path, default=FACES_DIR)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in class_names():
        cv2.imwrite(str(args.out / f"{name}.png"), draw_face(name, args.font))
    print(f"wrote {len(class_names())} faces to {args.out}")


if __name__ == "__main__":
    main()
