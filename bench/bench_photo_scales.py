"""Tiles from 16 to 600 px wide in one photo reader call, no hint of scale.

    PYTHONPATH=. .venv/bin/python bench/bench_photo_scales.py [--trials 3]

For each width, ``--trials`` photos: a row of held-out real tile photos (the Camerash
evaluation split in ../shared/datasets/camerash-tiles, every third one upside down) pasted at
that width on a real tile-free photo (``python -m models.photo.negatives fetch``) scaled to
1600x1200 (4000x3000 from 160 px up). Prints the tiles read right, the boxes shown anywhere
else, and seconds a photo.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

SHARED = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "camerash-tiles"
BACKGROUNDS = Path.home() / ".cache" / "tilesight" / "photos" / "no-tiles" / "images"
WIDTHS = (16, 24, 40, 80, 160, 350, 600)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from models.drawn.dataset import camerash_crops
    from vision.photo import PhotoReader
    from vision.photo_shown import shown

    if not SHARED.is_dir() or not BACKGROUNDS.is_dir():
        raise SystemExit(f"needs {SHARED} and {BACKGROUNDS}")
    crops = camerash_crops(SHARED, "eval")
    backgrounds = sorted(BACKGROUNDS.iterdir())
    reader = PhotoReader()
    rng = np.random.default_rng(args.seed)
    for width in WIDTHS:
        right = total = elsewhere = 0
        started = time.perf_counter()
        for trial in range(args.trials):
            size = (4000, 3000) if width >= 160 else (1600, 1200)
            image = cv2.resize(cv2.imread(str(backgrounds[trial % len(backgrounds)])), size)
            height, count = round(width * 4 / 3), min(9, (size[0] - 100) // (width + 10))
            left, top = (size[0] - count * (width + 10)) // 2, size[1] // 2 - height // 2
            names = []
            for k, i in enumerate(rng.choice(len(crops), count, replace=False)):
                name, crop = crops[i]
                face = cv2.resize(crop, (width, height), interpolation=cv2.INTER_AREA)
                x = left + k * (width + 10)
                image[top : top + height, x : x + width] = face[::-1, ::-1] if k % 3 == 1 else face
                names.append(name)
            for tile in shown(reader.read(image)):
                cx, cy = tile.centre
                slot = int((cx - left) // (width + 10))
                on_row = 0 <= slot < count and top <= cy <= top + height
                if on_row and names[slot] == tile.tile:
                    right += 1
                else:
                    elsewhere += 1
            total += count
        seconds = (time.perf_counter() - started) / args.trials
        print(
            f"{width:4d} px: {right}/{total} read right, {elsewhere} other boxes, {seconds:.2f} s"
        )


if __name__ == "__main__":
    main()
