"""Render overhead mahjong-table scenes with exact per-tile labels.

A scene is drawn top-down on a square table canvas, then seen through a camera (homography plus
radial lens distortion) with occluding arms, uneven light, shadows, blur, noise and JPEG. Every tile
keeps its four corners through each step, so the labels are exact: the box of a tile is the bound of
its projected corners, and tiles mostly hidden by an arm are marked as such.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.layout import TILE_W, TableSpec, TileSpot, layout

FELTS = [(40, 110, 30), (110, 70, 20), (50, 50, 140), (70, 70, 70), (30, 90, 90), (120, 40, 60)]
BACKS = [(40, 140, 30), (160, 90, 20), (30, 120, 200), (40, 40, 170), (150, 150, 150)]
SKIN = [(120, 160, 210), (90, 130, 180), (60, 90, 140), (140, 180, 225)]


@dataclass
class Labelled:
    """A drawn tile: its spot on the table and its corners in the output image (4x2 px)."""

    spot: TileSpot
    corners: np.ndarray
    visible: float = 1.0

    @property
    def box(self) -> tuple[float, float, float, float]:
        x1, y1 = self.corners.min(axis=0)
        x2, y2 = self.corners.max(axis=0)
        return float(x1), float(y1), float(x2), float(y2)


def _felt(size: int, rng: np.random.Generator) -> np.ndarray:
    colour = np.array(FELTS[rng.integers(len(FELTS))], np.float32) * rng.uniform(0.7, 1.3, 3)
    coarse = cv2.resize(rng.normal(0, 1, (8, 8)).astype(np.float32), (size, size))
    grain = rng.normal(0, rng.uniform(2, 9), (size, size)).astype(np.float32)
    canvas = colour[None, None, :] * (1 + 0.08 * coarse[..., None]) + grain[..., None]
    return np.clip(canvas, 0, 255).astype(np.uint8)


def _sprite(face: np.ndarray, back: tuple[int, int, int], rng: np.random.Generator) -> np.ndarray:
    """A tile seen from above: ivory body around the face, with a little colour jitter."""
    if face is None:
        raise ValueError("missing face image")
    h, w = face.shape[:2]
    pad = int(w * rng.uniform(0.04, 0.1))
    body = np.full((h + 2 * pad, w + 2 * pad, 3), face[2, 2], np.uint8)
    body[pad : pad + h, pad : pad + w] = face
    gain = rng.uniform(0.85, 1.1, 3) * rng.uniform(0.85, 1.1)
    shaded = body.astype(np.float32) * gain * _bevel(body.shape[:2], rng)[..., None]
    return np.clip(shaded, 0, 255).astype(np.uint8)


def _bevel(shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Brightness of a tile's rounded rim: darker toward every edge, lit a little on one side,
    so touching tiles (a wall of backs) show the seams real tiles show."""
    h, w = shape
    rim = max(2.0, w * rng.uniform(0.06, 0.11))
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    edge = np.minimum(np.minimum(xs, w - 1 - xs), np.minimum(ys, h - 1 - ys))
    depth = np.clip(edge / rim, 0, 1)
    light = rng.uniform(-1, 1, 2)
    side = ((xs / w - 0.5) * light[0] + (ys / h - 0.5) * light[1]) * (1 - depth)
    return np.asarray(rng.uniform(0.6, 0.8) + (1 - 0.7) * depth + 0.25 * side, np.float32)


def render_table(
    spec: TableSpec, faces: dict[str, list[np.ndarray]], size: int, rng: np.random.Generator
) -> tuple[np.ndarray, list[Labelled]]:
    """The table seen straight from above at ``size`` px, with each tile's corners in px."""
    canvas = _felt(size, rng)
    back = BACKS[rng.integers(len(BACKS))]
    shadow_dir = rng.uniform(-1, 1, 2) * size * 0.004
    labels: list[Labelled] = []
    for planned in layout(spec):
        spot = replace(
            planned,
            centre=(
                planned.centre[0] + rng.normal(0, 0.0015),
                planned.centre[1] + rng.normal(0, 0.0015),
            ),
        )
        corners = spot.corners(jitter_deg=float(rng.normal(0, 2.0))) * size
        # thickness: the coloured back layer and a soft shadow show beside the face
        side = (corners + shadow_dir * 1.6).astype(np.int32)
        cv2.fillConvexPoly(canvas, side, tuple(int(c * 0.5) for c in back), cv2.LINE_AA)
        cv2.fillConvexPoly(canvas, (corners + shadow_dir).astype(np.int32), back, cv2.LINE_AA)
        options = faces[spot.name]
        face = options[rng.integers(len(options))]
        if spot.name == "back":
            face = np.empty_like(face)
            face[:] = np.array(back) * rng.uniform(0.9, 1.1)
        sprite = _sprite(face, back, rng)
        sh, sw = sprite.shape[:2]
        src = np.float32([[0, 0], [sw, 0], [sw, sh]])
        matrix = cv2.getAffineTransform(src, corners[:3].astype(np.float32))
        x1, y1 = np.floor(corners.min(axis=0)).astype(int) - 1
        x2, y2 = np.ceil(corners.max(axis=0)).astype(int) + 1
        x1, y1, x2, y2 = max(x1, 0), max(y1, 0), min(x2, size), min(y2, size)
        matrix[:, 2] -= (x1, y1)
        patch = cv2.warpAffine(sprite, matrix, (x2 - x1, y2 - y1), flags=cv2.INTER_AREA)
        mask = cv2.warpAffine(np.full((sh, sw), 255, np.uint8), matrix, (x2 - x1, y2 - y1))
        roi = canvas[y1:y2, x1:x2]
        alpha = (mask.astype(np.float32) / 255)[..., None]
        roi[:] = (patch * alpha + roi * (1 - alpha)).astype(np.uint8)
        labels.append(Labelled(spot, corners))
    _concealed_hands(canvas, spec, back, rng)
    return canvas, labels


def _concealed_hands(
    canvas: np.ndarray, spec: TableSpec, back: tuple[int, int, int], rng: np.random.Generator
) -> None:
    """Standing concealed tiles show only their top edges from above: unlabelled strips."""
    from vision.layout import HAND_V, hand_start, to_table

    size = canvas.shape[0]
    for seat in range(4):
        if spec.revealed[seat] is not None or not spec.concealed[seat]:
            continue
        start = hand_start(spec, seat)
        for i in range(spec.concealed[seat]):
            u = start + (i + 0.5) * TILE_W
            for dv, colour in ((0.008, (225, 235, 240)), (0.014, back)):
                pts = [
                    to_table(seat, u + du, HAND_V + dv + dd)
                    for du, dd in (
                        (-TILE_W / 2, 0),
                        (TILE_W / 2, 0),
                        (TILE_W / 2, 0.007),
                        (-TILE_W / 2, 0.007),
                    )
                ]
                poly = (np.array(pts) * size).astype(np.int32)
                shade = tuple(int(c * rng.uniform(0.85, 1.05)) for c in colour)
                cv2.fillConvexPoly(canvas, poly, shade, cv2.LINE_AA)


def add_arms(image: np.ndarray, rng: np.random.Generator, count: int) -> np.ndarray:
    """Draw ``count`` arms reaching in from the image edges; returns the occlusion mask."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    for _ in range(count):
        edge = rng.integers(4)
        start = [
            (rng.uniform(0, w), h),
            (w, rng.uniform(0, h)),
            (rng.uniform(0, w), 0),
            (0, rng.uniform(0, h)),
        ][edge]
        reach = rng.uniform(0.15, 0.5) * min(h, w)
        angle = np.radians([270, 180, 90, 0][edge] + rng.normal(0, 25))
        end = (start[0] + reach * np.cos(angle), start[1] + reach * np.sin(angle))
        width = int(rng.uniform(0.05, 0.09) * min(h, w))
        colour = (
            SKIN[rng.integers(len(SKIN))]
            if rng.random() < 0.5
            else tuple(int(c) for c in rng.integers(20, 230, 3))
        )
        p0, p1 = tuple(int(v) for v in start), tuple(int(v) for v in end)
        cv2.line(image, p0, p1, colour, width, cv2.LINE_AA)
        cv2.line(mask, p0, p1, 255, width)
        hand = SKIN[rng.integers(len(SKIN))]
        cv2.ellipse(
            image,
            p1,
            (int(width * 0.7), int(width * 0.55)),
            float(np.degrees(angle)),
            0,
            360,
            hand,
            -1,
            cv2.LINE_AA,
        )
        cv2.ellipse(
            mask,
            p1,
            (int(width * 0.7), int(width * 0.55)),
            float(np.degrees(angle)),
            0,
            360,
            255,
            -1,
        )
    return mask


def lighting(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uneven light, a soft shadow band, optional motion blur, sensor noise."""
    h, w = image.shape[:2]
    sh, sw = max(h // 8, 4), max(w // 8, 4)  # light varies slowly: build it small, then upscale
    gain = cv2.resize(
        rng.uniform(0.65, 1.2, (3, 3)).astype(np.float32), (sw, sh), interpolation=cv2.INTER_CUBIC
    )
    if rng.random() < 0.5:
        shadow = np.ones((sh, sw), np.float32)
        pts = rng.uniform(0, 1, (4, 2)) * (sw, sh)
        cv2.fillConvexPoly(shadow, cv2.convexHull(pts.astype(np.int32)), rng.uniform(0.55, 0.85))
        gain *= cv2.GaussianBlur(shadow, (0, 0), max(sh, sw) * 0.02 + 0.5)
    gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    out = image.astype(np.float32) * gain[..., None]
    if rng.random() < 0.3:
        length = int(rng.integers(3, 9))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6))
    out += rng.standard_normal(out.shape, dtype=np.float32) * rng.uniform(1, 7)
    return np.clip(out, 0, 255).astype(np.uint8)


def jpeg(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    quality = int(rng.integers(35, 95))
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def visible_fraction(mask: np.ndarray, corners: np.ndarray) -> float:
    """The share of a tile's area not covered by ``mask`` (255 = occluded)."""
    x1, y1 = np.floor(corners.min(axis=0)).astype(int)
    x2, y2 = np.ceil(corners.max(axis=0)).astype(int) + 1
    h, w = mask.shape
    x1, y1, x2, y2 = max(x1, 0), max(y1, 0), min(x2, w), min(y2, h)
    if x2 <= x1 or y2 <= y1:
        return 0.0
    tile = np.zeros((y2 - y1, x2 - x1), np.uint8)
    cv2.fillConvexPoly(tile, (corners - (x1, y1)).astype(np.int32), 1)
    area = int(tile.sum())
    if area == 0:
        return 0.0
    covered = int(((mask[y1:y2, x1:x2] > 0) & (tile > 0)).sum())
    return 1 - covered / area
