"""The second-opinion classifier: a wider, deeper network read only on crops the tile
classifier is unsure of (vision.detector ``Detector(expert=...)``).

The tile classifier (models/training/tilenet.py, TileNet width 24) reads every face crop, ~100 a
frame, so it must stay small; the crops it still misreads are nearly all motion-blurred or
dim ones it reads unsure (docs/vision.md). This network reads the same 48x36 crops with the
same 85 outputs, has two convolutions in every stage and twice the channels (about five times
the work per crop), and runs on the few unsure crops of a frame only. It is trained from
scratch, not from the classifier, so its mistakes are its own, with bfloat16 on CPUs that have
it (AMX/AVX-512 BF16: 2.5x an fp32 epoch) and channels-last tensors::

    .venv/bin/python -m models.training.expert runs/vision --epochs 6 --sets blurAll401 ... \
        --val blurVal409 --target runs/vision/expert.onnx
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from models.training.classifier import (
    _accuracy,
    _augment,
    _train_mode,
    _training_crops,
    one_cycle,
)
from models.training.tilenet import build_network, export_classifier, network_from_onnx
from vision.crops import CLASSES_OUT


def build_expert(width: int = 48, outputs: int = CLASSES_OUT):  # type: ignore[no-untyped-def]
    """TileNet (models.training.tilenet) with two 3x3 convolutions in every stage,
    ``width``, 2x and
    4x channels, and a dense head of 128 units over the 6x4 cells (the corner numerals stay in
    place)."""
    return build_network(width, outputs, stage_convs=(2, 2, 2), hidden=128)


def bf16_supported() -> bool:
    """Whether this CPU multiplies bfloat16 natively (oneDNN then uses AMX or AVX-512 BF16)."""
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


def train_expert(
    out: Path,
    crop_sets: tuple[str, ...],
    val_set: str,
    target: Path,
    *,
    epochs: int = 6,
    shared: Path | None = None,
    width: int = 48,
    max_lr: float = 2e-3,
    photo_copies: int = 16,
    flower_boost: int = 3,
    blur: float = 0.3,
    batch: int = 256,
    seconds: float | None = None,
    init: Path | None = None,
) -> float:
    """Train from scratch (or on from ``init``: a state dict, or an exported .onnx whose folded
    norms then stay frozen) on ``out/data/<set>/crops.npz``
    and the training photos under ``shared``; export ``target`` after every epoch; returns the
    ``val_set`` crop accuracy. With ``seconds`` the run lasts that long, its learning rate
    following the clock."""
    import torch
    from torch import nn

    started = time.monotonic()
    torch.manual_seed(0)
    all_x, all_y = _training_crops(
        out,
        crop_sets=crop_sets,
        shared=shared,
        rendered_limit=None,
        photo_copies=photo_copies,
        lettered_flowers=0,
        flower_boost=flower_boost,
    )
    x = torch.from_numpy(all_x).permute(0, 3, 1, 2).contiguous()
    y = torch.from_numpy(all_y)
    val = np.load(out / "data" / val_set / "crops.npz")
    vx = torch.from_numpy(val["x"]).permute(0, 3, 1, 2).contiguous()
    vy = torch.from_numpy(val["y"])
    frozen_norm = init is not None and init.suffix == ".onnx"
    if frozen_norm:  # an export: its norms are folded, so they stay as loaded (eval mode)
        net = network_from_onnx(init)
    else:
        net = build_expert(width)
        if init is not None:
            net.load_state_dict(torch.load(init))
    net = net.to(memory_format=torch.channels_last)
    optimiser = torch.optim.AdamW(net.parameters(), lr=max_lr, weight_decay=5e-4)
    total = epochs * ((len(x) + batch - 1) // batch)
    begun = time.monotonic()  # a time budget counts training only, not loading the crops

    def progress(step: int) -> float:
        if seconds is not None:
            return (time.monotonic() - begun) / seconds
        return step / total

    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda step: one_cycle(progress(step)))
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    generator = torch.Generator().manual_seed(0)
    use_bf16 = bf16_supported()
    accuracy, epoch = 0.0, 0
    while (seconds is not None or epoch < epochs) and progress(schedule.last_epoch) < 1:
        epoch += 1
        _train_mode(net, frozen_norm)
        order = torch.randperm(len(x), generator=generator)
        for begin in range(0, len(x), batch):
            index = order[begin : begin + batch]
            crops = _augment(x[index].float() / 255, generator, blur)
            optimiser.zero_grad()
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=use_bf16):
                logits = net(crops.contiguous(memory_format=torch.channels_last))
            loss = loss_fn(logits.float(), y[index])
            loss.backward()
            optimiser.step()
            schedule.step()
            if progress(schedule.last_epoch) >= 1:
                break
        accuracy = _accuracy(net, vx, vy)
        print(
            f"{target.stem} epoch {epoch}: loss {float(loss.detach()):.3f} val crop accuracy "
            f"{accuracy:.4f} ({len(x)} crops, {time.monotonic() - started:.0f} s)",
            flush=True,
        )
        export_classifier(net.to(memory_format=torch.contiguous_format), target)
        net.to(memory_format=torch.channels_last)
        torch.save(net.state_dict(), out / f"{target.stem}.pt")  # to go on from
    return accuracy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the training folder (crop sets under data/)")
    parser.add_argument("--sets", nargs="+", required=True)
    parser.add_argument("--val", required=True)
    parser.add_argument("--target", type=Path, required=True)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--width", type=int, default=48)
    parser.add_argument("--max-lr", type=float, default=2e-3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--shared", type=Path, default=None)
    parser.add_argument(
        "--init",
        type=Path,
        default=None,
        help="a state dict (.pt) or an export (.onnx) to go on from",
    )
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    train_expert(
        args.out,
        tuple(args.sets),
        args.val,
        args.target,
        epochs=args.epochs,
        shared=args.shared,
        width=args.width,
        max_lr=args.max_lr,
        seconds=args.seconds,
        init=args.init,
    )


if __name__ == "__main__":
    main()
