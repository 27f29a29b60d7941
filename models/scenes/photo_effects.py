"""What a phone or webcam adds to a clean render: white balance, exposure, focus and motion
blur, vignetting, sensor noise, lost resolution and JPEG. Applied when a training set is written,
so one render gives several photographs."""

from __future__ import annotations

import cv2
import numpy as np


def _motion_kernel(length: int, angle: float) -> np.ndarray:
    kernel = np.zeros((length, length), np.float32)
    centre = (length - 1) / 2
    dx, dy = np.cos(angle) * centre, np.sin(angle) * centre
    cv2.line(
        kernel,
        (round(centre - dx), round(centre - dy)),
        (round(centre + dx), round(centre + dy)),
        1.0,
        1,
        cv2.LINE_AA,
    )
    return kernel / max(float(kernel.sum()), 1e-6)


def photograph(image: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """``image`` (BGR uint8) as a camera might have taken it; ``strength`` 0 returns a copy."""
    out = image.astype(np.float32)
    if strength <= 0:
        return image.copy()
    out *= rng.uniform(1 - 0.15 * strength, 1 + 0.15 * strength, 3)[None, None, :]  # balance
    out = 255 * (np.clip(out, 0, 255) / 255) ** rng.uniform(0.8, 1.25)  # exposure curve
    h, w = out.shape[:2]
    if rng.random() < 0.3 * strength:  # vignetting
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xs - w / 2) / (w / 2)) ** 2 + ((ys - h / 2) / (h / 2)) ** 2
        out *= (1 - rng.uniform(0.1, 0.35) * r2 / 2)[..., None]
    if rng.random() < 0.3 * strength:  # out of focus
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.5, 1.6)))
    if rng.random() < 0.2 * strength:  # a shaky hand
        length = int(rng.integers(3, 9))
        out = cv2.filter2D(out, -1, _motion_kernel(length, float(rng.uniform(0, np.pi))))
    if rng.random() < 0.2 * strength:  # a smaller sensor, scaled up
        factor = float(rng.uniform(0.45, 0.8))
        small = cv2.resize(out, (max(1, int(w * factor)), max(1, int(h * factor))))
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.7 * strength:  # sensor noise, stronger in the dark
        sigma = float(rng.uniform(1, 7))
        shot = np.sqrt(np.clip(out, 0, 255) / 255 + 0.05)
        out += rng.normal(0, sigma, out.shape).astype(np.float32) * shot
    result = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.85 * strength:
        quality = int(rng.integers(40, 96))
        ok, data = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if ok:
            result = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return result
