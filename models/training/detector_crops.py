"""Classifier crops cut where the committed detector put its boxes, labelled from the render.

At run time the classifier never sees a tile framed by its true box: it sees the detector's box,
which on tight rivers and melds is off by a few pixels or a fifth of a tile. ``crops.npz`` from
``models.drawn.dataset.write_detection_set`` jitters the true box a little; these crops carry the
detector's real framing errors, so a fine-tune on them teaches the classifier the crops it will
be given. A detector box is labelled with the rendered tile it overlaps most (IoU >= 0.3); boxes
on nothing, and boxes whose shape (upright or sideways) contradicts the tile's, are left out::

    .venv/bin/python -m models.training.detector_crops runs/vision/data/detcrops \
        --tables 400 --seed 21
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from models.drawn.camera import canvas_labels
from models.drawn.dataset import face_sets, rectified_scene
from models.evaluation.metrics import iou
from vision.crops import crop_tile, is_sideways, output_index
from vision.detector_backends import OnnxBoxes


def write_detector_crops(
    out: Path,
    tables: int,
    seed: int,
    shared: Path | None,
    *,
    lettered: int = 0,
    faces: dict[str, list[np.ndarray]] | None = None,
) -> int:
    """Write ``out/crops.npz`` (x: N x 48 x 36 x 3 BGR, y: classifier outputs); returns N.
    ``lettered``: font-lettered flower faces per flower (models.drawn.dataset.face_sets); ``faces``:
    face images already gathered (then ``shared`` and ``lettered`` are not used)."""
    rng = np.random.default_rng(seed)
    faces = faces or face_sets(shared, lettered)
    boxes_backend = OnnxBoxes(threshold=0.2)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for _ in range(tables):
        frame, table, homography = rectified_scene(faces, rng)
        labelled = canvas_labels(frame, homography, min_visible=0.8)
        truth = [list(box) for _, box in labelled]
        spots = [label.spot for label, _ in labelled]
        boxes, _, _ = boxes_backend.locate(table)
        if not truth or len(boxes) == 0:
            continue
        overlaps = iou(boxes, np.array(truth))
        for box, row in zip(boxes, overlaps, strict=True):
            best = int(row.argmax())
            spot = spots[best]
            if row[best] < 0.3 or is_sideways(box) != (spot.orientation in (90, 270)):
                continue
            xs.append(crop_tile(table, box))
            ys.append(output_index(spot.name, spot.orientation, box))
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / "crops.npz", x=np.stack(xs), y=np.array(ys, np.int64))
    return len(xs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--shared", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--lettered", type=int, default=0, help="font-lettered faces per flower")
    args = parser.parse_args()
    shared = args.shared if args.shared.is_dir() else None
    count = write_detector_crops(args.out, args.tables, args.seed, shared, lettered=args.lettered)
    print(f"wrote {count} crops from {args.tables} tables to {args.out}")


if __name__ == "__main__":
    main()
