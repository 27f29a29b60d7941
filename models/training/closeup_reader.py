"""Train the close-up flower reader (vision.closeup): which flower a large tile is, at 96x72.

The table classifier reads 48x36 crops, where a flower's numeral is ~7 px and its character
(梅 or 春) a smudge. In a close-up photo the same tile is hundreds of pixels tall, so a flower
is read again from a 96x72 crop of the photo. This network has only the 16 flower outputs
(1f-8f, upright / upside down) and learns from faces whose numeral and character decide them
(models.art.numbered_flowers: the picture is usually another flower's), picture-style flowers, our
own drawn MCR flowers and the real training photos' flowers, each set on a tile body with a rim.
From scratch on the CPU in about ten minutes:

    python -m models.training.closeup_reader --target runs/vision/closeup.onnx --epochs 10
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from models.art.faces import load_faces
from models.art.flower_art import flower_faces
from models.art.numbered_flowers import numbered_flower_faces
from models.training.classifier import one_cycle, train_epoch
from models.training.crop_sets import jittered_crops
from models.training.tilenet import build_network, export_classifier
from vision.closeup import CLOSEUP_H, CLOSEUP_W, FIRST_FLOWER

Items = list[tuple[str, np.ndarray]]


def on_tile_body(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``face`` framed as a photographed tile: an ivory rim, a darker edge, a little table."""
    h, w = face.shape[:2]
    rim = int(rng.integers(2, 9))
    rim_colour = np.clip(np.median(face.reshape(-1, 3), axis=0) + rng.integers(-25, 10, 3), 0, 255)
    body = cv2.copyMakeBorder(face, rim, rim, rim, rim, cv2.BORDER_CONSTANT, value=rim_colour)
    edge = int(rng.integers(0, 4))
    if edge:
        shade = rim_colour * rng.uniform(0.5, 0.85)
        body = cv2.copyMakeBorder(body, edge, edge, edge, edge, cv2.BORDER_CONSTANT, value=shade)
    return cv2.resize(body, (w, h), interpolation=cv2.INTER_AREA)


def _flowers_only(items: Items) -> Items:
    return [(name, image) for name, image in items if name.endswith("f")]


def training_items(shared: Path | None, numbered: int, seed: int) -> tuple[Items, Items]:
    """(synthetic faces on tile bodies, real training photos) of the eight flowers; with CJK
    fonts installed (models.art.font_flowers) also faces lettered in them."""
    from models.art.font_flowers import font_flower_faces

    rng = np.random.default_rng(seed)
    synthetic: Items = []
    own = load_faces()
    sets = (
        numbered_flower_faces(rng, numbered, own_motif=0.75, side_lean=0.0),
        flower_faces(rng, numbered // 4),
        font_flower_faces(rng, numbered // 2),
    )
    for faces in sets:
        synthetic += [(name, on_tile_body(f, rng)) for name, fs in faces.items() for f in fs]
    for _ in range(numbered // 8):  # our own drawn faces, as the table camera sees them
        synthetic += [(f"{r}f", on_tile_body(own[f"{r}f"], rng)) for r in range(1, 9)]
    photos: Items = []
    if shared is not None and (shared / "camerash-tiles").is_dir():
        from models.drawn.dataset import camerash_crops

        photos = _flowers_only(camerash_crops(shared / "camerash-tiles", "train"))
    return synthetic, photos


def labelled(items: Items, copies: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    x, y = jittered_crops(items, copies, seed, size=(CLOSEUP_W, CLOSEUP_H))
    return x, y - 2 * FIRST_FLOWER


def _accuracy(net, x: np.ndarray, y: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    import torch

    net.eval()
    with torch.no_grad():
        found = net(torch.from_numpy(x).permute(0, 3, 1, 2).float() / 255).argmax(1).numpy()
    return float(np.mean(found // 2 == y // 2)) if len(y) else 0.0


def train_closeup(
    target: Path,
    shared: Path | None,
    *,
    epochs: int = 10,
    numbered: int = 240,
    max_lr: float = 2e-3,
    width: int = 16,
) -> float:
    """Train from scratch, export ``target`` after every epoch; return the last validation
    accuracy (fresh numeral-first faces and our own faces on tile bodies, never trained on)."""
    import torch
    from torch import nn

    started = time.monotonic()
    torch.manual_seed(0)
    synthetic, photos = training_items(shared, numbered, seed=5)
    sx, sy = labelled(synthetic, 4, seed=5)
    px, py = labelled(photos, 96, seed=6) if photos else (sx[:0], sy[:0])
    x = torch.from_numpy(np.concatenate([sx, px])).permute(0, 3, 1, 2).contiguous()
    y = torch.from_numpy(np.concatenate([sy, py]))
    held, _ = training_items(None, 40, seed=99)
    vx, vy = labelled(held, 2, seed=99)
    net = build_network(width, outputs=16, crop=(CLOSEUP_H, CLOSEUP_W), final_pool=2)
    optimiser = torch.optim.AdamW(net.parameters(), lr=max_lr, weight_decay=1e-4)
    steps = epochs * ((len(x) + 127) // 128)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda step: one_cycle(step / steps))
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    generator = torch.Generator().manual_seed(0)
    score = 0.0
    for epoch in range(1, epochs + 1):
        loss = train_epoch(net, (x, y), (optimiser, schedule, loss_fn, generator), batch=128)
        score = _accuracy(net, vx, vy)
        print(
            f"epoch {epoch}: loss {loss:.3f} validation {score:.4f} "
            f"({len(x)} crops, {time.monotonic() - started:.0f} s)",
            flush=True,
        )
        export_classifier(net, target, crop=(CLOSEUP_H, CLOSEUP_W))
    return score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=Path, default=Path("runs/vision/closeup.onnx"))
    parser.add_argument("--shared", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--numbered", type=int, default=240, help="numeral-first faces per flower")
    parser.add_argument("--max-lr", type=float, default=2e-3)
    parser.add_argument("--width", type=int, default=16)
    args = parser.parse_args()
    train_closeup(
        args.target,
        args.shared if args.shared.is_dir() else None,
        epochs=args.epochs,
        numbered=args.numbered,
        max_lr=args.max_lr,
        width=args.width,
    )


if __name__ == "__main__":
    main()
