"""Fine-tune the photo reader's classifier from the table one, on photographed and rendered crops.

    PYTHONPATH=. .venv/bin/python -m models.photo.classifier --data runs/photo-classifier \
        --minutes 40 --shared ../shared/datasets

reads ``<data>/data/real/train``, ``<data>/data/rendered/train`` (models.photo.crops) and the
real Camerash training photos, validates on ``<data>/data/real/val`` (photos never trained on),
and writes ``models/weights/photo-classifier.onnx`` (float: a photo is read once, so the int8
copy the table camera needs for speed is not worth its risk here) with its checksum. The table
camera keeps its own classifier: this one is tuned to whole tiles seen at any angle, and its
errors must not reach the overhead path.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from vision.detector_backends import WEIGHTS
from vision.photo import PHOTO_CLASSIFIER


def main() -> None:
    from models.training.classifier import train_classifier
    from models.training.train import write_checksum

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=Path("runs/photo-classifier"))
    parser.add_argument("--minutes", type=float, default=40)
    parser.add_argument("--init", type=Path, default=WEIGHTS / "classifier.onnx")
    parser.add_argument("--shared", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--target", type=Path, default=WEIGHTS / PHOTO_CLASSIFIER)
    parser.add_argument("--sets", nargs="+", default=["real/train", "rendered/train"])
    args = parser.parse_args()
    sets = tuple(s for s in args.sets if (args.data / "data" / s / "crops.npz").is_file())
    accuracy = train_classifier(
        args.data,
        epochs=1,
        shared=args.shared if args.shared.is_dir() else None,
        target=args.target,
        init=args.init,
        max_lr=1e-3,
        photo_copies=8,
        crop_sets=sets,
        val_set="real/val",
        seconds=60 * args.minutes,
        blur=0.2,
    )
    print(
        f"{args.target}: real validation crops read {accuracy:.4f}; sha256 "
        f"{write_checksum(args.target)}"
    )


if __name__ == "__main__":
    main()
