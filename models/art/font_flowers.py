"""Flower faces lettered in installed fonts, for training only (needs Pillow and CJK fonts).

Real flower tiles letter their plant or season (梅蘭菊竹 / 春夏秋冬) and numeral (1-4 or 一二三四)
in many hands: brush (kai), Song/Ming and heavy sans. Our drawn faces and ``flower_art`` use one
glyph each, and the classifier misread real 梅 tiles lettered differently. With the Debian fonts
installed (``apt-get install fonts-arphic-ukai fonts-arphic-uming fonts-wqy-zenhei
fonts-wqy-microhei fonts-liberation fonts-freefont-ttf``) this draws picture-style variants whose
character and numeral come from a random font, size, ink and corner. The fonts are read at
data-generation time only; nothing from them is committed. Without them :func:`font_flower_faces`
(or without Pillow) returns nothing and training falls back to the drawn faces.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from models.art.faces import FACE_H, FACE_W, FLOWER_GLYPHS
from models.art.flower_art import INKS, picture_face

FONT_DIR = Path("/usr/share/fonts/truetype")
CJK_FONTS = ("arphic/ukai.ttc", "arphic/uming.ttc", "wqy/wqy-zenhei.ttc", "wqy/wqy-microhei.ttc")
LATIN_FONTS = (
    "dejavu/DejaVuSerif.ttf",
    "dejavu/DejaVuSerif-Bold.ttf",
    "dejavu/DejaVuSans-Bold.ttf",
    "freefont/FreeSerif.ttf",
    "freefont/FreeSerifBold.ttf",
    "freefont/FreeSans.ttf",
    "liberation/LiberationSerif-Regular.ttf",
    "liberation/LiberationSans-Bold.ttf",
)
CHINESE_NUMERALS = "一二三四"


def installed(names: tuple[str, ...], root: Path = FONT_DIR) -> list[Path]:
    return [root / name for name in names if (root / name).is_file()]


def _letter(
    canvas: np.ndarray, text: str, font: Path, size: int, *, at: tuple[int, int], ink
) -> None:  # type: ignore[no-untyped-def]
    """Draw ``text`` with its top-left at ``at`` (clipped to the face), in a BGR ``ink``."""
    from PIL import Image, ImageDraw, ImageFont  # training extra only

    face = ImageFont.truetype(str(font), size)
    layer = Image.new("L", (FACE_W, FACE_H), 0)
    ImageDraw.Draw(layer).text(at, text, fill=255, font=face)
    alpha = np.asarray(layer, np.float32)[..., None] / 255
    canvas[:] = (canvas * (1 - alpha) + np.array(ink, np.float32) * alpha).astype(np.uint8)


def font_flower_faces(rng: np.random.Generator, variants: int = 24) -> dict[str, list[np.ndarray]]:
    """``variants`` faces per flower ``1f``-``8f`` lettered in installed fonts ({} if none)."""
    cjk, latin = installed(CJK_FONTS), installed(LATIN_FONTS)
    try:
        import PIL  # noqa: F401  # training extra only
    except ImportError:
        return {}
    if not cjk:
        return {}
    out: dict[str, list[np.ndarray]] = {}
    for rank in range(1, 9):
        glyph, number = FLOWER_GLYPHS[rank - 1], (rank - 1) % 4 + 1
        faces = []
        for _ in range(variants):
            canvas = picture_face(rank, rng, paper=236, tint=(-14, 8), own_motif=0.7)
            inks = [INKS[i] for i in rng.permutation(len(INKS))]
            size = int(rng.integers(26, 42))
            left = rng.random() < 0.5
            glyph_at = (int(rng.integers(4, 12)), int(rng.integers(2, 14)))
            if left:
                glyph_at = (FACE_W - size - glyph_at[0], glyph_at[1])
            font = cjk[int(rng.integers(len(cjk)))]
            _letter(canvas, glyph, font, size, at=glyph_at, ink=inks[0])
            if rng.random() < 0.2:  # some sets letter only the character
                faces.append(canvas)
                continue
            if latin and rng.random() < 0.75:
                text, numeral_font = str(number), latin[int(rng.integers(len(latin)))]
            else:
                text, numeral_font = CHINESE_NUMERALS[number - 1], cjk[int(rng.integers(len(cjk)))]
            numeral_size = int(rng.integers(24, 40))
            numeral_x = int(rng.integers(4, 12))
            if not left:
                numeral_x = FACE_W - numeral_size * 2 // 3 - numeral_x
            numeral_at = (numeral_x, int(rng.integers(0, 12)))
            _letter(canvas, text, numeral_font, numeral_size, at=numeral_at, ink=inks[1])
            faces.append(canvas)
        out[f"{rank}f"] = faces
    return out
