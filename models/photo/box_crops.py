"""Classifier crops cut where the photo detector puts its boxes, on labelled real photos.

    PYTHONPATH=. .venv/bin/python -m models.photo.box_crops \
        ~/.cache/tilesight/photos/hk-table-rf-train --out runs/photo-classifier/data/boxes

writes ``<out>/train/crops.npz`` and ``<out>/val/crops.npz`` (models.photo.crops' layout). The
first classifier learned from crops of the labelled boxes (the whole tile, face and sides),
while at run time it reads the detector's boxes, which hold the face, sometimes short of an end:
on the real evaluation photos a box over a tile read it right 0.82 of the time where the
labelled box read 0.91, and the misreadings were the ones an end cut off makes (7m as 3m, 7p as
6p, 3p as 2p). These crops close that gap: every detector box that overlaps a labelled tile
(intersection over union of the bounds 0.4 or more) is cut as the reader cuts it
(:func:`vision.photo.reading_quads`), at the reader's geometries and at ``jitter`` random ones
near them; the kind is the label's, the way up the one the committed classifier finds likelier
for that kind. Turned photos are welcome here (the boxes turn with the tiles). A photo whose
publisher mirrored it is read mirrored back (:mod:`models.photo.crops`). Photos split into
train and val by their source, as models.photo.crops splits them.
"""

from __future__ import annotations

import argparse
import json
import zlib
from pathlib import Path

import numpy as np

from models.photo.crops import read_either_way
from models.photo.scoring import match
from vision.crops import CROP_H, CROP_W, TILE_NAMES
from vision.photo import GEOMETRIES, PhotoReader, reading_quads, warp_crop
from vision.photo_boxes import squared_to_edges

MATCH_BAR = 0.4


def _crops_of(image: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
    return np.stack([warp_crop(image, q, (CROP_W, CROP_H)) for q in quads])


def photo_crops(
    image: np.ndarray, tiles: list[dict], reader: PhotoReader, rng: np.random.Generator, jitter: int
) -> tuple[list[np.ndarray], list[int], bool]:
    """Crops and classifier labels of one labelled photo; whether it was read mirrored."""
    found = [squared_to_edges(image, box) for box in reader.boxes.find(image)]
    if not found:
        return [], [], False
    bounds = [(*b.corners.min(axis=0), *b.corners.max(axis=0)) for b in found]
    pairs = match([tuple(t["box"]) for t in tiles], bounds, MATCH_BAR)  # type: ignore[misc]
    if not pairs:
        return [], [], False
    kinds = [TILE_NAMES.index(tiles[t]["tile"]) for t, _ in pairs]
    # each matched box the reader's ways: its quads at the first geometry, the likelier kept
    quads = [reading_quads(found[b].corners) for _, b in pairs]
    flat = [q for group in quads for q in group]
    crops = _crops_of(image, flat)
    owner = np.repeat(np.arange(len(pairs)), [len(g) for g in quads])
    read = reader.detector.read_crops
    mirrored, probs, likely = read_either_way(read, crops, np.asarray(kinds)[owner])
    out_x: list[np.ndarray] = []
    out_y: list[int] = []
    for index, kind in enumerate(kinds):
        rows = np.flatnonzero(owner == index)
        row = int(rows[np.argmax(likely[rows])])  # of a square box's two ways round, the likelier
        upside_down = probs[row, 2 * kind + 1] > probs[row, 2 * kind]
        way = int(row - rows[0])  # which way round the box reads likelier
        corners = found[pairs[index][1]].corners
        cuts = [reading_quads(corners, *geometry)[way] for geometry in _geometries(rng, jitter)]
        out_x.extend(_crops_of(image, cuts))
        out_y.extend([2 * kind + int(upside_down)] * len(cuts))
    if mirrored:
        out_x = [np.ascontiguousarray(x[:, ::-1]) for x in out_x]
    return out_x, out_y, bool(mirrored)


def _geometries(rng: np.random.Generator, jitter: int) -> list[tuple[float, float, float]]:
    """The reader's own geometries (vision.photo.GEOMETRIES) and ``jitter`` random ones."""
    along, across, shift = (rng.uniform(0.95, 1.3, jitter), rng.uniform(0.97, 1.15, jitter),
                            rng.uniform(-0.1, 0.1, jitter))  # fmt: skip
    extra = [(float(a), float(c), float(s)) for a, c, s in zip(along, across, shift, strict=True)]
    return [*GEOMETRIES, *extra]


def box_crops(
    folder: Path, val_share: float = 0.08, jitter: int = 2, limit: int | None = None
) -> dict:
    """{"train": (x, y), "val": (x, y)} from a labelled photo folder (models.photo.sources)."""
    import cv2

    reader = PhotoReader()
    rng = np.random.default_rng(0)
    out: dict[str, tuple[list, list]] = {"train": ([], []), "val": ([], [])}
    mirrored = photos = 0
    for label_file in sorted((folder / "labels").glob("*.json"))[:limit]:
        record = json.loads(label_file.read_text(encoding="utf-8"))
        tiles = [t for t in record.get("tiles") or [] if t["tile"] is not None]
        image = cv2.imread(str(folder / "images" / record["image"]), cv2.IMREAD_COLOR)
        if image is None or not tiles:
            continue
        xs, ys, flipped = photo_crops(image, tiles, reader, rng, jitter)
        photos += 1
        mirrored += flipped
        source = record["image"].split("_jpg")[0]
        split = "val" if zlib.crc32(source.encode()) % 100 < 100 * val_share else "train"
        out[split][0].extend(xs)
        out[split][1].extend(ys)
    print(f"{folder.name}: {photos} photos, {mirrored} read as mirrored and turned back")
    return {
        k: (np.stack(x).astype(np.uint8) if x else np.zeros((0, CROP_H, CROP_W, 3), np.uint8),
            np.array(y, np.int64))
        for k, (x, y) in out.items()
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--jitter", type=int, default=2)
    parser.add_argument("--limit", type=int, help="at most this many photos per folder")
    args = parser.parse_args()
    xs: dict[str, list] = {"train": [], "val": []}
    ys: dict[str, list] = {"train": [], "val": []}
    for folder in args.folders:
        for split, (x, y) in box_crops(folder, jitter=args.jitter, limit=args.limit).items():
            xs[split].append(x)
            ys[split].append(y)
    for split in ("train", "val"):
        target = args.out / split
        target.mkdir(parents=True, exist_ok=True)
        np.savez(target / "crops.npz", x=np.concatenate(xs[split]), y=np.concatenate(ys[split]))
        print(split, sum(len(y) for y in ys[split]), "crops")


if __name__ == "__main__":
    main()
