"""Training crops for the card reader's network from real card photographs.

A fetched photo set (:mod:`models.cards.photo_sources`: labelled corner-index boxes, no card
outlines, no way up) is searched by the reader's own candidate finder at the card height its
labels give (:func:`models.cards.evaluate_photos.card_height`). A candidate whose centre lies
in a labelled index box, and whose length fits the box, is that face; which way up the crop
shows it (the labels do not say) follows from the card's centre where the card shows both its
corner indices (an index read its own way up has its card's centre below it), else is the
committed network's, summed over every face, where it is sure (:data:`SURE_WAY_UP`), else the
crop is left out. A candidate far from every labelled index (two index lengths) is ``none``;
one near an index but not on it is left out (a pip, a half-hidden index). Index crops are cut
a few more times with the centre, size and angle jittered (:func:`models.cards.crops._jitter`).

Only a set's training photos: the evaluation's (``card-detection-rf``, valid and test) are
cut only with ``--validation`` (no jitter), to validate a training run apart.

    PYTHONPATH=. nice -n 10 .venv/bin/python -m models.cards.photo_crops \\
        card-detection-rf-train --out runs/cards/real-crops.npz
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from models.cards.crops import _jitter, save_crops
from models.cards.evaluate_photos import card_height
from models.cards.photo_sources import DEFAULT_CACHE
from vision.card_candidates import CROP_H, CROP_W, FACES, NONE, Candidate, crops, find, output_of
from vision.detector_backends import onnx_session

HELD_OUT = ("card-detection-rf",)  # the evaluation's photos
#: The share of the network's index probability on one way up for a crop to be kept.
SURE_WAY_UP = 0.8
WEIGHTS = Path(__file__).resolve().parents[2] / "models" / "weights" / "cards.onnx"


def _on_box(candidate: Candidate, box: list[float]) -> bool:
    """The candidate's centre in the index box and its length within a half of the box's."""
    x1, y1, x2, y2 = box
    if not (x1 <= candidate.cx <= x2 and y1 <= candidate.cy <= y2):
        return False
    return 0.5 <= candidate.length / max(x2 - x1, y2 - y1) <= 1.6


def _far(candidate: Candidate, boxes: list[list[float]]) -> bool:
    for x1, y1, x2, y2 in boxes:
        reach = 2 * max(x2 - x1, y2 - y1)
        if abs(candidate.cx - (x1 + x2) / 2) < reach and abs(candidate.cy - (y1 + y2) / 2) < reach:
            return False
    return True


def _card_centres(record: dict[str, Any]) -> list[tuple[str, list[float], np.ndarray | None]]:
    """Each labelled index: its face, its box, and its card's centre where the card shows two
    indices (their boxes' mean centre: the two corners of a card), else None."""
    out = []
    for card in record["cards"]:
        boxes = [b for b in card.get("indices") or [] if card["code"] in FACES]
        centres = [np.array([(b[0] + b[2]) / 2, (b[1] + b[3]) / 2]) for b in boxes]
        middle = np.mean(centres, axis=0) if len(centres) >= 2 else None
        out += [(card["code"], box, middle) for box in boxes]
    return out


def _flipped(candidate: Candidate, centre: np.ndarray | None, probs: np.ndarray) -> bool | None:
    """Whether the crop shows its index upside down: read in its own way up an index has its
    card's centre below it, so a centre above the crop's top says upside down; without the
    centre, the committed network's way up where it is sure; None when neither tells."""
    if centre is not None:
        towards = (centre[0] - candidate.cx) * candidate.ux + (
            centre[1] - candidate.cy
        ) * candidate.uy
        return bool(towards > 0)
    up, down = float(probs[0:NONE:2].sum()), float(probs[1:NONE:2].sum())
    if max(up, down) < SURE_WAY_UP * (up + down):
        return None
    return down > up


def photo_crops(  # type: ignore[no-untyped-def]
    image: np.ndarray,
    record: dict[str, Any],
    session,
    rng: np.random.Generator,
    jitters: int = 2,
) -> tuple[np.ndarray, np.ndarray]:
    """Crops and outputs of one labelled photo (empty when its labels give no card height)."""
    height = card_height(record)
    empty = np.empty((0, CROP_H, CROP_W, 3), np.uint8), np.empty(0, np.int16)
    if height is None:
        return empty
    indices = _card_centres(record)
    boxes = [box for _, box, _ in indices]
    chosen: list[Candidate] = []
    found: list[tuple[str, np.ndarray | None] | None] = []
    for candidate in find(image, height):
        hit = next((i for i in indices if _on_box(candidate, i[1])), None)
        if hit is not None:
            chosen.append(candidate)
            found.append((hit[0], hit[2]))
        elif _far(candidate, boxes):
            chosen.append(candidate)
            found.append(None)
    if not chosen:
        return empty
    probs = session.run(
        None, {"crops": crops(image, chosen).transpose(0, 3, 1, 2).astype(np.float32) / 255}
    )[0]
    kept: list[Candidate] = []
    labels: list[int] = []
    for candidate, what, row in zip(chosen, found, probs, strict=True):
        if what is None:
            kept.append(candidate)
            labels.append(NONE)
            continue
        flipped = _flipped(candidate, what[1], row)
        if flipped is None:
            continue
        for extra in range(jitters + 1):
            kept.append(candidate if extra == 0 else _jitter(rng, candidate))
            labels.append(output_of(what[0], flipped))
    if not kept:
        return empty
    return crops(image, kept), np.array(labels, np.int16)


def build(
    name: str, out: Path, jitters: int = 2, seed: int = 0, *, validation: bool = False
) -> int:
    """Crops of every photo of the set ``name`` into ``out`` (.npz: crops, labels);
    ``validation``: to validate a training run apart (the evaluation's set allowed)."""
    if name in HELD_OUT and not validation:
        raise ValueError(f"{name} is the evaluation's set: never cut for training")
    folder = DEFAULT_CACHE.expanduser() / name
    session = onnx_session(WEIGHTS)
    rng = np.random.default_rng(seed)
    parts: list[tuple[np.ndarray, np.ndarray]] = []
    for path in sorted((folder / "labels").glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        image = cv2.imread(str(folder / "images" / record["image"]))
        if image is None:
            print(f"skipped {record['image']}: unreadable")
            continue
        part = photo_crops(image, record, session, rng, jitters)
        if len(part[1]):
            parts.append(part)
    return save_crops(parts, out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Card reader training crops from real photos.")
    parser.add_argument("name", help="a fetched set of models.cards.photo_sources (training)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--jitters", type=int, default=2)
    parser.add_argument(
        "--validation", action="store_true", help="crops to validate apart (train --held-out)"
    )
    args = parser.parse_args(argv)
    count = build(args.name, args.out, args.jitters, validation=args.validation)
    print(f"{count} crops -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
