"""Classifier crops for the photo reader: real photographed tiles and rendered 3D ones.

    PYTHONPATH=. .venv/bin/python -m models.photo.crops --renders ~/.cache/tilesight/scenes/train \
        --real ~/.cache/tilesight/photos/hk-table-rf-train --out runs/photo-classifier/data

writes ``train/crops.npz`` and ``val/crops.npz`` (x: N x 48 x 36 x 3 BGR, y: the classifier's
output index) in the layout models.training.classifier.train_classifier reads.

Real crops come from labelled photos whose boxes say the kind but not which way up: a tall box
is cut upright, a wide one turned a quarter, and the way up is the one the committed classifier
finds likelier for the true kind. Some photos of that set were mirrored by its publisher (its
augmentation flipped them), so each photo is read both as it is and mirrored, and kept the way
its tiles read likelier as their true kinds: a classifier must never learn a mirrored face.
Rendered crops are cut from their exact face corners (upright, the true way up).
"""

from __future__ import annotations

import argparse
import json
import zlib
from pathlib import Path

import numpy as np

from models.scenes.obb_set import dominant_turn, face_crops
from vision.crops import BACK_INDEX, TILE_NAMES, kind_probabilities
from vision.photo import warp_crop

PALE_BACK = 0.7  # a back crop brighter than this (of 255) reads like a blank white dragon


def _box_quad(box: list[float]) -> np.ndarray:
    x1, y1, x2, y2 = box
    quad = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float32)
    return np.roll(quad, 1, axis=0) if x2 - x1 > y2 - y1 else quad


def real_crops(
    folder: Path, read, val_share: float = 0.08, max_turn: float = 10.0
) -> tuple[dict, dict]:  # type: ignore[no-untyped-def]
    """(train, val) dicts of x, y from a labelled photo folder; ``read`` gives classifier
    probabilities for crops. Photos are split by their source name (its copies stay together);
    photos whose tiles lie turned more than ``max_turn`` degrees are left out (an axis-aligned
    box of a turned tile cuts its neighbours in)."""
    import cv2

    out: dict[str, tuple[list, list]] = {"train": ([], []), "val": ([], [])}
    mirrored = 0
    for label_file in sorted((folder / "labels").glob("*.json")):
        record = json.loads(label_file.read_text(encoding="utf-8"))
        tiles = [t for t in record.get("tiles") or [] if t["tile"] is not None]
        image = cv2.imread(str(folder / "images" / record["image"]), cv2.IMREAD_COLOR)
        if image is None or not tiles:
            continue
        if abs(dominant_turn(image, [t["box"] for t in tiles])) > max_turn:
            continue
        crops = np.stack([warp_crop(image, _box_quad(t["box"]), (36, 48)) for t in tiles])
        kinds = [TILE_NAMES.index(t["tile"]) for t in tiles]
        flipped, both, _ = read_either_way(read, crops, np.asarray(kinds))
        if flipped:
            crops = crops[:, :, ::-1]
            mirrored += 1
        source = record["image"].split("_jpg")[0]
        split = "val" if zlib.crc32(source.encode()) % 100 < 100 * val_share else "train"
        for crop, kind, probs in zip(crops, kinds, both, strict=True):
            upside_down = probs[2 * kind + 1] > probs[2 * kind]
            out[split][0].append(np.ascontiguousarray(crop))
            out[split][1].append(2 * kind + int(upside_down))
    print(f"{folder.name}: {mirrored} photos read as mirrored and turned back")
    return {k: _arrays(*v) for k, v in out.items()}  # type: ignore[return-value]


def read_either_way(read, crops: np.ndarray, kinds: np.ndarray):  # type: ignore[no-untyped-def]
    """Whether a photo's ``crops`` read likelier as their true ``kinds`` mirrored (its publisher
    flipped it), and the classifier's outputs and each true kind's probability, read that way."""
    both = read(np.concatenate([crops, crops[:, :, ::-1]]))
    likely = kind_probabilities(both)[np.arange(len(both)), np.tile(kinds, 2)]
    n = len(crops)
    flipped = bool(np.log(likely[n:] + 1e-6).sum() > np.log(likely[:n] + 1e-6).sum())
    return (True, both[n:], likely[n:]) if flipped else (False, both[:n], likely[:n])


def rendered_crops(folders: list[Path], copies: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Upright face and back crops of rendered scenes; pale backs left out (a white-backed
    set's back looks like a blank white dragon's face, and real sets blank that one)."""
    sets = [face_crops(folders, seed=copy) for copy in range(copies)]
    x = np.concatenate([crops for crops, _ in sets])
    names = [name for _, found in sets for name in found]
    y = np.array([BACK_INDEX if n == "back" else 2 * TILE_NAMES.index(n) for n in names], np.int64)
    pale = (y == BACK_INDEX) & (x.reshape(len(x), -1).mean(axis=1) > 255 * PALE_BACK)
    return x[~pale], y[~pale]


def _arrays(xs: list, ys: list) -> tuple[np.ndarray, np.ndarray]:
    if not xs:
        return np.zeros((0, 48, 36, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(xs).astype(np.uint8), np.array(ys, np.int64)


def main() -> None:
    from vision.detector import Detector

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--renders", type=Path, nargs="*", default=[])
    parser.add_argument("--real", type=Path, nargs="*", default=[])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--copies", type=int, default=3, help="photographs of each render")
    args = parser.parse_args()
    detector = Detector(use_expert=False)
    xs: dict[str, list] = {"train": [], "val": []}
    ys: dict[str, list] = {"train": [], "val": []}
    for folder in args.real:
        for split, (x, y) in real_crops(folder, detector.classifier.classify).items():
            xs[split].append(x)
            ys[split].append(y)
    if args.renders:
        x, y = rendered_crops(args.renders, copies=args.copies)
        xs["train"].append(x)
        ys["train"].append(y)
    for split in ("train", "val"):
        if not xs[split]:
            continue
        target = args.out / split
        target.mkdir(parents=True, exist_ok=True)
        np.savez(target / "crops.npz", x=np.concatenate(xs[split]), y=np.concatenate(ys[split]))
        print(split, sum(len(y) for y in ys[split]), "crops")


if __name__ == "__main__":
    main()


def back_crops(count: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``count`` drawn crops of tile backs (models.photo.box_crops' real photos show none): a
    saturated back colour of any hue under a light gradient and a highlight, a sliver of the
    ivory face layer or a neighbour at an edge, noise, blur and JPEG. They keep the back output
    the rendered crops taught while the classifier learns real faces."""
    import cv2

    rng = np.random.default_rng(seed)
    h, w = 48, 36
    out = np.zeros((count, h, w, 3), np.uint8)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for i in range(count):
        hue, sat, val = rng.uniform(0, 180), rng.uniform(90, 255), rng.uniform(60, 220)
        colour = cv2.cvtColor(np.uint8([[[hue, sat, val]]]), cv2.COLOR_HSV2BGR)[0, 0]
        angle = rng.uniform(0, 2 * np.pi)
        light = 1 + rng.uniform(0.1, 0.4) * (
            (xx / w - 0.5) * np.cos(angle) + (yy / h - 0.5) * np.sin(angle)
        )
        image = colour[None, None, :] * light[..., None]
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(4, 14)
        spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)) * rng.uniform(0, 120)
        image = image + spot[..., None]
        edge = int(rng.integers(0, 5))  # the face layer's rim, or the next tile, at one edge
        if edge:
            side, fill = int(rng.integers(4)), rng.uniform(150, 245, 3)
            if side == 0:
                image[:edge] = fill
            elif side == 1:
                image[-edge:] = fill
            elif side == 2:
                image[:, :edge] = fill
            else:
                image[:, -edge:] = fill
        image = image + rng.normal(0, rng.uniform(1, 8), image.shape)
        crop = np.clip(image, 0, 255).astype(np.uint8)
        if rng.random() < 0.5:
            crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.3, 1.2))
        quality = int(rng.integers(40, 95))
        crop = cv2.imdecode(cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], 1)
        out[i] = crop
    return out, np.full(count, BACK_INDEX, np.int64)
