"""The crops a classifier reads wrong or unsure, gathered into a crop set of their own.

Listed twice in ``train_classifier(crop_sets=...)`` they are seen three times an epoch: a
fine-tune spends more of its steps on the blurred, dim and badly framed tiles the classifier
still misses. Some are hopeless (a box over two tiles, a tile under an arm) and are repeated
anyway; label smoothing keeps them from pulling hard. The eleventh session's classifier::

    .venv/bin/python -m models.training.hard_crops runs/vision/data/hard8 \
        --sets blurAll81 blurAll85 blurOwn83 blurOwn87
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from vision.crops import BACK_INDEX, kind_probabilities
from vision.detector_backends import WEIGHTS

BATCH = 2048


def hard_mask(probs: np.ndarray, labels: np.ndarray, unsure: float = 0.6) -> np.ndarray:
    """Crops whose best kind (orientations summed) is not their own, or whose own kind scores
    under ``unsure``."""
    kinds = kind_probabilities(probs)
    truth = np.where(labels == BACK_INDEX, kinds.shape[1] - 1, labels // 2)
    own = kinds[np.arange(len(labels)), truth]
    return np.asarray((kinds.argmax(axis=1) != truth) | (own < unsure))


def write_hard_crops(
    out: Path, sources: list[Path], classifier: Path = WEIGHTS / "classifier.onnx"
) -> int:
    """``out/crops.npz`` with the hard crops of every ``sources`` crop set; returns how many."""
    from vision.detector import OnnxClassifier

    reader = OnnxClassifier(classifier)
    xs, ys = [], []
    for source in sources:
        data = np.load(source / "crops.npz")
        x, y = data["x"], data["y"]
        probs = np.concatenate([reader.classify(x[i : i + BATCH]) for i in range(0, len(x), BATCH)])
        hard = hard_mask(probs, y)
        print(f"{source.name}: {int(hard.sum())} hard of {len(y)}", flush=True)
        xs.append(x[hard])
        ys.append(y[hard])
    out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out / "crops.npz", x=np.concatenate(xs), y=np.concatenate(ys))
    return sum(len(y) for y in ys)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sets", nargs="+", required=True, help="crop sets under --data")
    parser.add_argument("--data", type=Path, default=Path("runs/vision/data"))
    parser.add_argument("--classifier", type=Path, default=WEIGHTS / "classifier.onnx")
    args = parser.parse_args()
    count = write_hard_crops(args.out, [args.data / name for name in args.sets], args.classifier)
    print(f"wrote {count} hard crops to {args.out}")


if __name__ == "__main__":
    main()
