"""Photo-like classifier crops drawn in 2D from face images: cheap where renders are dear.

Each crop is a face (our own art, the CC0 riichi art, the real Camerash training photos) on a
tile body with a rim and a darker side, seen through a random perspective (the camera up to 45
degrees off, turned a little), over a random background with neighbouring tiles' edges, lit
unevenly, blurred and noised like a phone's photo, and cut back to the classifier's 48x36 by the
face's own corners as the photo reader cuts it. The Blender renders show real 3D light and
shadow but cost seconds each; these cost microseconds, so every face of every style is seen at
every angle (``python -m models.photo.face_crops`` writes a crop set for models.photo.classifier).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from vision.crops import CROP_H, CROP_W, TILE_NAMES
from vision.photo import warp_crop

BODY = 1.12  # the tile body around a face, as a share of the face's size


def _tile_image(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The face on an ivory body with a rim, 2x the face's size, the face centred."""
    h, w = face.shape[:2]
    canvas = np.zeros((2 * h, 2 * w, 3), np.uint8)
    canvas[:] = rng.uniform(20, 235, 3)
    bw, bh = round(w * BODY), round(h * BODY)
    top, left = h - bh // 2, w - bw // 2
    side = np.array(face[2, 2], np.float32) * rng.uniform(0.45, 0.8)
    shift = rng.integers(-bh // 6, bh // 6 + 1, 2)
    sx, sy = left + int(shift[0]), top + int(shift[1])
    cv2.rectangle(canvas, (sx, sy), (sx + bw, sy + bh), side.tolist(), -1)
    cv2.rectangle(canvas, (left, top), (left + bw, top + bh), face[2, 2].tolist(), -1)
    canvas[h - h // 2 : h - h // 2 + h, w - w // 2 : w - w // 2 + w] = face
    return canvas


def synthesize(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One photo-like 48x36 crop of ``face`` (upright, the way it is read)."""
    tile = _tile_image(face, rng)
    h, w = face.shape[:2]
    x0, y0 = w - w // 2, h - h // 2
    corners = np.float32([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]])
    # a perspective: the far edge shorter (tilt), a little turn and skew, any scale
    tilt = rng.uniform(0, 0.3) * rng.choice([-1, 1])
    spin = rng.normal(0, 0.08)
    centre = corners.mean(axis=0)
    warped = corners - centre
    warped[:, 0] *= 1 + tilt * (warped[:, 1] / (h / 2)) / 2
    warped[:, 1] *= 1 - abs(tilt) / 2
    c, s = np.cos(spin), np.sin(spin)
    warped = warped @ np.float32([[c, s], [-s, c]]) + centre + rng.normal(0, w * 0.02, (4, 2))
    matrix = cv2.getPerspectiveTransform(corners, warped.astype(np.float32))
    size = (tile.shape[1], tile.shape[0])
    photo = cv2.warpPerspective(tile, matrix, size, borderMode=cv2.BORDER_REFLECT)
    ys, xs = np.mgrid[0 : photo.shape[0], 0 : photo.shape[1]].astype(np.float32)
    slope = rng.uniform(-0.25, 0.25, 2)
    light = 1 + slope[0] * (xs / size[0] - 0.5) + slope[1] * (ys / size[1] - 0.5)
    photo = photo.astype(np.float32) * light[..., None] * rng.uniform(0.88, 1.08, 3)
    if rng.random() < 0.5:
        photo = cv2.GaussianBlur(photo, (0, 0), float(rng.uniform(0.5, 2.5)))
    photo += rng.normal(0, rng.uniform(1, 8), photo.shape)
    photo = np.clip(photo, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:  # a tile a few dozen pixels wide in the photo, not 120
        factor = float(rng.uniform(0.15, 0.5))
        size = (photo.shape[1], photo.shape[0])
        small = cv2.resize(photo, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        photo = cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)
    quad = warped + rng.normal(0, w * 0.025, (4, 2))  # the detector's quad is a little off
    return warp_crop(photo, quad.astype(np.float32), (CROP_W, CROP_H))


def crop_set(
    library: dict[str, dict[str, list[np.ndarray]]], per_face: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """``per_face`` crops of every face of every source, each upright or upside down."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for source in sorted(library):
        if source.endswith("-eval"):
            continue  # held-out faces stay out of training
        for name, faces in library[source].items():
            if name not in TILE_NAMES:
                continue
            for face in faces:
                if face.mean() < 100:  # the CC0 art's black style: no real set looks so
                    continue
                for _ in range(per_face):
                    crop = synthesize(face, rng)
                    down = rng.random() < 0.5
                    xs.append(crop[::-1, ::-1] if down else crop)
                    ys.append(2 * TILE_NAMES.index(name) + int(down))
    return np.stack(xs), np.array(ys, np.int64)


def main() -> None:
    from models.scenes.assets import face_library

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="a crop set folder")
    parser.add_argument("--shared", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--per-face", type=int, default=6)
    args = parser.parse_args()
    library = face_library(args.shared if args.shared.is_dir() else None)
    x, y = crop_set(library, args.per_face, seed=5)
    args.out.mkdir(parents=True, exist_ok=True)
    np.savez(args.out / "crops.npz", x=x, y=y)
    print(f"{len(y)} crops in {args.out}")


if __name__ == "__main__":
    main()
