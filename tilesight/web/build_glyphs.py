"""Build step (run by a developer, never at run or install time): the CJK glyphs of the tile faces
as SVG path data, from Noto Serif CJK (SIL Open Font License 1.1), then the sprite again.

Writes ``vendor/noto-cjk-glyphs.json`` (exactly the characters :data:`tiles.GLYPH_CHARS`, each
outline centred on its ink box, y down, in font units) and regenerates ``tiles.svg`` from it, so
the pages draw every face with no font at all. Needs fontTools (``pip install fonttools``) and
the font file, e.g. from Debian's ``fonts-noto-cjk`` without installing it (docs/overlay.md)::

    cd /tmp && apt-get download fonts-noto-cjk && dpkg -x fonts-noto-cjk_*.deb /tmp/noto
    python -m tilesight.web.build_glyphs \\
        --font /tmp/noto/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc \\
        --package "Debian fonts-noto-cjk $(dpkg-deb -f /tmp/fonts-noto-cjk_*.deb Version)"
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from fontTools.pens.boundsPen import BoundsPen  # type: ignore[import-untyped]
from fontTools.pens.svgPathPen import SVGPathPen  # type: ignore[import-untyped]
from fontTools.pens.transformPen import TransformPen  # type: ignore[import-untyped]
from fontTools.ttLib import TTCollection, TTFont  # type: ignore[import-untyped]

from tilesight.web import tiles

DEFAULT_FONT = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc")
FAMILY = "Noto Serif CJK TC"  # traditional forms: 萬 發 蘭 as printed on tiles


def pick_font(path: Path, family: str) -> TTFont:
    """The font named ``family`` in a collection (``.ttc``), or the single font of ``path``."""
    fonts = TTCollection(path).fonts if path.suffix.lower() == ".ttc" else [TTFont(path)]
    for font in fonts:
        if font["name"].getDebugName(1) == family:
            return font
    names = [font["name"].getDebugName(1) for font in fonts]
    raise SystemExit(f"{path}: no font of family {family!r} (has {names})")


def outline(font: TTFont, char: str) -> str:
    """One character's outline as SVG path data, centred on its ink box, y pointing down."""
    name = font.getBestCmap().get(ord(char))
    if name is None:
        raise SystemExit(f"the font has no glyph for {char!r}")
    glyphs = font.getGlyphSet()
    bounds = BoundsPen(glyphs)
    glyphs[name].draw(bounds)
    if bounds.bounds is None:
        raise SystemExit(f"the glyph for {char!r} is empty")
    x0, y0, x1, y1 = bounds.bounds
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    pen = SVGPathPen(glyphs, ntos=lambda v: str(round(v)))
    glyphs[name].draw(TransformPen(pen, (1, 0, 0, -1, -cx, cy)))  # (x - cx, cy - y)
    commands: str = pen.getCommands()
    return commands


def build(font: TTFont, package: str) -> dict[str, Any]:
    name = font["name"]
    return {
        "font": name.getDebugName(4),
        "version": name.getDebugName(5),
        "copyright": name.getDebugName(0),
        "license": "SIL Open Font License 1.1 (vendor/noto-cjk-OFL.txt)",
        "source": package,
        "units_per_em": font["head"].unitsPerEm,
        "glyphs": {char: outline(font, char) for char in tiles.GLYPH_CHARS},
    }


def dump(data: dict[str, Any]) -> str:
    """JSON with one glyph a line (readable diffs)."""
    head = {k: v for k, v in data.items() if k != "glyphs"}
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "glyphs": {']
    items = [
        f"{json.dumps(c, ensure_ascii=False)}: {json.dumps(g)}" for c, g in data["glyphs"].items()
    ]
    lines.append(",\n".join(items))
    lines.append("}}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--font", type=Path, default=DEFAULT_FONT, help="NotoSerifCJK-Bold.ttc")
    parser.add_argument("--family", default=FAMILY)
    parser.add_argument("--package", default="", help="where the font came from (recorded)")
    args = parser.parse_args(argv)
    data = build(pick_font(args.font, args.family), args.package)
    text = dump(data)
    json.loads(text)  # well-formed
    tiles.GLYPHS.write_text(text, encoding="utf-8")
    size = len(text.encode())
    print(f"wrote {tiles.GLYPHS} ({len(data['glyphs'])} glyphs, {size} bytes)", file=sys.stderr)
    return tiles.main()


if __name__ == "__main__":
    raise SystemExit(main())
