"""Tile faces for the web pages, drawn here as one SVG sprite (``tiles.svg``).

Each tile is a ``<symbol id="t-<code>">`` (codes in the project notation: ``5m``, ``E``, ``C``,
``3f``; ``back`` for a face-down tile) that the pages place with ``<use href="tiles.svg#t-5m">``.
Dots and bamboo are drawn as geometry; characters, winds, dragons and flowers as glyph outlines
(paths from Noto Serif CJK, ``vendor/noto-cjk-glyphs.json``, made by ``build_glyphs``), so no
face needs a font. Regenerate the committed file with ``python -m tilesight.web.tiles``; a test
checks that the file matches this generator.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.tiles import FLOWERS, KINDS

SPRITE = Path(__file__).with_name("tiles.svg")
GLYPHS = Path(__file__).with_name("vendor") / "noto-cjk-glyphs.json"
WIDTH, HEIGHT = 60, 80
NUMERALS = "一二三四五六七八九"
HONOR_GLYPHS = {
    "E": ("東", "#1b2a4a"),
    "S": ("南", "#1b2a4a"),
    "W": ("西", "#1b2a4a"),
    "N": ("北", "#1b2a4a"),
    "C": ("中", "#c62828"),
    "F": ("發", "#1b7a3a"),
}
FLOWER_GLYPHS = "梅蘭菊竹春夏秋冬"
FLOWER_DIGITS = "1234"
#: Every character a face draws: exactly the glyphs ``build_glyphs`` takes from the font.
GLYPH_CHARS = (
    NUMERALS + "萬" + "".join(g for g, _ in HONOR_GLYPHS.values()) + FLOWER_GLYPHS + FLOWER_DIGITS
)
DOT_COLOURS = ("#1f5fa8", "#1b7a3a", "#c62828")
#: Draws one character: (char, x, y, size, colour) -> SVG, its ink centred on (x, y).
GlyphDrawer = Callable[[str, float, float, float, str], str]

# Pip positions (x, y) inside the 60x80 face for ranks 1-9, shared by dots and bamboo.
PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(30, 40)],
    2: [(30, 24), (30, 56)],
    3: [(17, 20), (30, 40), (43, 60)],
    4: [(19, 24), (41, 24), (19, 56), (41, 56)],
    5: [(18, 20), (42, 20), (30, 40), (18, 60), (42, 60)],
    6: [(20, 19), (40, 19), (20, 40), (40, 40), (20, 61), (40, 61)],
    7: [(15, 14), (30, 22), (45, 30), (20, 48), (40, 48), (20, 66), (40, 66)],
    8: [(20, 14), (40, 14), (20, 31), (40, 31), (20, 49), (40, 49), (20, 66), (40, 66)],
    9: [(15, 18), (30, 18), (45, 18), (15, 40), (30, 40), (45, 40), (15, 62), (30, 62), (45, 62)],
}


def _frame() -> str:
    """The tile body: a green back edge under an ivory face."""
    return (
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="7" fill="#2f7d5a"/>'
        f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 5}" rx="7" fill="#fbf7ea" '
        'stroke="#cfc6ab" stroke-width="1.5"/>'
    )


def _glyph_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GLYPHS.read_text(encoding="utf-8"))
    return data


def glyph_path(char: str, x: float, y: float, size: float, colour: str) -> str:
    """``char``'s outline with its ink centred on (x, y), scaled as text of ``size`` would be."""
    data = _glyph_data()
    scale = size / data["units_per_em"]
    return (
        f'<path transform="translate({x} {y}) scale({scale:.5g})" fill="{colour}" '
        f'd="{data["glyphs"][char]}"/>'
    )


def _dots(rank: int) -> str:
    radius = 15.0 if rank == 1 else 8.5 if rank <= 4 else 7.0 if rank <= 6 else 6.2
    parts = []
    for i, (x, y) in enumerate(PIPS[rank]):
        colour = DOT_COLOURS[(i + rank) % 3] if rank > 1 else DOT_COLOURS[2]
        parts.append(
            f'<circle cx="{x}" cy="{y}" r="{radius}" fill="none" stroke="{colour}" '
            'stroke-width="2.4"/>'
            f'<circle cx="{x}" cy="{y}" r="{radius * 0.45:.2f}" fill="{colour}"/>'
        )
    return "".join(parts)


def _stick(x: float, y: float, length: float, colour: str) -> str:
    top = y - length / 2
    return (
        f'<rect x="{x - 3}" y="{top:.1f}" width="6" height="{length}" rx="3" fill="{colour}"/>'
        f'<line x1="{x - 3}" y1="{y}" x2="{x + 3}" y2="{y}" stroke="#fbf7ea" stroke-width="1.2"/>'
    )


def _bamboo(rank: int) -> str:
    if rank == 1:  # the traditional bird, reduced to a tall stick with a red crest
        return _stick(30, 42, 46, "#1b7a3a") + '<circle cx="30" cy="14" r="6" fill="#c62828"/>'
    length = 24 if rank <= 4 else 15 if rank <= 6 else 13
    parts = []
    for i, (x, y) in enumerate(PIPS[rank]):
        red = (rank in (5, 7, 9) and i == len(PIPS[rank]) // 2) or (rank == 1)
        parts.append(_stick(x, y, length, "#c62828" if red else "#1b7a3a"))
    return "".join(parts)


def face(code: str, glyph: GlyphDrawer = glyph_path) -> str:
    """The drawing (without frame) of one tile, by its notation code; ``glyph`` draws its
    characters (outlines; the tests swap in font text to compare)."""
    if code in HONOR_GLYPHS:
        char, colour = HONOR_GLYPHS[code]
        return glyph(char, 30, 39, 40, colour)
    if code == "P":  # white dragon: an empty blue frame
        return (
            '<rect x="12" y="14" width="36" height="50" rx="3" fill="none" '
            'stroke="#1f5fa8" stroke-width="4"/>'
        )
    rank, suit = int(code[0]), code[1]
    if suit == "m":
        return glyph(NUMERALS[rank - 1], 30, 21, 28, "#1b2a4a") + glyph("萬", 30, 54, 32, "#c62828")
    if suit == "p":
        return _dots(rank)
    if suit == "s":
        return _bamboo(rank)
    if suit == "f":
        colour = "#1f5fa8" if rank <= 4 else "#c62828"
        digit = FLOWER_DIGITS[(rank - 1) % 4]
        return glyph(FLOWER_GLYPHS[rank - 1], 30, 36, 34, colour) + glyph(digit, 49, 66, 14, colour)
    raise ValueError(f"no tile face for {code!r}")


def tile_codes() -> list[str]:
    return [str(t) for t in KINDS + FLOWERS]


def drawing(code: str, glyph: GlyphDrawer = glyph_path) -> str:
    """The whole tile (body and face) by its code, or the back for ``back``."""
    if code == "back":
        return (
            f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="7" fill="#2f7d5a" '
            'stroke="#1d5a3e" stroke-width="1.5"/>'
        )
    return _frame() + face(code, glyph)


def sprite() -> str:
    """The whole sprite file: every tile face and a back."""
    body = "\n".join(
        f'<symbol id="t-{code}" viewBox="0 0 {WIDTH} {HEIGHT}">{drawing(code)}</symbol>'
        for code in [*tile_codes(), "back"]
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg">\n'
        "<!-- generated by python -m tilesight.web.tiles; do not edit -->\n"
        f"<!-- {_notice()} -->\n"
        f"{body}\n</svg>\n"
    )


def _notice() -> str:
    """The font licence notice the glyph outlines carry with them."""
    data = _glyph_data()
    return (
        f"Character glyphs: outlines from {data['font']} ({data['version'].split(';')[0]}), "
        f"{data['copyright']} Licensed under the SIL Open Font License, Version 1.1 "
        "(vendor/noto-cjk-OFL.txt, https://openfontlicense.org)."
    )


def main() -> int:
    SPRITE.write_text(sprite(), encoding="utf-8")
    print(f"wrote {SPRITE} ({len(tile_codes())} faces and a back)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
