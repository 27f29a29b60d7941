"""The card reader on real card photographs fetched by :mod:`models.cards.photo_sources`.

    python -m models.cards.evaluate_photos NAME [--cache DIR] [--card-height none|labels]
                                    [--only TEXT] [--aspect W:H] [--limit N] [--json OUT]

For each image the reader's cards are matched one to one against the labelled face-up cards:
a read matches a truth card of the same rank (and, counted apart, the same rank and suit) when
it lies on it: the read's quad centre inside the truth box; for a source that boxes corner
indices, a labelled index centre inside the read's quad or a read index centre inside a
labelled index box; with neither, per image as multisets. Printed as a markdown table with 95 %
Wilson intervals: cards read right, reads right (a read matching no labelled card counts
wrong, so unlabelled cards in a photo lower it), images with every card right, seconds per
image. ``--card-height labels`` gives the reader each photo's card height from its labels
(index length / 0.2), as a table calibration would; ``none`` lets the reader assume its
default. ``--aspect 16:9`` undoes a source's square resize (Roboflow "stretch") before reading.
An image that cannot be decoded is reported by name and skipped.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from models.cards.evaluate import wilson
from models.cards.photo_sources import DEFAULT_CACHE
from vision.card_places import LENGTH_PER_HEIGHT
from vision.cards import WEIGHTS, CardRead, CardReader, CardReaderError, decode

SUITS = "shdc"
Truth = dict[str, Any]


def rank(code: str) -> str:
    """A code's rank (``Td`` -> ``T``; jokers and rank-only codes as they are)."""
    return code[:-1] if len(code) == 2 and code[-1] in SUITS else code


def has_suit(code: str) -> bool:
    return code in ("BJ", "RJ") or rank(code) != code


def _centre(box: Sequence[float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _inside(point: Sequence[float], box: Sequence[float], grow: float = 0.0) -> bool:
    gx, gy = (box[2] - box[0]) * grow, (box[3] - box[1]) * grow
    return box[0] - gx <= point[0] <= box[2] + gx and box[1] - gy <= point[1] <= box[3] + gy


def lies_on(read: CardRead, truth: Truth) -> bool:
    """Whether ``read`` sits on the labelled card ``truth`` (see the module docstring)."""
    if truth.get("box"):
        return _inside(read.quad.mean(axis=0), truth["box"])
    indices = truth.get("indices") or []
    if not indices:
        return True
    quad = read.quad.astype(np.float32).reshape(-1, 1, 2)
    if any(cv2.pointPolygonTest(quad, _centre(b), False) >= 0 for b in indices):
        return True
    read_centres = [q.mean(axis=0) for q in read.indices]
    return any(_inside(c, b, 0.25) for c in read_centres for b in indices)


def match(
    reads: Sequence[CardRead], truth: Sequence[Truth], key: Callable[[str], str]
) -> list[tuple[int, int]]:
    """One-to-one (truth, read) pairs whose ``key`` of the code agrees and that lie on each
    other; greedy, truth cards with fewest candidates first."""
    options = {
        t: [
            r
            for r, read in enumerate(reads)
            if key(read.code) == key(card["code"]) and lies_on(read, card)
        ]
        for t, card in enumerate(truth)
    }
    used: set[int] = set()
    pairs = []
    for t in sorted(options, key=lambda t: len(options[t])):
        free = [r for r in options[t] if r not in used]
        if free:
            used.add(free[0])
            pairs.append((t, free[0]))
    return pairs


def score_image(reads: Sequence[CardRead], truth: Sequence[Truth], tally: Counter[str]) -> None:
    """Add one image's counts to ``tally``."""
    by_rank = match(reads, truth, rank)
    by_code = match(reads, [t for t in truth if has_suit(t["code"])], lambda c: c)
    suited = sum(has_suit(t["code"]) for t in truth)
    tally["images"] += 1
    tally["cards"] += len(truth)
    tally["rank_right"] += len(by_rank)
    tally["suited"] += suited
    tally["code_right"] += len(by_code)
    tally["reads"] += len(reads)
    tally["reads_right"] += len(by_rank)
    if truth:  # an image with no face-up card labelled says nothing here
        tally["images_with_cards"] += 1
        tally["images_all_right"] += int(len(by_code) == suited and len(by_rank) == len(truth))


def card_height(record: Truth) -> float | None:
    """A photo's card height (px) from its labels: card boxes' long side, or index length /
    LENGTH_PER_HEIGHT; None without labelled cards."""
    sides = [max(b[2] - b[0], b[3] - b[1]) for c in record["cards"] if (b := c.get("box"))]
    if sides:
        return float(np.median(sides))
    lengths = [
        max(b[2] - b[0], b[3] - b[1]) for c in record["cards"] for b in c.get("indices") or []
    ]
    return float(np.median(lengths)) / LENGTH_PER_HEIGHT if lengths else None


def unstretch(image: np.ndarray, record: Truth, aspect: float) -> np.ndarray:
    """Undo a square resize: widen ``image`` to ``aspect`` (width / height) and its labels."""
    h, w = image.shape[:2]
    sx = h * aspect / w
    for card in record["cards"]:
        for box in [card.get("box"), *(card.get("indices") or [])]:
            if box:
                box[0], box[2] = box[0] * sx, box[2] * sx
    return cv2.resize(image, (round(h * aspect), h), interpolation=cv2.INTER_CUBIC)


def evaluate(
    folder: Path,
    reader: CardReader,
    *,
    heights: str = "none",
    limit: int | None = None,
    only: str = "",
    aspect: float | None = None,
) -> dict[str, Any]:
    """Read every image of a fetched source ``folder`` (file names containing ``only``; widened
    to ``aspect`` when given); counts, shares and intervals."""
    labels = [p for p in sorted((folder / "labels").glob("*.json")) if only in p.name][:limit]
    if not labels:
        raise FileNotFoundError(
            f"{folder}: no labels (run python -m models.cards.photo_sources fetch)"
        )
    tally: Counter[str] = Counter()
    unreadable: list[str] = []
    seconds = 0.0
    for label in labels:
        record = json.loads(label.read_text())
        path = folder / "images" / record["image"]
        try:
            image = decode(path.read_bytes(), str(path))
        except (OSError, CardReaderError) as error:
            print(f"skipped {path.name}: {error}", file=sys.stderr)
            unreadable.append(record["image"])
            continue
        if aspect:
            image = unstretch(image, record, aspect)
        start = time.perf_counter()
        reads = reader.read(image, card_height(record) if heights == "labels" else None)
        seconds += time.perf_counter() - start
        score_image(reads, record["cards"], tally)
    return summarise(tally, seconds, unreadable)


def summarise(tally: Counter[str], seconds: float, unreadable: list[str]) -> dict[str, Any]:
    rows = {
        "cards read right (rank)": (tally["rank_right"], tally["cards"]),
        "cards read right (rank and suit)": (tally["code_right"], tally["suited"]),
        "reads right (rank)": (tally["reads_right"], tally["reads"]),
        "images with every card right": (tally["images_all_right"], tally["images_with_cards"]),
    }
    metrics = {
        name: {"right": r, "total": n, "share": r / n if n else None, "ci95": wilson(r, n)}
        for name, (r, n) in rows.items()
    }
    per_image = seconds / tally["images"] if tally["images"] else None
    return {"metrics": metrics, "seconds_per_image": per_image, "unreadable": unreadable}


def table(result: dict[str, Any]) -> str:
    """The result as a markdown table."""
    lines = ["| measure | right / total | share | 95 % Wilson |", "| --- | --- | --- | --- |"]
    for name, m in result["metrics"].items():
        share = "-" if m["share"] is None else f"{m['share']:.3f}"
        low, high = m["ci95"]
        lines.append(f"| {name} | {m['right']} / {m['total']} | {share} | {low:.3f}-{high:.3f} |")
    per = result["seconds_per_image"]
    lines.append(f"| seconds per image | | {'-' if per is None else f'{per:.3f}'} | |")
    if result["unreadable"]:
        lines.append(f"| unreadable images (skipped) | {len(result['unreadable'])} | | |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m models.cards.evaluate_photos", description=__doc__
    )
    parser.add_argument("name", help="a fetched source (python -m models.cards.photo_sources list)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--card-height", choices=("none", "labels"), default="none")
    parser.add_argument("--limit", type=int, help="only the first N images")
    parser.add_argument("--only", default="", help="only files whose name contains this")
    parser.add_argument("--aspect", help="undo a square resize: the camera's W:H, e.g. 16:9")
    parser.add_argument("--json", type=Path, help="also write the result here")
    parser.add_argument("--weights", type=Path, default=WEIGHTS, help="the reader's network")
    args = parser.parse_args(argv)
    folder = Path(args.cache).expanduser() / args.name
    try:
        aspect = None
        if args.aspect:
            w, h = (float(v) for v in args.aspect.split(":"))
            aspect = w / h
        result = evaluate(
            folder,
            CardReader(args.weights),
            heights=args.card_height,
            limit=args.limit,
            only=args.only,
            aspect=aspect,
        )
    except FileNotFoundError as error:
        print(error, file=sys.stderr)
        return 2
    result |= {"source": args.name, "card_height": args.card_height, "only": args.only}
    result |= {"aspect": args.aspect}
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
