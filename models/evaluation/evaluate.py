"""Evaluate the committed detector; write a report with a confusion matrix and per-class figures.

    python -m models.evaluation.evaluate --out models/report --scenes 24 --turns 24 --hands 4

1. Held-out rendered tables (seed never used in training), seen by a 1920x1080 camera with arms,
   light, blur, noise and JPEG: mAP50, mAP50-95, per-class recall, orientation accuracy.
2. Identity accuracy on the held-out 30% of the real photo crops (camerash-tiles; skipped when
   the shared data set is absent).
3. Rendered video read by the full path (calibration, detector, stabiliser, reader): complete
   hands played by the engine's simulator (``--hands``, models/evaluation/evaluate_hands.py; again
   under
   national rules, ``--national-hands``: flowers, kongs face down, MCR scoring) and a scripted
   hand with lens distortion (``--turns``); discard, meld and flower events against the truth
   (missed, false, wrong tile, wrong order); each hand's win scored from the camera alone.
4. The PyPI ``mahjong-detector`` (YOLO, weights in its wheel) on the same frames and crops, when
   it is installed.
5. Real faces on the table (``--real-tables``): rendered tables whose every face is one of the
   held-out photos of part 2 (models/evaluation/evaluate_real.py), read like part 1: how the table
   path
   reads tile sets it never saw, at table resolution.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from models.art.faces import class_names, load_faces
from models.drawn.camera import TABLE_PX, render_frame
from models.drawn.dataset import random_spec
from models.evaluation.evaluate_hands import engine_hands
from models.evaluation.evaluate_real import (
    KIND_NAMES,
    real_crops,
    real_table_faces,
    real_table_summary,
)
from models.evaluation.evaluate_video import hand_video
from models.evaluation.metrics import Sample, confusion, confusion_png, iou, map_scores
from models.evaluation.report_text import report_markdown
from vision.calibration import Calibration
from vision.detector import Detector

BASELINE_NAMES = {
    "chun": "C",
    "haku": "P",
    "hatsu": "F",
    "nan": "S",
    "pe": "N",
    "sha": "W",
    "tou": "E",
}


def baseline():  # type: ignore[no-untyped-def]
    """mahjong-detector's own predict(), or None when it is not installed."""
    try:
        from mahjong_detector.predict import CLASS_NAMES, predict
        from mahjong_detector.preprocess import preprocess_image
    except ImportError:
        return None
    from PIL import Image

    def run(image: np.ndarray) -> list[tuple[str, tuple[float, float, float, float], float]]:
        pil = Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
        prepared, padding = preprocess_image(pil)
        out = []
        for d in predict(prepared, padding):
            name = CLASS_NAMES[d.class_id]
            out.append((BASELINE_NAMES.get(name, name), (d.x1, d.y1, d.x2, d.y2), d.confidence))
        return out

    return run


def rendered_scenes(  # type: ignore[no-untyped-def]
    detector: Detector,
    count: int,
    seed: int,
    other,
    faces: dict[str, list[np.ndarray]] | None = None,
) -> dict:
    """Part 1: ``count`` held-out tables, our own drawn faces unless ``faces`` are given."""
    rng = np.random.default_rng(seed)
    faces = faces or {name: [image] for name, image in load_faces().items()}
    ours, theirs = [], []
    orient_ok = orient_n = 0
    times, their_times = [], []
    for _ in range(count):
        frame = render_frame(random_spec(rng), faces, rng)
        side = float(np.linalg.norm(frame.table_corners[1] - frame.table_corners[0]))
        clicked = frame.table_corners + rng.normal(0, 0.003 * side, (4, 2))
        calibration = Calibration(tuple((float(x), float(y)) for x, y in clicked))
        start = time.perf_counter()
        homography = calibration.homography(TABLE_PX)
        canvas = cv2.warpPerspective(frame.image, homography, (TABLE_PX, TABLE_PX))
        found = detector.detect_table(canvas)
        times.append(time.perf_counter() - start)
        truth, truth_frame, orientations = [], [], []
        for label in frame.labels:
            if label.visible < 0.5:
                continue
            quad = cv2.perspectiveTransform(label.corners.reshape(-1, 1, 2), homography)
            lo, hi = quad.reshape(-1, 2).min(axis=0), quad.reshape(-1, 2).max(axis=0)
            lo, hi = np.clip(lo, 0, TABLE_PX), np.clip(hi, 0, TABLE_PX)
            if (hi - lo).min() < 4:
                continue
            truth.append((label.spot.name, (*lo, *hi)))
            truth_frame.append((label.spot.name, label.box))
            orientations.append(label.spot.orientation)
        predicted = [(str(d.face), d.box, d.confidence) for d in found]
        ours.append(Sample(truth, predicted))
        if predicted and truth:
            overlaps = iou(np.array([b for _, b in truth]), np.array([d.box for d in found]))
            for ti, (name, _) in enumerate(truth):
                best = int(overlaps[ti].argmax())
                if overlaps[ti, best] >= 0.5 and str(found[best].face) == name != "back":
                    orient_n += 1
                    orient_ok += found[best].orientation == orientations[ti]
        if other is not None:
            start = time.perf_counter()
            their = other(frame.image)
            their_times.append(time.perf_counter() - start)
            theirs.append(Sample([t for t in truth_frame if t[0] in KIND_NAMES], their))
    names = class_names()
    map50, map5095, ap50 = map_scores(ours, names)
    matrix = confusion(ours, names, min_score=0.3)
    recall = {
        n: float(matrix[i, i] / max(matrix[i].sum(), 1))
        for i, n in enumerate(names)
        if matrix[i].sum()
    }
    result = {
        "frames": count,
        "map50": map50,
        "map50_95": map5095,
        "ap50": ap50,
        "recall": recall,
        "class_tiles": {n: int(matrix[i].sum()) for i, n in enumerate(names) if matrix[i].sum()},
        "orientation_accuracy": orient_ok / max(orient_n, 1),
        "false_detections": int(matrix[-1].sum()),
        "missed": int(matrix[:, -1].sum()),
        "truth_tiles": int(matrix[:-1].sum()),
        "seconds_per_frame": float(np.median(times)),
        "matrix": matrix,
    }
    if other is not None:
        b50, b5095, _ = map_scores(theirs, KIND_NAMES)
        result["baseline"] = {
            "map50": b50,
            "map50_95": b5095,
            "seconds_per_frame": float(np.median(their_times)),
        }
    return result


def write_report(
    out: Path,
    scenes: dict,
    crops: dict | None,
    video: dict | None,
    *,
    hands: dict | None = None,
    tables: dict | None = None,
    national: dict | None = None,
) -> None:
    out.mkdir(parents=True, exist_ok=True)
    names = class_names()
    confusion_png(scenes.pop("matrix"), names, str(out / "confusion.png"))
    (out / "metrics.json").write_text(
        json.dumps(
            {
                "rendered": scenes,
                "real_crops": crops,
                "real_tables": tables,
                "video": video,
                "engine_hands": hands,
                "national_hands": national,
            },
            indent=1,
            sort_keys=True,
        )
    )
    (out / "report.md").write_text(
        report_markdown(scenes, crops, video, hands, tables, national=national)
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=Path("models/report"))
    parser.add_argument("--scenes", type=int, default=24)
    parser.add_argument("--turns", type=int, default=24)
    parser.add_argument("--hands", type=int, default=4, help="complete engine hands (part 3)")
    parser.add_argument(
        "--national-hands", type=int, default=4, help="the same under national rules (part 3d)"
    )
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--shared", type=Path, default=Path("/work/shared/datasets"))
    parser.add_argument(
        "--real-tables", type=int, default=24, help="frames with held-out photo faces (part 5)"
    )
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args()
    detector = Detector()
    other = None if args.no_baseline else baseline()
    scenes = rendered_scenes(detector, args.scenes, args.seed, other)
    print(f"rendered: mAP50 {scenes['map50']:.4f} mAP50-95 {scenes['map50_95']:.4f}", flush=True)
    has_photos = (args.shared / "camerash-tiles").is_dir()
    crops = real_crops(detector, args.shared, other) if has_photos else None
    if crops:
        print(
            f"real crops: {crops['accuracy']:.4f} "
            f"(table resolution {crops['accuracy_table_resolution']:.4f})",
            flush=True,
        )
    tables = None
    if has_photos and args.real_tables:
        faces, classes = real_table_faces(args.shared)
        seen = rendered_scenes(detector, args.real_tables, args.seed + 6000, other, faces=faces)
        tables = real_table_summary(seen, classes)
        print(f"real faces on tables: {tables['accuracy']:.4f} read right", flush=True)
    video = hand_video(detector, args.turns, args.seed + 1) if args.turns else None
    if video:
        print(f"video: {video}", flush=True)
        video["with_concealed_kongs"] = hand_video(detector, args.turns, args.seed + 2, kongs=0.3)
        print(f"video with concealed kongs: {video['with_concealed_kongs']}", flush=True)
        down = hand_video(detector, args.turns, args.seed + 3, kongs=0.3, face_down=True)
        video["with_face_down_kongs"] = down
        print(f"video with kongs laid face down: {down}", flush=True)
    hands = engine_hands(args.hands, args.seed) if args.hands else None
    if hands:
        print(
            f"engine hands: {hands['seen']}/{hands['expected']} seen, {hands['invented']} invented",
            flush=True,
        )
    national = None
    if args.national_hands:
        national = engine_hands(args.national_hands, args.seed, procedure="national")
        print(
            f"national hands: {national['seen']}/{national['expected']} seen, "
            f"{national['invented']} invented",
            flush=True,
        )
    write_report(args.out, scenes, crops, video, hands=hands, tables=tables, national=national)


if __name__ == "__main__":
    main()
