"""The evaluation's real-photo parts: held-out photo crops read one by one, and held-out photos
as the faces of rendered tables read through the table camera's full path.

Both use only the held-out 30 % of camerash-tiles (``models.drawn.dataset.camerash_crops(root,
"eval")``), never trained on.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from models.art.faces import class_names, load_faces
from models.drawn.dataset import camerash_crops
from vision.crops import crop_tile, kind_probabilities
from vision.detector import Detection, Detector
from vision.faces import face

KIND_NAMES = class_names()[:34]


def real_crops(detector: Detector, shared: Path, other) -> dict:  # type: ignore[no-untyped-def]
    """Each held-out photo read as one tile: at table resolution (a 48x36 crop through the
    classifier, as a table camera sees it) and as the photo it is (a tile called a flower read
    again by the close-up reader from the full photo, as ``detect`` does for large tiles)."""
    crops = camerash_crops(shared / "camerash-tiles", "eval")
    batch = np.stack(
        [crop_tile(photo, (0, 0, photo.shape[1], photo.shape[0]), pad=0.0) for _, photo in crops]
    )
    kinds = kind_probabilities(detector.read_crops(batch))
    names = class_names()
    right: dict[str, list[bool]] = {}
    table_right: list[bool] = []
    for (name, photo), row in zip(crops, kinds, strict=True):
        h, w = photo.shape[:2]
        read = Detection(face(names[int(row.argmax())]), (0, 0, w, h), float(row.max()), 0)
        table_right.append(str(read.face) == name)
        right.setdefault(name, []).append(str(detector.read_closeup(photo, read, 1.0).face) == name)
    result: dict = {
        "crops": len(crops),
        "accuracy": float(np.mean([v for vs in right.values() for v in vs])),
        "accuracy_table_resolution": float(np.mean(table_right)),
        "per_class": {n: float(np.mean(v)) for n, v in sorted(right.items())},
    }
    if other is not None:
        hits = []
        for name, photo in crops:
            if name not in KIND_NAMES:
                continue  # it has no flower classes
            found = other(photo)
            best = max(found, key=lambda d: d[2])[0] if found else None
            hits.append(best == name)
        result["baseline_accuracy_kinds_only"] = float(np.mean(hits))
        kinds_only = [v for n, vs in right.items() if n in KIND_NAMES for v in vs]
        result["accuracy_kinds_only"] = float(np.mean(kinds_only))
    return result


def real_table_faces(shared: Path) -> tuple[dict[str, list[np.ndarray]], list[str]]:
    """Faces for part 5: every held-out photo of each class, and the classes that have one
    (the rest keep our own drawn face and are left out of the figures)."""
    real: dict[str, list[np.ndarray]] = {}
    for name, photo in camerash_crops(shared / "camerash-tiles", "eval"):
        real.setdefault(name, []).append(photo)
    own = load_faces()
    faces = {name: real.get(name, [image]) for name, image in own.items()}
    return faces, sorted(real, key=class_names().index)


def real_table_summary(scenes: dict, classes: list[str]) -> dict:
    """Per-tile identity figures of part 5 from
    :func:`models.evaluation.evaluate.rendered_scenes` run on
    :func:`real_table_faces`: a face counts as read when a box of confidence >= 0.3 overlaps it
    (IoU >= 0.5) and names its kind."""
    names = class_names()
    matrix = scenes["matrix"]
    rows = [names.index(n) for n in classes]

    def share(subset: list[int]) -> tuple[float, int]:
        total = int(sum(matrix[i].sum() for i in subset))
        return float(sum(matrix[i, i] for i in subset) / max(total, 1)), total

    accuracy, tiles = share(rows)
    kinds, kind_tiles = share([i for i in rows if not names[i].endswith("f")])
    flower_rows = [i for i in rows if names[i].endswith("f")]
    flowers, flower_tiles = share(flower_rows)
    any_flower = [i for i, name in enumerate(names) if name.endswith("f")]
    as_flowers = float(matrix[np.ix_(flower_rows, any_flower)].sum() / max(flower_tiles, 1))
    summary = {k: v for k, v in scenes.items() if k not in ("matrix", "ap50", "recall")}
    return {
        **summary,
        "classes": classes,
        "face_tiles": tiles,
        "accuracy": accuracy,
        "accuracy_kinds": kinds,
        "kind_tiles": kind_tiles,
        "accuracy_flowers": flowers,
        "flower_tiles": flower_tiles,
        "flowers_read_as_flowers": as_flowers,  # any flower: MCR counts flowers, not their kind
        "recall": {n: scenes["recall"][n] for n in classes if n in scenes["recall"]},
    }


def real_lines(crops: dict | None, tables: dict | None) -> list[str]:
    """The report's sections for parts 2 and 5."""
    lines: list[str] = []
    if crops:
        lines += [
            "## Real photo crops (held-out 30% of camerash-tiles)",
            "",
            f"- crops: {crops['crops']}, identity accuracy {crops['accuracy']:.4f} (flowers "
            "read again from the full photo by the close-up reader)",
            "- at table resolution (every photo as one 48x36 crop, the classifier with its "
            f"second look): {crops['accuracy_table_resolution']:.4f}",
        ]
        if "baseline_accuracy_kinds_only" in crops:
            lines.append(
                f"- 34 kinds only (no flowers): ours {crops['accuracy_kinds_only']:.4f}, "
                f"mahjong-detector {crops['baseline_accuracy_kinds_only']:.4f}"
            )
        lines += _class_table("accuracy", crops["per_class"])
    if tables:
        lines += [
            "## Real faces on rendered tables (the held-out photos as every tile's face)",
            "",
            f"- frames: {tables['frames']}, face tiles of the {len(tables['classes'])} classes "
            f"with a held-out photo: {tables['face_tiles']}",
            f"- read right (box IoU >= 0.5, confidence >= 0.3, right kind): "
            f"{tables['accuracy']:.4f}; 34 kinds {tables['accuracy_kinds']:.4f} "
            f"({tables['kind_tiles']} tiles), flowers {tables['accuracy_flowers']:.4f} "
            f"({tables['flower_tiles']} tiles)",
            *(
                [
                    f"- flowers read as some flower (MCR scores one fan a flower, whatever its "
                    f"kind): {tables['flowers_read_as_flowers']:.4f}"
                ]
                if "flowers_read_as_flowers" in tables
                else []
            ),
            f"- mAP50 {tables['map50']:.4f} (all classes, backs included), missed "
            f"{tables['missed']}, false detections {tables['false_detections']}",
        ]
        if "baseline" in tables:
            lines.append(
                f"- mahjong-detector 0.0.6 on the same frames (34 kinds, whole frame): "
                f"mAP50 {tables['baseline']['map50']:.4f}"
            )
        lines += _class_table("recall", tables["recall"])
    return lines


def _class_table(column: str, values: dict[str, float]) -> list[str]:
    """A markdown table of one figure per class, with a blank line either side."""
    rows = [f"| {name} | {value:.3f} |" for name, value in values.items()]
    return ["", f"| class | {column} |", "| --- | --- |", *rows, ""]
