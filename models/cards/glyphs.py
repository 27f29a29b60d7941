"""Glyph outlines for the card art, rasterised with OpenCV (no font is ever asked for).

The outlines are those the Gouji overlay already vendors (``tilesight/web/vendor/card-glyphs.js``:
ranks ``0-9 A J Q K`` from DejaVu Sans Bold, the Chinese ``大 小 王`` from Droid Sans Fallback;
licences in ``card-glyphs-LICENSES.txt`` beside it). Their SVG path data (``M L H V Q Z``, y down,
1000 units an em, baseline at 0) is flattened here into polygons and filled even-odd, so the
holes of ``0 4 6 8 9 A Q`` stay open. Suit pips and the joker's star are plain geometry drawn
here (:func:`draw_pip`).
"""

from __future__ import annotations

import json
import math
import re
from functools import cache
from pathlib import Path

import cv2
import numpy as np

GLYPHS_JS = Path(__file__).resolve().parents[2] / "tilesight" / "web" / "vendor" / "card-glyphs.js"
EM = 1000.0
_TOKEN = re.compile(r"[MLHVQZ]|-?\d+(?:\.\d+)?")
_CURVE_STEPS = 6
_SHIFT = 4  # fixed-point bits for cv2.fillPoly


@cache
def _glyph_table() -> dict[str, dict[str, object]]:
    text = GLYPHS_JS.read_text(encoding="utf-8")
    data = json.loads(text[text.index("{") : text.rindex("}") + 1])
    glyphs: dict[str, dict[str, object]] = data["glyphs"]
    return glyphs


def contours(char: str) -> tuple[list[np.ndarray], float]:
    """The glyph of ``char`` as closed polygons (em units, y down, baseline 0) and its advance."""
    glyph = _glyph_table().get(char)
    if glyph is None:
        raise KeyError(f"no glyph outline for {char!r}")
    tokens = _TOKEN.findall(str(glyph["d"]))
    polys: list[np.ndarray] = []
    points: list[tuple[float, float]] = []
    x = y = 0.0
    at = 0

    def number() -> float:
        nonlocal at
        value = float(tokens[at])
        at += 1
        return value

    command = ""
    while at < len(tokens):
        if tokens[at] in "MLHVQZ":
            command = tokens[at]
            at += 1
        if command == "M":
            if len(points) > 2:
                polys.append(np.array(points))
            x, y = number(), number()
            points = [(x, y)]
            command = "L"  # implicit lineto after a moveto
        elif command == "L":
            x, y = number(), number()
            points.append((x, y))
        elif command == "H":
            x = number()
            points.append((x, y))
        elif command == "V":
            y = number()
            points.append((x, y))
        elif command == "Q":
            cx, cy, ex, ey = number(), number(), number(), number()
            for t in np.linspace(0, 1, _CURVE_STEPS + 1)[1:]:
                px = (1 - t) ** 2 * x + 2 * (1 - t) * t * cx + t * t * ex
                py = (1 - t) ** 2 * y + 2 * (1 - t) * t * cy + t * t * ey
                points.append((float(px), float(py)))
            x, y = ex, ey
        elif command == "Z":
            if len(points) > 2:
                polys.append(np.array(points))
            points = []
    if len(points) > 2:
        polys.append(np.array(points))
    return polys, float(glyph["w"])  # type: ignore[arg-type]


def text_width(text: str, size: float) -> float:
    """Advance of ``text`` at ``size`` px an em."""
    return sum(contours(ch)[1] for ch in text) * size / EM


def ink_box(text: str) -> tuple[float, float, float, float]:
    """Ink bounds of ``text`` at 1 px an em, pen at 0 and baseline 0: x0, y0, x1, y1."""
    pen, boxes = 0.0, []
    for ch in text:
        polys, advance = contours(ch)
        allpts = np.concatenate(polys) / EM
        boxes.append(
            (
                allpts[:, 0].min() + pen,
                allpts[:, 1].min(),
                allpts[:, 0].max() + pen,
                allpts[:, 1].max(),
            )
        )
        pen += advance / EM
    arr = np.array(boxes)
    return (
        float(arr[:, 0].min()),
        float(arr[:, 1].min()),
        float(arr[:, 2].max()),
        float(arr[:, 3].max()),
    )


def draw_text(
    image: np.ndarray,
    text: str,
    box: tuple[float, float, float, float],
    colour: tuple[int, int, int],
    *,
    rotate180: bool = False,
    condense: float = 1.0,
) -> None:
    """Fill ``text`` into ``image`` so its ink just fits ``box`` (x0, y0, x1, y1 px), centred;
    its width is squeezed at most by ``condense`` (< 1) to fill the box's height, and
    ``rotate180`` turns it upside down about the box centre."""
    x0, y0, x1, y1 = ink_box(text)
    scale_y = min((box[2] - box[0]) / ((x1 - x0) * condense), (box[3] - box[1]) / (y1 - y0))
    scale = min(scale_y, (box[2] - box[0]) / (x1 - x0))
    scale_x, scale = scale, scale_y
    off_x = (box[0] + box[2]) / 2 - scale_x * (x0 + x1) / 2
    off_y = (box[1] + box[3]) / 2 - scale * (y0 + y1) / 2
    centre = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])
    pen, polys = 0.0, []
    for ch in text:
        shapes, advance = contours(ch)
        for poly in shapes:
            pts = np.stack(
                [(poly[:, 0] / EM + pen) * scale_x + off_x, poly[:, 1] / EM * scale + off_y], 1
            )
            if rotate180:
                pts = 2 * centre - pts
            polys.append(np.round(pts * (1 << _SHIFT)).astype(np.int32))
        pen += advance / EM
    cv2.fillPoly(image, polys, colour, cv2.LINE_AA, _SHIFT)


_ONE = 1 << _SHIFT


def _fixed(points: np.ndarray) -> np.ndarray:
    return np.round(points * _ONE).astype(np.int32)


def _unit_shape(kind: str) -> tuple[list[np.ndarray], list[tuple[float, float, float]]]:
    """Polygons and circles (x, y, r) in a unit box, y down, for ``kind`` in ``s h d c star``."""
    polys: list[np.ndarray] = []
    circles: list[tuple[float, float, float]] = []
    if kind == "d":
        polys.append(np.array([(0.5, 0.0), (0.92, 0.5), (0.5, 1.0), (0.08, 0.5)]))
    elif kind == "h":
        circles += [(0.27, 0.28, 0.26), (0.73, 0.28, 0.26)]
        polys.append(np.array([(0.03, 0.36), (0.5, 1.0), (0.97, 0.36), (0.5, 0.2)]))
    elif kind == "s":
        circles += [(0.27, 0.6, 0.24), (0.73, 0.6, 0.24)]
        polys.append(np.array([(0.04, 0.53), (0.5, 0.0), (0.96, 0.53), (0.5, 0.75)]))
        polys.append(np.array([(0.5, 0.62), (0.66, 1.0), (0.34, 1.0)]))
    elif kind == "c":
        circles += [(0.5, 0.25, 0.22), (0.25, 0.57, 0.22), (0.75, 0.57, 0.22)]
        polys.append(np.array([(0.42, 0.4), (0.58, 0.4), (0.68, 1.0), (0.32, 1.0)]))
        polys.append(np.array([(0.35, 0.4), (0.65, 0.4), (0.65, 0.6), (0.35, 0.6)]))
    elif kind == "star":
        pts = []
        for i in range(10):
            radius = 0.5 if i % 2 == 0 else 0.2
            angle = -math.pi / 2 + i * math.pi / 5
            pts.append((0.5 + radius * math.cos(angle), 0.53 + radius * math.sin(angle)))
        polys.append(np.array(pts))
    else:
        raise ValueError(f"unknown pip {kind!r}")
    return polys, circles


def draw_pip(
    image: np.ndarray,
    kind: str,
    box: tuple[float, float, float, float],
    colour: tuple[int, int, int],
    *,
    rotate180: bool = False,
) -> None:
    """Fill the pip ``kind`` (``s h d c`` or ``star``) into ``box`` of ``image``."""
    polys, circles = _unit_shape(kind)
    x0, y0, x1, y1 = box
    size = np.array([x1 - x0, y1 - y0])

    def place(points: np.ndarray) -> np.ndarray:
        if rotate180:
            points = 1.0 - points
        return points * size + (x0, y0)

    cv2.fillPoly(image, [_fixed(place(p)) for p in polys], colour, cv2.LINE_AA, _SHIFT)
    for cx, cy, r in circles:
        centre = place(np.array([[cx, cy]]))[0]
        radius = r * float(min(size))
        cv2.circle(
            image, tuple(_fixed(centre)), int(radius * _ONE), colour, -1, cv2.LINE_AA, _SHIFT
        )
