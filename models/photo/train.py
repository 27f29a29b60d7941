"""Train the photo detector: oriented tile boxes on rendered photo-like scenes.

    PYTHONPATH=. .venv/bin/python -m models.photo.train --renders ~/.cache/tilesight/scenes/train \
        --out runs/photo --hours 1.0

It starts from the committed table detector (its ONNX rebuilt as a checkpoint by
models.training.onnx_checkpoint): the same backbone, neck and box/class branches, with the
oriented-box
head's angle branch new, so the photo detector begins from a network that already knows tiles.
Or from an earlier photo detector (``--init runs/photo/.../last.pt``, or the committed
``--init models/weights/photo-detector.onnx``) to continue.
The result is exported to ``models/weights/photo-detector.onnx`` with its checksum.
"""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Sequence
from pathlib import Path

from models.scenes.obb_set import write_obb_set, write_real_obb

ARCHITECTURE = Path(__file__).resolve().parent.parent / "yolo11n-tiles-obb.yaml"
WEIGHTS = Path(__file__).resolve().parent.parent / "weights"
PHOTO_SIZE = 320  # the network input: tiles of 8-70 px there; the reader goes over a pyramid


def write_data(
    renders: list[Path],
    out: Path,
    *,
    real: Sequence[Path] = (),
    real_limit: int | None = None,
    negatives: Sequence[Path] = (),
    val_share: float = 0.06,
    copies: int = 2,
) -> Path:
    """The YOLO data yaml over photographs of ``renders``, labelled ``real`` photo folders
    (models.photo.sources' cache; at most ``real_limit`` from each) and photos with no tile
    (``negatives``: folders whose ``images/`` are backgrounds); a few scenes are held for
    validation."""
    data = out / "data"
    if data.exists():
        shutil.rmtree(data)
    write_obb_set(renders, data / "all", copies=copies)
    for folder in real:
        write_real_obb(folder, data / "all", limit=real_limit)
    for folder in negatives:
        write_backgrounds(folder, data / "all")
    images = sorted(p for p in (data / "all" / "images").iterdir())
    scenes = sorted({p.stem.split("~")[0] for p in images})  # copies of a render stay together
    held = set(scenes[:: max(1, round(1 / val_share))])
    for split in ("train", "val"):
        (data / split / "images").mkdir(parents=True)
        (data / split / "labels").mkdir(parents=True)
    for image in images:
        split = "val" if image.stem.split("~")[0] in held else "train"
        label = data / "all" / "labels" / f"{image.stem}.txt"
        image.rename(data / split / "images" / image.name)
        label.rename(data / split / "labels" / label.name)
    yaml = data / "photo.yaml"
    yaml.write_text(
        f"path: {data.resolve()}\ntrain: train/images\nval: val/images\n"
        "names:\n  0: tile\n  1: back\n",
        encoding="utf-8",
    )
    return yaml


def write_backgrounds(folder: Path, out: Path) -> int:
    """Every image of ``folder/images`` (or ``folder``) as a training photo with no tile: an
    empty label file, so any box the detector puts there is wrong (cards on a table, floors)."""
    source = folder / "images" if (folder / "images").is_dir() else folder
    written = 0
    for image in sorted(source.iterdir()):
        if image.suffix.lower() not in {".jpg", ".jpeg", ".png"}:
            continue
        stem = f"{folder.name}-{image.stem}"
        (out / "images").mkdir(parents=True, exist_ok=True)
        (out / "labels").mkdir(parents=True, exist_ok=True)
        (out / "images" / f"{stem}{image.suffix.lower()}").write_bytes(image.read_bytes())
        (out / "labels" / f"{stem}.txt").write_text("", encoding="utf-8")
        written += 1
    return written


def initial_checkpoint(out: Path, images: list[Path]) -> Path:
    """An oriented-box checkpoint holding the committed table detector's weights."""
    from ultralytics import YOLO

    from models.training.onnx_checkpoint import rebuild

    table = out / "table-init.pt"
    rebuild(WEIGHTS / "detector.onnx", table, images=images[:32])
    source = YOLO(str(table)).model.state_dict()
    photo = YOLO(str(ARCHITECTURE))
    target = photo.model.state_dict()
    shared = {k: v for k, v in source.items() if k in target and target[k].shape == v.shape}
    target.update(shared)
    photo.model.load_state_dict(target)
    photo.model.names = {0: "tile", 1: "back"}
    path = out / "photo-init.pt"
    photo.save(str(path))
    print(f"photo detector initialised: {len(shared)} of {len(target)} tensors from the table one")
    return path


def train(
    data: Path,
    out: Path,
    hours: float,
    init: Path,
    *,
    batch: int = 16,
    name: str = "det",
    size: int = PHOTO_SIZE,
    workers: int = 2,
    lr: float = 0.001,
) -> Path:
    from ultralytics import YOLO

    YOLO(str(init)).train(
        data=str(data),
        imgsz=size,
        time=hours,
        epochs=300,
        batch=batch,
        device="cpu",
        workers=workers,
        project=str(out.resolve()),
        name=name,
        exist_ok=True,
        pretrained=str(init),
        amp=False,
        plots=False,
        degrees=180.0,
        scale=0.6,
        translate=0.15,
        perspective=0.0004,
        fliplr=0.5,
        mosaic=1.0,
        close_mosaic=0,
        warmup_epochs=0.5,
        lr0=lr,
        optimizer="AdamW",
        patience=1000,
        seed=0,
        deterministic=False,
    )
    return out / name / "weights" / "best.pt"


def export(
    best: Path, target: Path = WEIGHTS / "photo-detector.onnx", size: int = PHOTO_SIZE
) -> Path:
    from ultralytics import YOLO

    from models.training.train import write_checksum

    exported = Path(
        YOLO(str(best)).export(format="onnx", imgsz=size, opset=17, simplify=False, dynamic=False)
    )
    shutil.copyfile(exported, target)
    write_checksum(target)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--renders", type=Path, nargs="*", default=[], help="rendered scenes")
    parser.add_argument("--out", type=Path, default=Path("runs/photo"))
    parser.add_argument("--hours", type=float, default=1.0)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--size", type=int, default=PHOTO_SIZE, help="network input, px")
    parser.add_argument("--lr", type=float, default=0.001, help="AdamW's starting rate")
    parser.add_argument(
        "--init", type=Path, help="a photo detector to continue: a checkpoint, or an ONNX export"
    )
    parser.add_argument("--copies", type=int, default=2)
    parser.add_argument("--real", type=Path, nargs="*", default=[], help="labelled photo folders")
    parser.add_argument("--real-limit", type=int, help="at most this many photos from each")
    parser.add_argument(
        "--negatives", type=Path, nargs="*", default=[], help="folders of photos with no tile"
    )
    parser.add_argument("--no-export", action="store_true")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    data = write_data(
        args.renders,
        args.out,
        real=args.real,
        real_limit=args.real_limit,
        negatives=args.negatives,
        copies=args.copies,
    )
    images = sorted((data.parent / "train" / "images").glob("*.jpg"))
    init = args.init or initial_checkpoint(args.out, images)
    if init.suffix == ".onnx":  # the committed detector, rebuilt as a trainable checkpoint
        from models.training.onnx_checkpoint import rebuild

        checkpoint = args.out / "init.pt"
        rebuild(init, checkpoint, architecture=ARCHITECTURE, images=images[:32], size=args.size)
        init = checkpoint
    best = train(data, args.out, args.hours, init, batch=args.batch, size=args.size, lr=args.lr)
    if not args.no_export:
        print("exported", export(best, size=args.size))


if __name__ == "__main__":
    main()
