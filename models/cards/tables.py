"""Table surfaces for the card scenes: felt of many colours, wood, woven and printed cloth.

Each is drawn procedurally from a seed (no photographs), BGR uint8 at the size asked for.
"""

from __future__ import annotations

import cv2
import numpy as np

KINDS = ("felt", "wood", "cloth", "printed")
_FELTS = (
    (40, 110, 30),  # green
    (50, 90, 20),
    (120, 70, 20),  # blue
    (90, 50, 20),
    (40, 40, 140),  # red
    (35, 35, 35),  # black
    (90, 90, 90),  # grey
    (100, 40, 80),  # purple
    (30, 60, 100),  # brown
    (110, 110, 40),  # teal
)


def _noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    """Smooth noise in [-1, 1]-ish at feature size ``scale`` px."""
    sh, sw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    small = rng.standard_normal((sh, sw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array(_FELTS[rng.integers(len(_FELTS))], np.float32) * rng.uniform(0.75, 1.25)
    grain = rng.standard_normal((h, w)).astype(np.float32)
    grain = cv2.GaussianBlur(grain, (0, 0), 0.8) * rng.uniform(4, 10)
    mottle = _noise(rng, h, w, rng.uniform(40, 160)) * rng.uniform(3, 10)
    return base[None, None, :] * (1 + (grain + mottle)[..., None] / 100)


def _wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    dark = np.array([rng.uniform(20, 50), rng.uniform(45, 80), rng.uniform(80, 130)], np.float32)
    light = dark + np.array([rng.uniform(30, 60), rng.uniform(45, 75), rng.uniform(50, 90)])
    y = np.arange(h, dtype=np.float32)[:, None]
    warp = _noise(rng, h, w, rng.uniform(80, 200)) * rng.uniform(8, 25)
    period = rng.uniform(6, 18)
    rings = 0.5 + 0.5 * np.sin((y + warp) * 2 * np.pi / period)
    streaks = _noise(rng, h, w, 3) * 0.15
    t = np.clip(rings**3 * 0.6 + 0.3 * (_noise(rng, h, w, 60) * 0.5 + 0.5) + streaks, 0, 1)
    wood = dark[None, None, :] * (1 - t[..., None]) + light[None, None, :] * t[..., None]
    plank = int(rng.uniform(120, 400))
    for row in range(plank, h, plank):
        wood[max(0, row - 1) : row + 1] *= 0.55
    return wood


def _cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = rng.uniform(40, 210, 3).astype(np.float32)
    period = rng.uniform(2.5, 5)
    x = np.arange(w, dtype=np.float32)[None, :]
    y = np.arange(h, dtype=np.float32)[:, None]
    weave = np.sin(x * 2 * np.pi / period) * np.sin(y * 2 * np.pi / period)
    shade = 1 + weave * rng.uniform(0.03, 0.08) + _noise(rng, h, w, 90) * 0.04
    return base[None, None, :] * shade[..., None]


def _printed(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    cloth = _cloth(rng, h, w)
    other = rng.uniform(30, 200, 3).astype(np.float32)
    step = int(rng.uniform(40, 160))
    x = np.arange(w)[None, :] // step
    y = np.arange(h)[:, None] // step
    mask = ((x + y) % 2).astype(np.float32)
    if rng.random() < 0.5:  # stripes instead of checks
        mask = (x % 2 * np.ones_like(y)).astype(np.float32)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.0)[..., None]
    return cloth * (1 - mask * 0.5) + other[None, None, :] * mask * 0.5


def surface(rng: np.random.Generator, h: int, w: int, kind: str | None = None) -> np.ndarray:
    """A table surface of ``kind`` (one of :data:`KINDS`; random when None), BGR uint8."""
    kind = kind or KINDS[int(rng.choice(len(KINDS), p=[0.45, 0.25, 0.15, 0.15]))]
    draw = {"felt": _felt, "wood": _wood, "cloth": _cloth, "printed": _printed}[kind]
    image = draw(rng, h, w)
    if kind == "wood" and rng.random() < 0.5:
        image = np.ascontiguousarray(np.rot90(draw(rng, w, h)))
    return np.clip(image, 0, 255).astype(np.uint8)
