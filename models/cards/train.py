"""Train the card reader's network on crops from :mod:`models.cards.crops` and export it.

The network is the tile classifier's TileNet (:mod:`models.training.tilenet`) for 40 x 24 BGR
crops with the 109 outputs of :mod:`vision.card_candidates`. One thread, a time budget, AdamW with
a one-cycle rate, brightness / tint / noise augmentation; the last 4 % of the crops validate.

    PYTHONPATH=. nice -n 10 .venv/bin/python -m models.cards.train \\
        --crops runs/cards/crops-*.npz --minutes 14 --out models/weights/cards.onnx
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from models.training.classifier import one_cycle
from models.training.tilenet import build_network, export_classifier, network_from_onnx
from vision.card_candidates import CROP_H, CROP_W, OUTPUTS

WIDTH, HIDDEN = 12, 128


def _augment(batch, generator):  # type: ignore[no-untyped-def]
    import torch

    n = batch.shape[0]
    gain = 0.75 + 0.5 * torch.rand(n, 1, 1, 1, generator=generator)
    tint = 0.9 + 0.2 * torch.rand(n, 3, 1, 1, generator=generator)
    offset = 0.12 * (torch.rand(n, 1, 1, 1, generator=generator) - 0.5)
    noise = 0.03 * torch.rand(n, 1, 1, 1, generator=generator)
    noise = noise * torch.randn(batch.shape, generator=generator)
    return (batch * gain * tint + offset + noise).clamp(0, 1)


def train(
    crop_files: list[Path],
    out: Path,
    minutes: float,
    seed: int = 0,
    *,
    init: Path | None = None,
    peak_rate: float = 3e-3,
    held_out: list[Path] | None = None,
) -> dict[str, float]:
    """Train for ``minutes`` of wall time, export to ``out``; returns validation accuracies.
    ``init``: an exported network to continue (models.training.tilenet.network_from_onnx);
    ``held_out``: crop files validated apart (``val_<stem>``), never trained on."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    parts = [np.load(path) for path in crop_files]
    crops = np.concatenate([p["crops"] for p in parts])
    images = torch.from_numpy(crops).permute(0, 3, 1, 2).contiguous()  # uint8 N3HW
    labels = torch.from_numpy(np.concatenate([p["labels"] for p in parts]).astype(np.int64))
    held = max(1, len(labels) // 25)
    train_x, train_y = images[:-held], labels[:-held]
    val_x, val_y = images[-held:], labels[-held:]
    if init is not None:
        net = network_from_onnx(init, (CROP_H, CROP_W))
        for module in net.modules():  # its norms are folded: kept as they are (eval mode)
            if isinstance(module, torch.nn.BatchNorm2d):
                module.eval()
    else:
        net = build_network(WIDTH, OUTPUTS, (CROP_H, CROP_W), hidden=HIDDEN)
    optimiser = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    generator = torch.Generator().manual_seed(seed)
    budget, start, steps, batch = minutes * 60, time.monotonic(), 0, 128
    while (elapsed := time.monotonic() - start) < budget:
        order = torch.randperm(len(train_y), generator=generator)
        for at in range(0, len(order) - batch + 1, batch):
            elapsed = time.monotonic() - start
            if elapsed >= budget:
                break
            for group in optimiser.param_groups:
                group["lr"] = peak_rate * one_cycle(elapsed / budget)
            pick = order[at : at + batch]
            x = _augment(train_x[pick].float() / 255, generator)
            loss = torch.nn.functional.cross_entropy(net(x), train_y[pick], label_smoothing=0.05)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            steps += 1
            if steps % 200 == 0:
                print(f"{elapsed:6.0f}s step {steps} loss {loss.item():.3f}", flush=True)
    net.eval()
    result = {"steps": float(steps), **_accuracies(net, val_x, val_y, "val")}
    for path in held_out or []:
        part = np.load(path)
        x = torch.from_numpy(part["crops"]).permute(0, 3, 1, 2).contiguous()
        y = torch.from_numpy(part["labels"].astype(np.int64))
        result |= _accuracies(net, x, y, f"val_{path.stem}")
    export_classifier(net, out, (CROP_H, CROP_W))
    return result


def _accuracies(net, x, y, name: str) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """Shares right of all crops, index crops (face and way up) and ``none`` crops."""
    import torch

    with torch.no_grad():
        guess = torch.cat(
            [net(x[i : i + 512].float() / 255).argmax(1) for i in range(0, len(y), 512)]
        )
    right = (guess == y).float()
    index = y != OUTPUTS - 1
    return {
        f"{name}_all": float(right.mean()),
        f"{name}_index": float(right[index].mean()),
        f"{name}_none": float(right[~index].mean()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Train the card reader's crop network.")
    parser.add_argument("--crops", type=Path, nargs="+", required=True, help=".npz files")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--minutes", type=float, default=14.0)
    parser.add_argument("--init", type=Path, help="an exported network to continue")
    parser.add_argument("--rate", type=float, default=3e-3, help="peak learning rate")
    parser.add_argument("--held-out", type=Path, nargs="*", default=[], help="validated apart")
    args = parser.parse_args(argv)
    result = train(
        args.crops,
        args.out,
        args.minutes,
        init=args.init,
        peak_rate=args.rate,
        held_out=args.held_out,
    )
    print(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
