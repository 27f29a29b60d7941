"""TileNet, the tile identity classifier's network: built for a crop size and width, rebuilt
from an exported ONNX classifier (to fine-tune it), and exported to ONNX with a softmax.

Torch and onnx are imported inside the functions (the training extra).
"""

from __future__ import annotations

from pathlib import Path

from vision.crops import CLASSES_OUT, CROP_H, CROP_W


def build_network(  # type: ignore[no-untyped-def]
    width: int = 16,
    outputs: int = CLASSES_OUT,
    crop: tuple[int, int] = (CROP_H, CROP_W),
    final_pool: int = 1,
    *,
    stage_convs: tuple[int, int, int] = (1, 2, 2),
    hidden: int = 192,
):
    """TileNet: three conv stages (``width``, 2x, 4x channels; ``stage_convs`` 3x3 convolutions
    each), each max-pooled 2x2, and a dense head of ``hidden`` units, for ``crop`` (height,
    width) inputs and ``outputs`` classes; ``final_pool`` > 1 max-pools the last stage that
    much more (a smaller head for larger crops)."""
    import torch
    from torch import nn

    def stage(cin: int, cout: int, convs: int) -> list[nn.Module]:
        layers: list[nn.Module] = []
        for c in (cin, *[cout] * (convs - 1)):
            layers += [nn.Conv2d(c, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout)]
            layers.append(nn.ReLU())
        return [*layers, nn.MaxPool2d(2)]

    channels = (3, width, 2 * width, 4 * width)

    class TileNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                *[
                    layer
                    for i, convs in enumerate(stage_convs)
                    for layer in stage(channels[i], channels[i + 1], convs)
                ],
                *([nn.MaxPool2d(final_pool)] if final_pool > 1 else []),
            )
            cells = (crop[0] // (8 * final_pool)) * (crop[1] // (8 * final_pool))
            self.head = nn.Sequential(
                nn.Flatten(),
                nn.Dropout(0.3),
                nn.Linear(channels[3] * cells, hidden),
                nn.ReLU(),
                nn.Linear(hidden, outputs),
            )

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.features(x))

    return TileNet()


def network_from_onnx(path: Path, crop: tuple[int, int] = (CROP_H, CROP_W)):  # type: ignore[no-untyped-def]
    """TileNet with the weights of an exported classifier (or expert: the stages' convolutions
    and the head's size are read from the graph). Export folds each batch norm into
    its convolution, so each norm here becomes the identity plus that bias: the same function
    in eval mode; fine-tune it with ``frozen_norm`` (train mode would use batch statistics).
    ``crop``: the (height, width) it reads (the outputs are read from the graph)."""
    import onnx
    import torch
    from onnx import numpy_helper
    from torch import nn

    graph = onnx.load(str(path)).graph
    weights = {w.name: torch.from_numpy(numpy_helper.to_array(w).copy()) for w in graph.initializer}
    nodes = [n for n in graph.node if n.op_type == "Conv"]
    widths = [int(weights[n.input[1]].shape[0]) for n in nodes]
    width = widths[0]  # the first conv's width; each stage doubles it
    stage_convs = tuple(widths.count(width * 2**stage) for stage in range(3))
    net = build_network(
        width=width,
        stage_convs=stage_convs,  # type: ignore[arg-type]
        hidden=int(weights["net.head.2.weight"].shape[0]),
        outputs=int(weights["net.head.4.weight"].shape[0]),
        crop=crop,
    )
    convs = [m for m in net.features if isinstance(m, nn.Conv2d)]
    norms = [m for m in net.features if isinstance(m, nn.BatchNorm2d)]
    with torch.no_grad():
        for conv, norm, node in zip(convs, norms, nodes, strict=True):
            conv.weight.copy_(weights[node.input[1]])
            norm.running_mean.zero_()
            norm.running_var.fill_(1 - norm.eps)
            norm.weight.fill_(1)
            norm.bias.copy_(weights[node.input[2]])
        for index in (2, 4):
            net.head[index].weight.copy_(weights[f"net.head.{index}.weight"])
            net.head[index].bias.copy_(weights[f"net.head.{index}.bias"])
    return net


def export_classifier(  # type: ignore[no-untyped-def]
    net, target: Path, crop: tuple[int, int] = (CROP_H, CROP_W)
) -> None:
    import torch

    class WithSoftmax(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = net

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.softmax(self.net(x), dim=1)

    target.parent.mkdir(parents=True, exist_ok=True)
    device = next(net.parameters()).device
    model = WithSoftmax().cpu().eval()
    torch.onnx.export(
        model,
        torch.zeros(1, 3, *crop),
        str(target),
        opset_version=17,
        input_names=["crops"],
        output_names=["probs"],
        dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}},
        dynamo=False,
    )
    net.to(device)
