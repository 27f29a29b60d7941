"""Rebuild a trainable ultralytics checkpoint from the committed detector ONNX.

The ONNX export fuses every batch norm into its convolution, so the weights come back as a
convolution with a bias. Each batch norm is rebuilt to pass the convolution through unchanged
(plus the fused bias) while keeping its statistics honest: the convolution's per-channel mean and
variance are measured on training images (``--images``), stored as the running statistics, and
the scale set to undo them, so training mode (batch statistics) starts from nearly the same
network as the export instead of a rescaled one::

    python -m models.training.onnx_checkpoint models/weights/detector.onnx runs/vision/init.pt \
        --images runs/vision/data/train/images
"""

from __future__ import annotations

import argparse
from pathlib import Path

ARCHITECTURE = Path(__file__).resolve().parent.parent / "yolo11n-tiles.yaml"


def _channel_stats(net, images: list[Path], size: int) -> dict[str, tuple]:  # type: ignore[no-untyped-def]
    """Per-channel (mean, variance) of every convolution's output over ``images``."""
    import cv2
    import numpy as np
    import torch

    sums: dict[str, list] = {}  # type: ignore[type-arg]

    def hook(name: str):  # type: ignore[no-untyped-def]
        def record(_module, _inputs, output):  # type: ignore[no-untyped-def]
            x = output.detach().double()
            entry = sums.setdefault(name, [0.0, 0.0, 0])
            entry[0] = entry[0] + x.sum(dim=(0, 2, 3))
            entry[1] = entry[1] + (x * x).sum(dim=(0, 2, 3))
            entry[2] += x.numel() // x.shape[1]

        return record

    handles = [
        module.register_forward_hook(hook(name))
        for name, module in net.named_modules()
        if isinstance(module, torch.nn.Conv2d)
    ]
    net.eval()
    with torch.no_grad():
        for path in images:
            image = cv2.resize(cv2.imread(str(path)), (size, size))
            blob = torch.from_numpy(np.ascontiguousarray(image[:, :, ::-1].transpose(2, 0, 1)))
            net(blob[None].float() / 255)
    for handle in handles:
        handle.remove()
    return {
        name: (s / n, (q / n - (s / n) ** 2).clamp(min=1e-6)) for name, (s, q, n) in sums.items()
    }


def rebuild(
    onnx_path: Path,
    out: Path,
    architecture: Path = ARCHITECTURE,
    images: list[Path] | None = None,
    size: int = 640,
) -> int:
    """Write ``out`` (an ultralytics .pt) with the ONNX weights; returns tensors loaded."""
    import onnx
    import torch
    from onnx import numpy_helper
    from ultralytics import YOLO

    weights = {
        init.name: torch.from_numpy(numpy_helper.to_array(init).copy())
        for init in onnx.load(str(onnx_path)).graph.initializer
    }
    yolo = YOLO(str(architecture))
    net = yolo.model
    modules = dict(net.named_modules())
    loaded = 0
    with torch.no_grad():
        for name, module in modules.items():
            if not isinstance(module, torch.nn.Conv2d):
                continue
            weight = weights.get(f"{name}.weight")
            if weight is None and name.endswith("dfl.conv"):
                continue  # fixed (0..15), not trained; absent from a cut head (detector_head.py)
            if weight is None:
                raise ValueError(f"no weight for {name} in {onnx_path}")
            module.weight.copy_(weight)
            bias = weights.get(f"{name}.bias")
            parent = modules.get(name.rsplit(".", 1)[0]) if "." in name else None
            norm = getattr(parent, "bn", None) if name.endswith(".conv") else None
            if isinstance(norm, torch.nn.BatchNorm2d):
                norm.running_mean.zero_()
                norm.running_var.fill_(1 - norm.eps)
                norm.weight.fill_(1.0)
                norm.bias.copy_(bias if bias is not None else torch.zeros_like(norm.bias))
            elif bias is not None and module.bias is not None:
                module.bias.copy_(bias)
            loaded += 1
    if images:
        # batch norms are identities now, so the net computes the export; measure it, then
        # make each norm undo exactly the statistics it will see in training mode
        stats = _channel_stats(net, images, size)
        with torch.no_grad():
            for name, module in modules.items():
                norm = getattr(module, "bn", None)
                if not isinstance(norm, torch.nn.BatchNorm2d) or f"{name}.conv" not in stats:
                    continue
                mean, var = (t.float() for t in stats[f"{name}.conv"])
                # the hook saw conv output only (no bias): BN(x) = x + bias at these statistics
                norm.running_mean.copy_(mean)
                norm.running_var.copy_(var)
                norm.weight.copy_(torch.sqrt(var + norm.eps))
                norm.bias.add_(mean)
    net.names = {0: "tile", 1: "back"}
    out.parent.mkdir(parents=True, exist_ok=True)
    yolo.save(str(out))
    return loaded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("onnx", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--images", type=Path, help="training images to measure statistics on")
    parser.add_argument("--count", type=int, default=32)
    parser.add_argument("--size", type=int, default=640)
    args = parser.parse_args()
    images = sorted(args.images.glob("*.jpg"))[: args.count] if args.images else None
    loaded = rebuild(args.onnx, args.out, images=images, size=args.size)
    print(f"loaded {loaded} convolutions into {args.out}")


if __name__ == "__main__":
    main()
