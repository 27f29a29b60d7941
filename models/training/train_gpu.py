"""The GPU run, in minutes: render on every core until a deadline, then train three classifier
candidates and continue the detector, all on the one GPU at the same time.

The GPU machine has neither cairo (the CC0 art's rasteriser) nor ``../shared``, so the face
images are packed here first and travel with the tree, with the real training photos and the
committed detector turned back into a trainable checkpoint (models/train_gpu.sh runs it all)::

    .venv/bin/python -m models.training.train_gpu pack .devdata/faces.npz \\
        --shared ../shared/datasets
    python3 -m models.training.train_gpu run --faces .devdata/faces.npz \\
        --photos .devdata/datasets --detector-init .devdata/init.pt --results "$OUT"

Each candidate is written to ``--results`` after every epoch, so a run cut short still leaves
weights; which candidate ships is decided on the CPU machine by ``python -m
models.evaluation.evaluate``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import shutil
import time
from pathlib import Path

import cv2
import numpy as np

FIRST_SEED = 200_000  # far from every evaluation seed (models.evaluation.evaluate uses 1000-5000)
VAL_SEED = 190_000
CANDIDATES = {  # name -> train_classifier options (all width 24, the runtime's speed)
    "scratch": {"max_lr": 3e-3, "flower_boost": 3, "photo_copies": 96},
    "finetune": {"max_lr": 3e-4, "flower_boost": 3, "photo_copies": 96, "frozen_norm": True},
    "photos": {"max_lr": 3e-3, "flower_boost": 5, "photo_copies": 160},
}


def encode_face(image: np.ndarray) -> np.ndarray:
    """PNG, or JPEG (quality 95) where that is under half the size: photos, whose noise PNG
    cannot compress (1,361 photos: 44 MB as PNG, 9 MB as JPEG; drawn art stays lossless)."""
    png = cv2.imencode(".png", image)[1]
    jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])[1]
    return jpeg if 2 * len(jpeg) < len(png) else png


def pack_faces(shared: Path | None, target: Path) -> int:
    """Every face image of :func:`models.drawn.dataset.face_sets`, encoded, in one ``.npz`` small
    enough to carry to the GPU machine beside the ultralytics wheels (64 MiB in all)."""
    from models.drawn.dataset import face_sets

    arrays = {
        f"{name}:{index}": encode_face(image)
        for name, images in face_sets(shared).items()
        for index, image in enumerate(images)
    }
    target.parent.mkdir(parents=True, exist_ok=True)
    np.savez(target, **arrays)
    return len(arrays)


def load_faces(path: Path) -> dict[str, list[np.ndarray]]:
    """The face sets packed by :func:`pack_faces`."""
    faces: dict[str, list[np.ndarray]] = {}
    with np.load(path) as packed:
        for key in sorted(packed.files, key=lambda k: (k.split(":")[0], int(k.split(":")[1]))):
            image = cv2.imdecode(packed[key], cv2.IMREAD_COLOR)
            faces.setdefault(key.split(":")[0], []).append(image)
    return faces


def render_until(job: tuple[str, Path, int, int, Path, float]) -> list[str]:
    """One worker: chunks of ``tables`` tables (``kind`` "boxes": crops at the committed
    detector's boxes; "tables": YOLO images plus jittered crops) until ``deadline``."""
    from models.drawn.dataset import write_detection_set
    from models.training.detector_crops import write_detector_crops

    kind, data, seed, tables, faces_path, deadline = job
    cv2.setNumThreads(1)
    faces = load_faces(faces_path)
    made: list[str] = []
    took = 0.0
    while time.time() + took < deadline:
        began = time.time()
        name = f"{kind}-{seed + len(made)}"
        if kind == "boxes":
            write_detector_crops(data / name, tables, seed + len(made), None, faces=faces)
        else:
            write_detection_set(data / name, tables, seed + len(made), None, faces=faces)
        made.append(name)
        took = time.time() - began
    return made


def render(data: Path, faces: Path, workers: int, seconds: float, chunk: int) -> list[str]:
    """Validation tables first, then half the workers on each kind until ``seconds`` pass."""
    from models.drawn.dataset import write_detection_set

    deadline = time.time() + seconds
    jobs = [
        ("boxes" if w % 2 else "tables", data, FIRST_SEED + 1000 * w, chunk, faces, deadline)
        for w in range(workers)
    ]
    context = multiprocessing.get_context("fork")  # nothing has touched the GPU yet
    with context.Pool(workers) as pool:
        pending = pool.map_async(render_until, jobs)
        write_detection_set(data / "val", 48, VAL_SEED, None, faces=load_faces(faces))
        return [name for made in pending.get() for name in made]


def train_candidate(
    *,
    name: str,
    out: Path,
    sets: list[str],
    photos: Path | None,
    results: Path,
    seconds: float,
    device: str,
) -> None:
    """One classifier candidate, written to ``results/classifier-NAME.onnx`` every epoch."""
    from models.training.classifier import train_classifier
    from models.training.train import WEIGHTS

    options = dict(CANDIDATES[name])
    init = WEIGHTS / "classifier.onnx" if name == "finetune" else None
    train_classifier(
        out,
        0,
        photos,
        results / f"classifier-{name}.onnx",
        init=init,
        width=24,
        crop_sets=tuple(sets),
        val_set="val",
        device=device,
        seconds=seconds,
        **options,
    )  # type: ignore[arg-type]


def train_detector_for(
    *,
    out: Path,
    sets: list[str],
    init: Path,
    results: Path,
    seconds: float,
    device: str,
    batch: int,
    workers: int,
) -> None:
    """Continue the detector from ``init`` for ``seconds``; copy best.pt and results.csv."""
    from models.training.train import detection_yaml, train_detector

    tables = [name for name in sets if name.startswith("tables")]
    yaml = detection_yaml(out / "data" / "tiles-gpu.yaml", tables, "val")
    best = train_detector(
        out,
        seconds / 3600,
        device=device,
        batch=batch,
        model=str(init),
        name="detector-gpu",
        data=yaml,
        workers=workers,
        amp=False,  # its check downloads a model; this tiny network is bound by its loaders
    )
    shutil.copy(best, results / "detector-best.pt")
    shutil.copy(best.parent.parent / "results.csv", results / "detector-results.csv")


def run(args: argparse.Namespace) -> None:
    data = args.out / "data"
    data.mkdir(parents=True, exist_ok=True)
    args.results.mkdir(parents=True, exist_ok=True)
    began = time.time()
    sets = render(data, args.faces, args.workers, args.render_seconds, args.chunk)
    print(
        f"rendered {len(sets)} chunks of {args.chunk} tables in {time.time() - began:.0f} s",
        flush=True,
    )
    photos = args.photos if (args.photos / "camerash-tiles").is_dir() else None
    context = multiprocessing.get_context("spawn")
    shared = {
        "out": args.out,
        "sets": sets,
        "results": args.results,
        "seconds": args.train_seconds,
        "device": args.device,
    }
    jobs = [
        context.Process(
            target=train_candidate,
            kwargs={"name": name, "photos": photos, **shared},
        )
        for name in args.candidates
    ]
    if args.detector_init is not None:
        jobs.append(
            context.Process(
                target=train_detector_for,
                kwargs={
                    **shared,
                    "init": args.detector_init,
                    "device": "0" if args.device == "cuda" else args.device,
                    "batch": args.batch,
                    "workers": args.loader_workers,
                },
            )
        )
    for job in jobs:
        job.start()
    for job in jobs:
        job.join()
    codes = [job.exitcode for job in jobs]
    print(f"done in {time.time() - began:.0f} s; exit codes {codes}")
    if any(codes):
        raise SystemExit(f"a training job failed (exit codes {codes})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    pack = verbs.add_parser("pack", help="pack the face images for the GPU machine")
    pack.add_argument("target", type=Path)
    pack.add_argument("--shared", type=Path, default=Path("../shared/datasets"))
    go = verbs.add_parser("run", help="render, then train on the GPU")
    go.add_argument("--faces", type=Path, required=True)
    go.add_argument("--photos", type=Path, default=Path(".devdata/datasets"))
    go.add_argument("--detector-init", type=Path, help="checkpoint (.pt); none: no detector")
    go.add_argument("--out", type=Path, default=Path("runs/gpu"))
    go.add_argument("--results", type=Path, required=True)
    go.add_argument("--workers", type=int, default=16)
    go.add_argument("--chunk", type=int, default=20, help="tables per rendered chunk")
    go.add_argument("--render-seconds", type=float, default=150)
    go.add_argument("--train-seconds", type=float, default=200)
    go.add_argument("--candidates", nargs="*", default=list(CANDIDATES))
    go.add_argument("--device", default="cuda")
    go.add_argument("--batch", type=int, default=64, help="detector batch")
    go.add_argument("--loader-workers", type=int, default=12, help="detector data loaders")
    args = parser.parse_args()
    if args.verb == "pack":
        shared = args.shared if args.shared.is_dir() else None
        print(f"packed {pack_faces(shared, args.target)} faces into {args.target}")
    else:
        run(args)


if __name__ == "__main__":
    main()
