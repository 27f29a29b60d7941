"""The camera of the card scenes: a tilted view of the table plane, then light and the ways
a camera spoils a picture (gradients, colour casts, glare, blur, noise, JPEG)."""

from __future__ import annotations

import math

import cv2
import numpy as np


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
