"""One command that renders the data and trains the three networks (the box detector, the tile
classifier and its second opinion, models/training/expert.py), then exports them to ONNX.

From scratch on a CPU (about 3 h on two cores; the committed weights were made in stages from
the previous ones, exactly as models/weights/RECIPE.md lists)::

    python -m models.training.train --out runs/vision --images 1500 --val-images 60 \
        --detector-hours 2 --classifier-epochs 9 --classifier-crops 60000 --expert-epochs 6

A ``.pt`` passed as ``--model`` continues training from it; ``python -m
models.training.onnx_checkpoint``
turns the committed ONNX back into such a checkpoint.

GPU: ``models/train_gpu.sh`` (``models.training.train_gpu``) renders on every core against a
deadline,
then trains both networks on the GPU at once, within minutes.
Stages can be run alone with ``--stage data|detector|classifier|expert|export``.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

from models.drawn.dataset import DETECT_SIZE, write_detection_set
from models.training.detector_head import cut_head

WEIGHTS = Path(__file__).resolve().parent.parent / "weights"
SHARED = Path("/work/shared/datasets")


def write_checksum(path: Path) -> str:
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    path.with_name(path.name + ".sha256").write_text(f"{digest}  {path.name}\n")
    return digest


def make_data(out: Path, images: int, val_images: int, shared: Path | None) -> Path:
    write_detection_set(out / "data" / "train", images, seed=1, shared=shared)
    write_detection_set(out / "data" / "val", val_images, seed=2, shared=shared)
    return detection_yaml(out / "data" / "tiles.yaml", ["train"], "val")


def detection_yaml(target: Path, train: list[str], val: str) -> Path:
    """An ultralytics data file for folders (beside ``target``) of images and labels."""
    listed = "".join(f"  - {name}/images\n" for name in train)
    target.write_text(
        f"path: {target.parent.resolve()}\ntrain:\n{listed}val: {val}/images\n"
        "names:\n  0: tile\n  1: back\n"
    )
    return target


def train_detector(
    out: Path,
    hours: float,
    *,
    device: str,
    batch: int,
    model: str,
    name: str = "detector",
    data: Path | None = None,
    workers: int = 2,
    amp: bool | None = None,
) -> Path:
    """Train from the architecture yaml, or continue from a checkpoint (``model`` a .pt).
    ``amp`` (default: on any accelerator) is mixed precision; ultralytics checks it by
    downloading a model, so an offline GPU machine passes False."""
    from ultralytics import YOLO

    yolo = YOLO(model)
    continuing = model.endswith(".pt")
    yolo.train(
        data=str(data or out / "data" / "tiles.yaml"),
        imgsz=DETECT_SIZE,
        time=hours,
        epochs=200,
        batch=batch,
        device=device,
        workers=workers,
        project=str(out.resolve()),
        name=name,
        exist_ok=True,
        pretrained=model if continuing else False,  # False would re-initialise a checkpoint
        amp=device != "cpu" if amp is None else amp,
        plots=False,
        fliplr=0.5,
        degrees=3.0,
        scale=0.25,
        mosaic=1.0,
        close_mosaic=1,
        warmup_epochs=0.0 if continuing else 1.0,
        lr0=0.0005 if continuing else 0.002,
        optimizer="AdamW",
        patience=1000,
        seed=0,
        deterministic=False,
    )
    return out / name / "weights" / "best.pt"


def export_detector(best: Path) -> Path:
    from ultralytics import YOLO

    exported = Path(
        YOLO(str(best)).export(
            format="onnx", imgsz=DETECT_SIZE, opset=17, simplify=False, dynamic=False
        )
    )
    WEIGHTS.mkdir(exist_ok=True)
    target = WEIGHTS / "detector.onnx"
    cut_head(exported, target)  # the runtime decodes boxes itself (training/detector_head.py)
    write_checksum(target)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=Path("runs/vision"))
    parser.add_argument("--images", type=int, default=900)
    parser.add_argument("--val-images", type=int, default=60)
    parser.add_argument("--detector-hours", type=float, default=0.75)
    parser.add_argument("--classifier-epochs", type=int, default=12)
    parser.add_argument("--flower-boost", type=int, default=3, help="repeat flower crops")
    parser.add_argument("--classifier-width", type=int, default=24, help="TileNet's first width")
    parser.add_argument("--expert-epochs", type=int, default=6, help="0: no second opinion")
    parser.add_argument("--photo-copies", type=int, default=48, help="augmented copies per photo")
    parser.add_argument(
        "--classifier-crops", type=int, default=None, help="use at most this many rendered crops"
    )
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument(
        "--model",
        default=str(Path(__file__).resolve().parent.parent / "yolo11n-tiles.yaml"),
        help="architecture yaml (trained from scratch) or a .pt checkpoint to continue from",
    )
    parser.add_argument("--run-name", default="detector", help="folder under --out for this run")
    parser.add_argument("--data", type=Path, help="detector data yaml (OUT/data/tiles.yaml)")
    parser.add_argument(
        "--shared",
        type=Path,
        default=SHARED,
        help="datasets folder with camerash-tiles (training only; optional)",
    )
    parser.add_argument(
        "--stage",
        choices=["all", "data", "detector", "classifier", "expert", "export"],
        default="all",
    )
    args = parser.parse_args()
    shared = args.shared if args.shared.is_dir() else None
    if args.stage in ("all", "data"):
        make_data(args.out, args.images, args.val_images, shared)
    if args.stage in ("all", "classifier"):
        from models.training.classifier import train_classifier

        train_classifier(
            args.out,
            args.classifier_epochs,
            shared,
            WEIGHTS / "classifier.onnx",
            flower_boost=args.flower_boost,
            rendered_limit=args.classifier_crops,
            width=args.classifier_width,
            photo_copies=args.photo_copies,
        )
        write_checksum(WEIGHTS / "classifier.onnx")
    if args.stage in ("all", "detector"):
        train_detector(
            args.out,
            args.detector_hours,
            device=args.device,
            batch=args.batch,
            model=args.model,
            name=args.run_name,
            data=args.data,
        )
    if args.stage in ("all", "detector", "export"):
        export_detector(args.out / args.run_name / "weights" / "best.pt")
    if args.stage in ("all", "expert") and args.expert_epochs:
        from models.training.expert import train_expert

        expert = WEIGHTS / "expert.onnx"
        train_expert(args.out, ("train",), "val", expert, epochs=args.expert_epochs, shared=shared)
        write_checksum(expert)
    if args.stage != "data":  # the runtime's int8 networks, from the new float ones and boxes
        from models.training.quantize import quantize_classifier

        write_checksum(quantize_classifier())
        if args.stage in ("all", "expert") and args.expert_epochs:
            int8 = quantize_classifier(WEIGHTS / "expert.onnx", WEIGHTS / "expert-int8.onnx")
            write_checksum(int8)


if __name__ == "__main__":
    main()
