"""Evaluate the card reader on held-out rendered scenes (seeds never trained on).

A card counts when at least one of its corner indices shows (>= 95 % unoccluded, in frame).
It is *found* when a card read has an index within 0.4 index heights of one of its showing
indices, *read right* when found with the right rank (what the rules use; suits reported apart),
*boxed right* when the read card's quad overlaps its true quad at IoU >= 0.5. Reads that match
no showing index are *invented*, unless they read the rank of a partly covered index there.
Rates come with Wilson 95 % intervals, per rank too, and the
reader's frames/s at 1080p (the whole ``CardReader.read``, one process, wall clock) and the
CPU time a frame costs (all threads; on a machine shared with other jobs the wall clock
says more about them than about the reader).

    PYTHONPATH=. nice -n 10 .venv/bin/python -m models.cards.evaluate --scenes 200
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from models.cards.scene import HELD_OUT_FROM, render
from vision.cards import WEIGHTS, CardRead, CardReader

EVAL_FROM = HELD_OUT_FROM + 500_000


def wilson(right: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``right`` out of ``total`` (0, 1 when total is 0)."""
    if total == 0:
        return 0.0, 1.0
    p = right / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter
    return float(inter / union) if union > 0 else 0.0


def _rank(code: str) -> str:
    return code if code in ("BJ", "RJ") else code[0]


def score_scene(reads: list[CardRead], cards: list, tally: Counter, per_rank: dict) -> None:  # type: ignore[type-arg]
    """Add one scene's outcome to ``tally`` and ``per_rank`` (rank -> Counter)."""
    used = [False] * len(reads)
    for card in cards:
        if not card.code or not card.indices:
            continue
        rank = _rank(card.code)
        counts = per_rank.setdefault(rank, Counter())
        tally["cards"] += 1
        counts["cards"] += 1
        for i, read in enumerate(reads):
            if used[i]:
                continue
            near = any(
                np.linalg.norm(r.mean(0) - q.mean(0)) < 0.4 * np.linalg.norm(q[0] - q[3])
                for r in read.indices
                for q in card.indices
            )
            if not near:
                continue
            used[i] = True
            tally["found"] += 1
            if _rank(read.code) == rank:
                tally["read"] += 1
                counts["read"] += 1
                tally["suit"] += int(read.code == card.code)
            if iou(read.quad, card.quad) >= 0.5:
                tally["boxed"] += 1
                counts["boxed"] += 1
            break
    for i, read in enumerate(reads):  # a read of a partly covered index is no invention
        if used[i]:
            continue
        covered = any(
            _rank(read.code) == _rank(card.code or "")
            and np.linalg.norm(r.mean(0) - q.mean(0)) < 0.4 * np.linalg.norm(q[0] - q[3])
            for card in cards
            for q in card.hidden
            for r in read.indices
        )
        tally["covered" if covered else "invented"] += 1


def evaluate(scenes: int, weights: Path = WEIGHTS, first: int = EVAL_FROM) -> dict[str, object]:
    reader = CardReader(weights)
    tally: Counter[str] = Counter()
    per_rank: dict[str, Counter[str]] = {}
    seconds: list[float] = []
    cpu: list[float] = []
    for seed in range(first, first + scenes):
        scene = render(seed)
        start, start_cpu = time.perf_counter(), time.process_time()
        reads = reader.read(scene.image)
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        score_scene(reads, scene.cards, tally, per_rank)
    cards = tally["cards"]
    result: dict[str, object] = {
        "scenes": scenes,
        "seeds": f"{first}:{first + scenes}",
        "cards": cards,
        "read_right": tally["read"] / max(cards, 1),
        "read_right_95": wilson(tally["read"], cards),
        "boxed_right": tally["boxed"] / max(cards, 1),
        "boxed_right_95": wilson(tally["boxed"], cards),
        "found": tally["found"] / max(cards, 1),
        "suit_right_of_read": tally["suit"] / max(tally["read"], 1),
        "invented_per_scene": tally["invented"] / scenes,
        "covered_reads_per_scene": tally["covered"] / scenes,
        "fps_1080p": 1 / float(np.mean(seconds[1:] or seconds)),
        "cpu_ms_per_frame": 1000 * float(np.mean(cpu[1:] or cpu)),
        "per_rank": {
            rank: {
                "cards": c["cards"],
                "read_right": c["read"] / c["cards"],
                "read_right_95": wilson(c["read"], c["cards"]),
                "boxed_right": c["boxed"] / c["cards"],
            }
            for rank, c in sorted(per_rank.items())
        },
    }
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Card reader on held-out rendered scenes.")
    parser.add_argument("--scenes", type=int, default=200)
    parser.add_argument("--first", type=int, default=EVAL_FROM)
    parser.add_argument("--weights", type=Path, default=WEIGHTS)
    parser.add_argument("--json", type=Path, help="also write the result here")
    args = parser.parse_args(argv)
    result = evaluate(args.scenes, args.weights, args.first)
    text = json.dumps(result, indent=1, default=lambda v: round(v, 4))
    print(text)
    if args.json:
        args.json.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
