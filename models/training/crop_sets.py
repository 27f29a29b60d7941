"""Classifier training crops made from face images: real photos and font-lettered flowers,
shrunk to crop size with jittered framing, both ways up (rendered tables give the rest)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.crops import CROP_H, CROP_W, TILE_NAMES


def photo_crops(shared: Path, copies: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The real training photos (models.drawn.dataset.camerash_photos) shrunk to table resolution,
    both ways up, with jittered framing."""
    from models.drawn.dataset import camerash_photos

    return jittered_crops(camerash_photos(shared), copies, seed)


def lettered_flower_crops(variants: int, copies: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Flower faces lettered in installed fonts (models.art.font_flowers), cut like the photos."""
    from models.art.font_flowers import font_flower_faces

    faces = font_flower_faces(np.random.default_rng(seed), variants)
    items = [(name, face) for name, images in faces.items() for face in images]
    return jittered_crops(items, copies, seed)


def jittered_crops(
    items: list[tuple[str, np.ndarray]],
    copies: int,
    seed: int,
    size: tuple[int, int] = (CROP_W, CROP_H),
) -> tuple[np.ndarray, np.ndarray]:
    """Each (name, face image) shrunk to ``size`` (width, height) ``copies`` times, both ways
    up, jittered."""
    rng = np.random.default_rng(seed)
    crop_w, crop_h = size
    xs, ys = [], []
    for name, photo in items:
        kind = TILE_NAMES.index(name)
        for copy in range(copies):
            h, w = photo.shape[:2]
            dx, dy = rng.uniform(-0.06, 0.06, 2) * (w, h)
            box = np.float32([[dx, dy], [w + dx, dy], [w + dx, h + dy]])
            corners = np.float32([[0, 0], [crop_w, 0], [crop_w, crop_h]])
            matrix = cv2.getAffineTransform(box, corners)
            if copy >= 8:  # beyond the plain copies: a slight turn and zoom, as on a table
                turn = cv2.getRotationMatrix2D(
                    (crop_w / 2, crop_h / 2), rng.uniform(-5, 5), rng.uniform(0.92, 1.06)
                )
                matrix = turn @ np.vstack([matrix, [0, 0, 1]])
            crop = cv2.warpAffine(
                photo,
                matrix,
                (crop_w, crop_h),
                flags=cv2.INTER_AREA,
                borderMode=cv2.BORDER_REPLICATE,
            )
            if copy % 3 == 2:
                crop = cv2.GaussianBlur(crop, (3, 3), rng.uniform(0.3, 0.9))
            if copy % 2:
                scale = rng.uniform(0.5, 0.9)
                small = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
                crop = cv2.resize(small, (crop_w, crop_h), interpolation=cv2.INTER_LINEAR)
            upside_down = copy % 4 >= 2
            if upside_down:
                crop = cv2.rotate(crop, cv2.ROTATE_180)
            xs.append(crop)
            ys.append(2 * kind + int(upside_down))
    if not xs:
        return np.zeros((0, crop_h, crop_w, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(xs), np.array(ys, np.int64)
