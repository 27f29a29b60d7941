"""What was read, drawn on the photo or frame it was read from, for a person to check.

Each tile's quad is outlined (its top edge, the face's up, drawn thicker) with its reading in
notation; a doubted reading is drawn in another colour with its runner-up (``5p?6p``). Groups
(melds, kongs, concealed tiles) are outlined with their notation, and a banner band across the
top carries the caller's lines and a legend. Line widths and labels scale with the median tile
width and the banner with the image width, so a 300 px thumbnail and a 4000 px photo both read.
Used by ``tilesight score --photo --annotated`` and ``tilesight detect --annotated``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.photo import PhotoTile

Colour = tuple[int, int, int]  # BGR
SURE: Colour = (90, 210, 60)
DOUBTED: Colour = (0, 150, 255)
ALERT: Colour = (60, 60, 255)
TEXT: Colour = (255, 255, 255)
INK: Colour = (20, 20, 20)
FONT = cv2.FONT_HERSHEY_SIMPLEX
GROUP_COLOURS: dict[str, Colour] = {
    "meld": (255, 170, 40),
    "concealed_kong": (230, 90, 220),
    "face_down_kong": (230, 90, 220),
    "concealed": (230, 230, 230),
    "apart": (0, 230, 255),
    "dropped": (60, 60, 255),
}
LEGEND = (("read", SURE), ("doubted?runner-up", DOUBTED))


class AnnotateError(OSError):
    """The annotated image cannot be written; the message names the file."""


@dataclass(frozen=True)
class Outline:
    """A group to outline: indices of its tiles, a label, the kind (picks the colour; a kind
    without a colour, such as flowers lying anywhere, is not outlined)."""

    members: tuple[int, ...]
    label: str
    kind: str = "concealed"


@dataclass(frozen=True)
class _Scale:
    line: int  # px
    font: float  # Hershey scale for tile labels
    text_line: int

    @classmethod
    def of(cls, tiles: Sequence[PhotoTile]) -> _Scale:
        sizes = [min(t.width, t.height) for t in tiles if min(t.width, t.height) > 0]
        tile_px = float(np.median(sizes)) if sizes else 40.0
        font = max(0.3, 0.85 * tile_px / 100)  # "5p?6p" spans ~100 px at scale 1: a tile
        return cls(max(1, round(tile_px / 30)), font, max(1, round(font * 1.6)))


def annotate(
    image: np.ndarray,
    tiles: Sequence[PhotoTile],
    outlines: Sequence[Outline] = (),
    banner: Sequence[str] = (),
    *,
    alert: bool = False,
) -> np.ndarray:
    """A copy of ``image`` (same size) with ``tiles``, ``outlines`` and a banner drawn on it;
    ``alert`` draws the banner's first line in the alert colour (a provisional reading)."""
    out = image.copy()
    scale = _Scale.of(tiles)
    for outline in outlines:
        _outline(out, [tiles[i] for i in outline.members], outline, scale)
    for tile in tiles:
        _tile(out, tile, scale)
    kinds = dict.fromkeys(o.kind for o in outlines if o.kind in GROUP_COLOURS)
    legend = LEGEND + tuple((kind.replace("_", " "), GROUP_COLOURS[kind]) for kind in kinds)
    _banner(out, banner, legend, alert=alert)
    return out


def save(path: Path, image: np.ndarray) -> None:
    """Write ``image`` in the format its suffix names (.png, .jpg, ...)."""
    try:
        ok, data = cv2.imencode(path.suffix or ".png", image)
    except cv2.error:
        ok = False
    if not ok:
        raise AnnotateError(f"cannot encode an image as {path.suffix!r}: use .png or .jpg")
    try:
        path.write_bytes(data.tobytes())
    except OSError as exc:
        raise AnnotateError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None


def tile_label(tile: PhotoTile) -> str:
    """``5p``, or ``5p?6p`` for a doubted reading with its runner-up."""
    if tile.doubted and tile.alternatives:
        return f"{tile.tile}?{tile.alternatives[0][0]}"
    return tile.tile + ("?" if tile.doubted else "")


def _tile(out: np.ndarray, tile: PhotoTile, scale: _Scale) -> None:
    colour = DOUBTED if tile.doubted else SURE
    quad = np.round(tile.quad).astype(np.int32)
    cv2.polylines(out, [quad], True, colour, scale.line, cv2.LINE_AA)
    cv2.line(out, tuple(quad[0]), tuple(quad[1]), colour, 2 * scale.line, cv2.LINE_AA)
    x, y = tile.centre  # the label low on the face, so the face's top stays to be seen
    ux, uy = tile.up
    low = 0.28 * tile.height
    at = (x - ux * low, y - uy * low)
    _label(out, tile_label(tile), at, colour, scale, centred=True, see_through=True)


def _outline(out: np.ndarray, tiles: list[PhotoTile], outline: Outline, scale: _Scale) -> None:
    colour = GROUP_COLOURS.get(outline.kind)
    if not tiles or colour is None:
        return
    points = np.concatenate([t.quad for t in tiles]).astype(np.float32)
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    pad = 2 * max(1.0, float(np.median([min(t.width, t.height) for t in tiles]))) / 10
    box = cv2.boxPoints(((cx, cy), (w + 2 * pad, h + 2 * pad), angle))
    cv2.polylines(out, [np.round(box).astype(np.int32)], True, colour, scale.line, cv2.LINE_AA)
    (_, text_h), _ = cv2.getTextSize(outline.label, FONT, scale.font, scale.text_line)
    below = float(box[:, 1].max()) + pad + text_h * 1.4
    y = below if below < out.shape[0] else float(box[:, 1].min()) - pad
    _label(out, outline.label, (float(box[:, 0].min()), y), colour, scale)


def _label(
    out: np.ndarray,
    text: str,
    at: tuple[float, float],
    colour: Colour,
    scale: _Scale,
    *,
    centred: bool = False,
    see_through: bool = False,
) -> None:
    """``text`` in ink on a ``colour`` backing: readable over any face or felt; a
    ``see_through`` backing lets what lies under it show (a tile's face)."""
    font, thickness = scale.font, scale.text_line
    (w, h), base = cv2.getTextSize(text, FONT, font, thickness)
    x, y = (at[0] - w / 2, at[1] + h / 2) if centred else at
    x0, y0 = round(x), round(y)
    pad = max(1, h // 5)
    top, left = max(0, y0 - h - pad), max(0, x0 - pad)
    bottom, right = min(out.shape[0], y0 + base), min(out.shape[1], x0 + w + pad)
    if bottom > top and right > left:
        area = out[top:bottom, left:right]
        keep = 0.3 if see_through else 0.0
        area[:] = (keep * area + (1 - keep) * np.array(colour)).astype(out.dtype)
    cv2.putText(out, text, (x0, y0), FONT, font, INK, thickness, cv2.LINE_AA)


def _banner(
    out: np.ndarray, lines: Sequence[str], legend: Sequence[tuple[str, Colour]], *, alert: bool
) -> None:
    """A darkened band across the top with ``lines`` and the legend, sized to the image."""
    width = out.shape[1]
    font = max(0.35, width / 1400)
    longest = max([*lines, "  ".join(t for t, _ in legend)], key=len)
    (text_w, _), _ = cv2.getTextSize(longest, FONT, font, max(1, round(font * 1.5)))
    font *= min(1.0, 0.96 * width / max(text_w, 1))
    thickness = max(1, round(font * 1.5))
    (_, text_h), _ = cv2.getTextSize("Ag", FONT, font, thickness)
    step = round(text_h * 1.7)
    height = min(out.shape[0], step * (len(lines) + 1) + step // 2)
    out[:height] = (out[:height] * 0.3).astype(out.dtype)
    x, y = max(2, width // 100), step
    for n, line in enumerate(lines):
        colour = ALERT if alert and n == 0 else TEXT
        cv2.putText(out, line, (x, y), FONT, font, colour, thickness, cv2.LINE_AA)
        y += step
    for text, colour in legend:
        cv2.putText(out, text, (x, y), FONT, font, colour, thickness, cv2.LINE_AA)
        x += cv2.getTextSize(text + "  ", FONT, font, thickness)[0][0]
