"""Random table scenes and the data sets written from them: YOLO detection and classifier crops.

Detector labels use two classes (0 tile face, 1 back) because the tile's identity is read by the
classifier on a rectified crop; the exact 43-class labels (engine notation, ``back`` last) are
written alongside in ``labels43/`` for evaluation.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import cv2
import numpy as np

from models.art.cc0_art import cc0_faces
from models.art.faces import class_names, load_faces
from models.art.flower_art import flower_faces
from models.drawn.camera import TABLE_PX, Frame, rectify, render_frame
from vision.crops import CLASSES_OUT, crop_tile, output_index
from vision.detector_backends import detector_view
from vision.layout import RIVER_COLUMNS, RIVER_ROWS, WALL_STACKS, MeldSpec, TableSpec

CAMERASH_LABELS = {  # classes.csv index -> engine notation
    **{i: f"{i}p" for i in range(1, 10)},
    **{i + 9: f"{i}s" for i in range(1, 10)},
    **{i + 18: f"{i}m" for i in range(1, 10)},
    28: "E",
    29: "S",
    30: "W",
    31: "N",
    32: "C",
    33: "F",
    34: "P",
    35: "5f",
    36: "6f",
    37: "7f",
    38: "8f",
    39: "1f",
    40: "2f",
    41: "3f",
    42: "4f",
}
# Our labels for camerash-tiles/untagged-tiles: read by the fifth-session classifier (whole photo,
# both ways up; flowers by the close-up reader), checked against the set-by-set order the crops
# were cut in and by eye, one photo corrected (317.jpg, a plum read as autumn).
UNTAGGED_LABELS = Path(__file__).resolve().parent.parent / "untagged_photo_labels.csv"
DETECT_SIZE = 640  # the detector's input: the 1024 px canvas scaled down


def camerash_crops(root: Path, split: str) -> list[tuple[str, np.ndarray]]:
    """Labelled real photo crops: ``split`` "train" (70%), "eval" (30%, never trained on) or
    "untagged" (the data set's 1,050 unlabelled crops, labelled by us in UNTAGGED_LABELS;
    training only)."""
    import csv

    if split == "untagged":
        with UNTAGGED_LABELS.open(encoding="utf-8") as handle:
            rows = [
                (row["tile"], root / "untagged-tiles" / row["image-name"])
                for row in csv.DictReader(handle)
            ]
    else:
        with (root / "labels.csv").open(encoding="utf-8-sig") as handle:
            rows = [
                (CAMERASH_LABELS[int(row["label"])], root / "tiles-resized" / row["image-name"])
                for row in csv.DictReader(handle)
                if (zlib.crc32(row["image-name"].encode()) % 10 < 3) == (split == "eval")
            ]
    out = []
    for name, path in rows:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is not None:
            out.append((name, image))
    return out


def camerash_photos(shared: Path) -> list[tuple[str, np.ndarray]]:
    """Every real photo that training may use: the labelled training split and the untagged."""
    root = shared / "camerash-tiles"
    return camerash_crops(root, "train") + camerash_crops(root, "untagged")


def face_sets(shared: Path | None, lettered: int = 0) -> dict[str, list[np.ndarray]]:
    """Every face image per class: our own drawn set and picture-style flowers, plus (when
    ``shared`` has them) the real training photos and the CC0 riichi art in two styles, and
    ``lettered`` flower faces per flower lettered in installed fonts (models.art.font_flowers)."""
    faces = {name: [image] for name, image in load_faces().items()}
    for name, images in flower_faces(np.random.default_rng(7)).items():
        faces[name].extend(images)
    if lettered:
        from models.art.font_flowers import font_flower_faces

        for name, images in font_flower_faces(np.random.default_rng(17), lettered).items():
            faces[name].extend(images)
    if shared is not None and (shared / "camerash-tiles").is_dir():
        for name, image in camerash_photos(shared):
            faces[name].append(cv2.resize(image, (120, 160), interpolation=cv2.INTER_AREA))
    if shared is not None and (shared / "tile-art-cc0").is_dir():
        for name, images in cc0_faces(shared / "tile-art-cc0").items():
            faces[name].extend(images)
    return faces


KONG_DISPLAYS = (  # a concealed kong as laid: which of its four tiles lie face down
    (True, False, False, True),
    (False, True, True, False),
    (True, True, True, False),
    (True, True, True, True),
)


def random_spec(rng: np.random.Generator, kongs: float = 0.0) -> TableSpec:
    """A random table. ``kongs``: the share of melds laid as concealed kongs (some tiles face
    down, :data:`KONG_DISPLAYS`); 0 draws nothing more, so a seed gives the table it always
    gave."""
    names = class_names()[:-1]
    spec = TableSpec()
    for seat in range(4):
        count = int(rng.integers(0, RIVER_COLUMNS * RIVER_ROWS + 1))
        spec.rivers[seat] = [names[i] for i in rng.integers(0, len(names), count)]
        for _ in range(int(rng.integers(0, 4))):
            kind = names[int(rng.integers(0, 34))]
            size = 4 if rng.random() < 0.2 else 3
            if kind[0].isdigit() and int(kind[0]) <= 7 and rng.random() < 0.5:
                tiles = [f"{int(kind[0]) + i}{kind[1]}" for i in range(3)]
            else:
                tiles = [kind] * size
            meld = MeldSpec(tiles, int(rng.integers(0, len(tiles))))
            if kongs and rng.random() < kongs:
                down = KONG_DISPLAYS[int(rng.integers(len(KONG_DISPLAYS)))]
                meld = MeldSpec(["back" if d else kind for d in down], -1)
            spec.melds[seat].append(meld)
        if rng.random() < 0.25:
            n = max(1, 14 - 3 * len(spec.melds[seat]))
            spec.revealed[seat] = [names[i] for i in rng.integers(0, 34, n)]
        spec.concealed[seat] = int(rng.integers(0, 14))
        first = int(rng.integers(0, WALL_STACKS))
        spec.walls[seat] = (first, int(rng.integers(first, WALL_STACKS + 1)))
    return spec


def rectified_scene(
    faces: dict[str, list[np.ndarray]], rng: np.random.Generator, kongs: float = 0.0
) -> tuple[Frame, np.ndarray, np.ndarray]:
    """A random table filmed, then rectified from corners clicked a little off (as by hand):
    the frame, the TABLE_PX canvas and the frame-to-canvas homography."""
    frame = render_frame(random_spec(rng, kongs), faces, rng)
    side = float(np.linalg.norm(frame.table_corners[1] - frame.table_corners[0]))
    clicked = frame.table_corners + rng.normal(0, 0.003 * side, (4, 2))
    table, homography = rectify(frame.image, clicked)
    return frame, table, homography


def write_detection_set(
    out: Path,
    count: int,
    seed: int,
    shared: Path | None,
    *,
    crops_per_image: int = 60,
    lettered: int = 0,
    faces: dict[str, list[np.ndarray]] | None = None,
    kongs: float = 0.0,
) -> None:
    """``count`` rectified tables for YOLO plus classifier crops (``crops.npz``) under ``out``;
    ``lettered``: font-lettered flower faces per flower (see :func:`face_sets`); ``faces``:
    face images already gathered (then ``shared`` and ``lettered`` are not used); ``kongs``:
    see :func:`random_spec`."""
    rng = np.random.default_rng(seed)
    faces = faces or face_sets(shared, lettered)
    for sub in ("images", "labels", "labels43"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    names = class_names()
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for index in range(count):
        frame, table, homography = rectified_scene(faces, rng, kongs)
        det_lines, full_lines = [], []
        order = rng.permutation(len(frame.labels))
        for rank, i in enumerate(order):
            label = frame.labels[i]
            quad = cv2.perspectiveTransform(label.corners.reshape(-1, 1, 2), homography)
            quad = quad.reshape(-1, 2)
            x1, y1 = np.clip(quad.min(axis=0), 0, TABLE_PX)
            x2, y2 = np.clip(quad.max(axis=0), 0, TABLE_PX)
            if label.visible < 0.5 or x2 - x1 < 4 or y2 - y1 < 4:
                continue
            cx, cy, bw, bh = (
                (x1 + x2) / 2 / TABLE_PX,
                (y1 + y2) / 2 / TABLE_PX,
                (x2 - x1) / TABLE_PX,
                (y2 - y1) / TABLE_PX,
            )
            name = label.spot.name
            det_lines.append(f"{int(name == 'back')} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}")
            full_lines.append(f"{names.index(name)} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}")
            if rank < crops_per_image and label.visible > 0.8:
                box = np.array([x1, y1, x2, y2]) + rng.normal(0, 0.06, 4) * (x2 - x1)
                xs.append(crop_tile(table, box))
                ys.append(output_index(name, label.spot.orientation, box))
        stem = f"{seed}_{index:05d}"
        small = detector_view(table, DETECT_SIZE)  # as the runtime detector shrinks it
        cv2.imwrite(str(out / "images" / f"{stem}.jpg"), small, [cv2.IMWRITE_JPEG_QUALITY, 92])
        (out / "labels" / f"{stem}.txt").write_text("\n".join(det_lines) + "\n")
        (out / "labels43" / f"{stem}.txt").write_text("\n".join(full_lines) + "\n")
    np.savez_compressed(out / "crops.npz", x=np.stack(xs), y=np.array(ys, np.int64))
    print(f"wrote {count} tables and {len(xs)} crops ({CLASSES_OUT} classes) to {out}")
