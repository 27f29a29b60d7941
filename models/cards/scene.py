"""Rendered card scenes with labels: cards composited on a table plane (soft shadows, in
z-order), seen by a camera up to ~30 degrees off vertical, then lit and spoilt as a camera
would (:func:`photograph`).

``render(seed)`` gives the image and, for every card, its code (None face down), its corner
quad in the image and the quads of the corner indices that show (>= 95 % unoccluded, inside).
Seeds are the split: training uses seeds below :data:`HELD_OUT_FROM`, evaluation at or above.

    python -m models.cards.scene --seed 1000001 --out /tmp/scene.jpg   # one scene and its labels
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from models.cards.art import (
    CARD_H_MM,
    CARD_W_MM,
    COLOURS,
    PATTERNS,
    PX_PER_MM,
    back,
    card_mask,
    face,
    index_box_mm,
    random_style,
)
from models.cards.layout import Placed, card_corners, layout, mm_to_plane
from models.cards.tables import surface

HELD_OUT_FROM = 1_000_000
FRAME = (1920, 1080)
PLANE = (2400, 1500)


@dataclass
class CardLabel:
    """One card: ``code`` (None face down), ``quad`` 4 x 2 px (its own TL, TR, BR, BL), the
    quads of its corner indices that show (each ordered as the index reads upright)."""

    code: str | None
    quad: np.ndarray
    indices: list[np.ndarray] = field(default_factory=list)
    hidden: list[np.ndarray] = field(default_factory=list)  # indices covered or cut off

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "quad": np.round(self.quad, 1).tolist(),
            "indices": [np.round(q, 1).tolist() for q in self.indices],
            "hidden": [np.round(q, 1).tolist() for q in self.hidden],
        }


@dataclass
class Scene:
    image: np.ndarray
    cards: list[CardLabel]
    card_height: float  # nominal px of a card's height on the plane


def tilt_homography(
    rng: np.random.Generator, plane: tuple[int, int], frame: tuple[int, int], max_tilt: float
) -> np.ndarray:
    """Plane px -> frame px for a camera up to ``max_tilt`` degrees off vertical, looking at
    the plane's centre from any side, framing about ``frame`` px of it."""
    tilt = math.radians(rng.uniform(0, max_tilt))
    spread = math.tan(tilt) * 0.55  # how much wider the far edge is than the near one
    fw, fh = frame
    half = np.array([[-fw / 2, -fh / 2], [fw / 2, -fh / 2], [fw / 2, fh / 2], [-fw / 2, fh / 2]])
    widen = np.array([1 + spread / 2, 1 + spread / 2, 1 - spread / 2, 1 - spread / 2])
    seen = half * np.stack([widen, np.ones(4)], 1) * rng.uniform(0.95, 1.05)
    seen[:, 1] *= 1 + spread * 0.3
    turn = rng.uniform(-math.pi, math.pi)
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    seen = seen @ rot.T + np.array(plane) / 2 + rng.normal(0, 30, 2)
    return cv2.getPerspectiveTransform(
        np.float32(seen), np.float32(half + np.array([fw / 2, fh / 2]))
    )


def photograph(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """``image`` (BGR uint8) lit unevenly, colour cast, maybe glare, blurred, noisy, JPEG'd."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = ((xx - w / 2) * math.cos(angle) + (yy - h / 2) * math.sin(angle)) / max(h, w)
    vignette = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (max(h, w) / 2) ** 2
    light = rng.uniform(0.75, 1.15) + ramp * rng.uniform(0, 0.5) - vignette * rng.uniform(0, 0.25)
    if rng.random() < 0.3:  # glare from a lamp
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        radius = rng.uniform(0.1, 0.3) * w
        light += rng.uniform(0.1, 0.35) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / radius**2)
    light = cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)
    cast = rng.uniform(0.85, 1.12, 3).astype(np.float32)
    out = image.astype(np.float32) * light[..., None] * cast[None, None, :]
    kind = rng.random()
    if kind < 0.4:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.4))
    elif kind < 0.55:  # motion blur
        length = int(rng.integers(3, 7))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2] = 1 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6))
    noise = np.empty(out.shape, np.float32)
    cv2.setRNGSeed(int(rng.integers(1 << 30)))
    cv2.randn(noise, 0.0, float(rng.uniform(1, 6)))
    out += noise
    out = np.clip(out, 0, 255).astype(np.uint8)
    quality = int(rng.integers(45, 96))
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def _index_quads(card: Placed) -> list[np.ndarray]:
    x0, y0, x1, y1 = index_box_mm(card.style)
    top = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    bottom = np.array([CARD_W_MM, CARD_H_MM]) - top  # the turned index, corners in its order
    return [mm_to_plane(card, top), mm_to_plane(card, bottom)]


def _paste(
    plane: np.ndarray,
    ids: np.ndarray,
    card: Placed,
    number: int,
    *,
    rng: np.random.Generator,
    light: np.ndarray,
) -> None:
    art = face(card.code, card.style) if card.code else back(*card.back)  # type: ignore[misc]
    mask = card_mask()
    scale = card.height / (CARD_H_MM * PX_PER_MM)
    shrink = max(scale * 1.25, 0.05)  # pre-shrink with area averaging, then a mild warp
    art = cv2.resize(art, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    mask = cv2.resize(mask, (art.shape[1], art.shape[0]), interpolation=cv2.INTER_AREA)
    corners = card_corners(card)
    h, w = art.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    pad = int(card.height * 0.12) + 4
    x0, y0 = np.floor(corners.min(0)).astype(int) - pad
    x1, y1 = np.ceil(corners.max(0)).astype(int) + pad
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, plane.shape[1]), min(y1, plane.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    matrix = cv2.getAffineTransform(src[:3], np.float32(corners[:3] - (x0, y0)))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpAffine(art, matrix, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpAffine(mask, matrix, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    shift = np.float32([[1, 0, light[0] * card.height], [0, 1, light[1] * card.height]])
    shadow = cv2.warpAffine(alpha, shift, size)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.8, card.height * rng.uniform(0.006, 0.025)))
    roi = plane[y0:y1, x0:x1].astype(np.float32)
    roi *= 1 - (shadow * light[2])[..., None]
    tint = rng.uniform(0.94, 1.04)
    roi = roi * (1 - alpha[..., None]) + warped.astype(np.float32) * tint * alpha[..., None]
    plane[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    ids[y0:y1, x0:x1][alpha > 0.5] = number


def _shows(ids: np.ndarray, quad: np.ndarray, number: int) -> bool:
    mask = np.zeros(ids.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
    inside = mask.astype(bool)
    total = int(inside.sum())
    return total > 0 and float((ids[inside] == number).mean()) >= 0.95


def render(seed: int, *, frame: tuple[int, int] = FRAME, max_tilt: float = 30.0) -> Scene:
    """The scene of ``seed`` at ``frame`` (width, height) px."""
    rng = np.random.default_rng(seed)
    plane_w, plane_h = PLANE
    plane = surface(rng, plane_h, plane_w)
    table = plane.copy()
    height = float(rng.uniform(110, 175)) * frame[1] / 1080
    area = (plane_w * 0.16, plane_h * 0.16, plane_w * 0.84, plane_h * 0.84)
    back_style = (int(rng.integers(len(COLOURS))), str(rng.choice(PATTERNS)))
    cards = layout(rng, area, height, random_style(rng), back_style)
    ids = np.zeros((plane_h, plane_w), np.int32)
    angle = rng.uniform(0, 2 * np.pi)
    offset = rng.uniform(0.003, 0.015)  # cards lie flat: a thin shadow
    light = np.array([np.cos(angle) * offset, np.sin(angle) * offset, rng.uniform(0.15, 0.4)])
    for number, card in enumerate(cards, start=1):
        _paste(plane, ids, card, number, rng=rng, light=light)
    homography = tilt_homography(rng, PLANE, frame, max_tilt)
    image = cv2.warpPerspective(plane, homography, frame, flags=cv2.INTER_LINEAR)
    # a turned view can reach past the plane: there the bare table goes on, mirrored
    inside = cv2.warpPerspective(np.ones(plane.shape[:2], np.uint8), homography, frame)
    if not inside.all():
        beyond = cv2.warpPerspective(table, homography, frame, borderMode=cv2.BORDER_REFLECT_101)
        image[inside == 0] = beyond[inside == 0]
    image = photograph(rng, image)

    def to_image(points: np.ndarray) -> np.ndarray:
        pts = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), homography)
        return pts.reshape(-1, 2)

    def inside(quad: np.ndarray) -> bool:
        return bool(
            (quad >= 1).all()
            and (quad[:, 0] < frame[0] - 1).all()
            and (quad[:, 1] < frame[1] - 1).all()
        )

    labels = []
    for number, card in enumerate(cards, start=1):
        label = CardLabel(card.code, to_image(card_corners(card)))
        for quad in _index_quads(card) if card.code else []:
            seen = to_image(quad)
            shows = _shows(ids, quad, number) and inside(seen)
            (label.indices if shows else label.hidden).append(seen)
        labels.append(label)
    return Scene(image, labels, height)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Render one card scene and its labels.")
    parser.add_argument("--seed", type=int, default=HELD_OUT_FROM)
    parser.add_argument(
        "--out", type=Path, required=True, help="image file; labels beside it as .json"
    )
    args = parser.parse_args(argv)
    scene = render(args.seed)
    cv2.imwrite(str(args.out), scene.image)
    labels = [c.to_json() for c in scene.cards]
    args.out.with_suffix(".json").write_text(json.dumps({"seed": args.seed, "cards": labels}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
