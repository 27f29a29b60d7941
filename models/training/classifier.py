"""The tile identity classifier: a small CNN on 48x36 vertical crops, exported to ONNX.

Trained on crops cut from rendered tables (our own faces and, when the shared data set is present,
real photo faces pasted into scenes) plus augmented real photo crops from the training split. Its
85 outputs are the 42 designs times (upright, upside down) and ``back`` (see vision.crops).
This module trains it; the network itself (built, read back from ONNX, exported) is
:mod:`models.training.tilenet`, its names re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from models.training.crop_blur import blur_some
from models.training.crop_sets import lettered_flower_crops, photo_crops
from models.training.tilenet import build_network, export_classifier, network_from_onnx


def _augment(batch, generator, blur: float = 0.0):  # type: ignore[no-untyped-def]
    import torch

    n, device = batch.shape[0], batch.device

    def uniform(*shape: int):  # type: ignore[no-untyped-def]
        return torch.rand(*shape, generator=generator, device=device)

    gain = 1 + 0.25 * (uniform(n, 1, 1, 1) - 0.5) * 2
    tint = 1 + 0.1 * (uniform(n, 3, 1, 1) - 0.5) * 2
    offset = 0.1 * (uniform(n, 1, 1, 1) - 0.5)
    noise = 0.03 * torch.randn(batch.shape, generator=generator, device=device)
    batch = blur_some(batch, generator, blur)  # before the noise, as a camera blurs
    return (batch * gain * tint + offset + noise).clamp(0, 1)


def one_cycle(fraction: float) -> float:
    """Learning-rate factor at ``fraction`` of a run (of its steps or of its time): a linear
    0.04 -> 1 warm-up over the first 30 %, then a cosine down to 0, like torch's OneCycleLR."""
    import math

    fraction = min(max(fraction, 0.0), 1.0)
    if fraction < 0.3:
        return 0.04 + 0.96 * fraction / 0.3
    return 0.5 * (1 + math.cos(math.pi * (fraction - 0.3) / 0.7))


def _training_crops(
    out: Path,
    *,
    crop_sets: tuple[str, ...],
    shared: Path | None,
    rendered_limit: int | None,
    photo_copies: int,
    lettered_flowers: int,
    flower_boost: int,
    numbered_flowers: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    sets = [np.load(out / "data" / name / "crops.npz") for name in crop_sets]
    rendered_x = np.concatenate([data["x"] for data in sets])
    rendered_y = np.concatenate([data["y"] for data in sets])
    keep = np.arange(len(rendered_y))
    if rendered_limit is not None and rendered_limit < len(keep):
        keep = np.sort(np.random.default_rng(0).choice(keep, rendered_limit, replace=False))
    xs, ys = [rendered_x[keep]], [rendered_y[keep]]
    if shared is not None and (shared / "camerash-tiles").is_dir():
        px, py = photo_crops(shared, copies=photo_copies, seed=3)
        xs.append(px)
        ys.append(py)
    if lettered_flowers:
        lx, ly = lettered_flower_crops(lettered_flowers, copies=4, seed=11)
        xs.append(lx)
        ys.append(ly)
    if numbered_flowers:
        from models.art.numbered_flowers import numbered_flower_crops

        nx, ny = numbered_flower_crops(numbered_flowers, copies=8, seed=13)
        xs.append(nx)
        ys.append(ny)
    all_x, all_y = np.concatenate(xs), np.concatenate(ys)
    flowers = (all_y >= 2 * 34) & (all_y < 2 * 42)
    all_x = np.concatenate([all_x, *[all_x[flowers]] * (flower_boost - 1)])
    all_y = np.concatenate([all_y, *[all_y[flowers]] * (flower_boost - 1)])
    return all_x, all_y


def train_classifier(
    out: Path,
    epochs: int,
    shared: Path | None,
    target: Path,
    *,
    init: Path | None = None,
    max_lr: float = 3e-3,
    flower_boost: int = 1,
    rendered_limit: int | None = None,
    width: int = 16,
    photo_copies: int = 24,
    crop_sets: tuple[str, ...] = ("train",),
    val_set: str = "val",
    frozen_norm: bool = False,
    lettered_flowers: int = 0,
    numbered_flowers: int = 0,
    device: str = "cpu",
    seconds: float | None = None,
    blur: float = 0.0,
) -> float:
    """Train (or fine-tune from ``init``), report held-out crop accuracy, export ``target``.

    ``flower_boost`` repeats every flower crop that many times: flowers are 8 of 42 designs but
    the hardest to tell apart at crop size. ``rendered_limit`` keeps a random subset of the
    rendered crops (the photo crops are always all used). ``init`` may be a state dict (.pt)
    or an exported classifier (.onnx, see :func:`network_from_onnx`); ``frozen_norm`` keeps
    the batch norms' statistics fixed while training. ``lettered_flowers`` adds that many
    font-lettered faces per flower (models.art.font_flowers; none without the fonts), 4 crops each;
    ``numbered_flowers`` that many faces per flower told apart by their corner numeral and
    character (models.art.numbered_flowers), 8 crops each.
    ``device`` is a torch device ("cuda" keeps every crop on the GPU). With ``seconds`` the
    run lasts that long instead of ``epochs`` epochs, its learning rate following elapsed time.
    ``blur``: the share of each batch blurred again on the fly (models.training.crop_blur).
    """
    import time

    import torch
    from torch import nn

    started = time.monotonic()
    torch.manual_seed(0)
    all_x, all_y = _training_crops(
        out,
        crop_sets=crop_sets,
        shared=shared,
        rendered_limit=rendered_limit,
        photo_copies=photo_copies,
        lettered_flowers=lettered_flowers,
        flower_boost=flower_boost,
        numbered_flowers=numbered_flowers,
    )
    x = torch.from_numpy(all_x).permute(0, 3, 1, 2).contiguous().to(device)
    y = torch.from_numpy(all_y).to(device)
    val = np.load(out / "data" / val_set / "crops.npz")
    vx = torch.from_numpy(val["x"]).permute(0, 3, 1, 2).contiguous().to(device)
    vy = torch.from_numpy(val["y"]).to(device)
    net = _initial_network(init, width).to(device)
    optimiser = torch.optim.AdamW(net.parameters(), lr=max_lr, weight_decay=1e-4)
    steps_per_epoch = (len(x) + 255) // 256
    begun = time.monotonic()
    if seconds is not None:
        epochs = 10**6  # until the time is up

    def progress(step: int) -> float:
        """How far the run is: by the clock with ``seconds``, else by steps."""
        if seconds is not None:
            return (time.monotonic() - begun) / seconds
        return step / (epochs * steps_per_epoch)

    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda step: one_cycle(progress(step)))
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    generator = torch.Generator(device=device).manual_seed(0)
    accuracy, epoch = 0.0, 0
    while epoch < epochs and progress(schedule.last_epoch) < 1:
        epoch += 1
        loss = train_epoch(
            net,
            (x, y),
            (optimiser, schedule, loss_fn, generator),
            batch=256,
            frozen_norm=frozen_norm,
            blur=blur,
            done=(lambda: progress(schedule.last_epoch) >= 1) if seconds is not None else None,
        )
        accuracy = _accuracy(net, vx, vy)
        print(
            f"{target.stem} epoch {epoch}: loss {loss:.3f} "
            f"val crop accuracy {accuracy:.4f} ({len(x)} training crops, "
            f"{time.monotonic() - started:.0f} s)",
            flush=True,
        )
        export_classifier(net, target)  # every epoch, so a stopped run still leaves weights
        torch.save(net.state_dict(), out / f"{target.stem}.pt")
    return accuracy


def train_epoch(  # type: ignore[no-untyped-def]
    net,
    data,
    tools,
    *,
    batch: int,
    frozen_norm: bool = False,
    blur: float = 0.0,
    done: Callable[[], bool] | None = None,
) -> float:
    """One pass over ``data`` (crops N x 3 x H x W uint8, labels) in random batches of
    augmented crops (``blur``: the share blurred again), with ``tools`` (optimiser, LR schedule
    stepped per batch, loss function, torch generator); ``done`` ends it early. Returns the
    last batch's loss."""
    import torch

    x, y = data
    optimiser, schedule, loss_fn, generator = tools
    _train_mode(net, frozen_norm)
    order = torch.randperm(len(x), generator=generator, device=x.device)
    loss = torch.zeros(())
    for start in range(0, len(x), batch):
        index = order[start : start + batch]
        optimiser.zero_grad()
        loss = loss_fn(net(_augment(x[index].float() / 255, generator, blur)), y[index])
        loss.backward()
        optimiser.step()
        schedule.step()
        if done is not None and done():
            break
    return float(loss.detach())


def _accuracy(net, vx, vy) -> float:  # type: ignore[no-untyped-def]
    import torch

    net.eval()
    with torch.no_grad():
        hits = sum(
            int((net(vx[i : i + 4096].float() / 255).argmax(1) == vy[i : i + 4096]).sum())
            for i in range(0, len(vx), 4096)
        )
    return hits / max(len(vx), 1)


def _initial_network(init: Path | None, width: int):  # type: ignore[no-untyped-def]
    import torch

    if init is not None and init.suffix == ".onnx":
        return network_from_onnx(init)  # its width is the exported one
    net = build_network(width)
    if init is not None:
        net.load_state_dict(torch.load(init))
    return net


def _train_mode(net, frozen_norm: bool) -> None:  # type: ignore[no-untyped-def]
    from torch import nn

    net.train()
    if frozen_norm:
        for module in net.modules():
            if isinstance(module, nn.BatchNorm2d):
                module.eval()
