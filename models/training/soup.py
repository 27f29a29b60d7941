"""Average the weights of classifiers fine-tuned from one network (a "model soup").

    .venv/bin/python -m models.training.soup runs/vision/classifier-b1.onnx \
        runs/vision/classifier-c1.onnx --target runs/vision/classifier-s1.onnx

Two fine-tunes that start from the same weights stay in one basin of the loss, so the mean of
their weights reads like a network of its own, often a little better than either (Wortsman et
al., 2022), at no cost at run time. The exports fold each batch norm into its convolution; with
the norms frozen while fine-tuning (``train_classifier(frozen_norm=True)``) that folding is
linear, so the mean of the folded weights is the fold of the mean. Every float initializer is
averaged; the graphs must match exactly (the same network exported the same way).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np


class SoupError(ValueError):
    """The networks cannot be averaged: different graphs or weight shapes."""


def average_classifiers(sources: list[Path], target: Path) -> Path:
    """Write to ``target`` the first source's graph with every float weight the mean of all."""
    import onnx
    from onnx import numpy_helper

    if len(sources) < 2:
        raise SoupError("a soup needs two networks or more")
    models = [onnx.load(str(path)) for path in sources]
    first = models[0]
    ops = [node.op_type for node in first.graph.node]
    weights = [
        {w.name: numpy_helper.to_array(w) for w in model.graph.initializer} for model in models
    ]
    for path, model, named in zip(sources[1:], models[1:], weights[1:], strict=True):
        if [node.op_type for node in model.graph.node] != ops:
            raise SoupError(f"{path}: not the same network as {sources[0]}")
        shapes = {name: array.shape for name, array in named.items()}
        if shapes != {name: array.shape for name, array in weights[0].items()}:
            raise SoupError(f"{path}: weights differ in name or shape from {sources[0]}")
    for tensor in first.graph.initializer:
        arrays = [named[tensor.name] for named in weights]
        if np.issubdtype(arrays[0].dtype, np.floating):
            mean = np.mean(np.stack(arrays), axis=0).astype(arrays[0].dtype)
            tensor.CopyFrom(numpy_helper.from_array(mean, tensor.name))
    target.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(first, str(target))
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", type=Path, nargs="+")
    parser.add_argument("--target", type=Path, required=True)
    args = parser.parse_args()
    print(f"wrote {average_classifiers(args.sources, args.target)}")


if __name__ == "__main__":
    main()
