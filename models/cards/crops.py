"""Training crops for the card reader's network, cut where the reader cuts them.

Each rendered scene (:mod:`models.cards.scene`) is searched by the reader's own candidate finder
(:mod:`vision.card_candidates`); a candidate on a showing corner index (centre within 0.3 of the
index's height, long axis along it) is labelled with its face and which way up the crop shows it,
one on a covered index is left out, any other is ``none``. Index candidates are also cut a few
more times with the centre, size and angle jittered a little.

    PYTHONPATH=. nice -n 10 .venv/bin/python -m models.cards.crops --seeds 0:250 --workers 2 \\
        --out runs/cards/crops-0.npz    # and 250:500, ... (five chunks of 250 scenes)
"""

from __future__ import annotations

import argparse
import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np

from models.cards.scene import HELD_OUT_FROM, render
from vision.card_candidates import NONE, Candidate, crops, find, output_of


def _match(candidate: Candidate, quads: list[np.ndarray]) -> tuple[int, bool] | None:
    """The quad ``candidate`` lies on (its number, and whether the crop shows it upside down)."""
    centre = np.array([candidate.cx, candidate.cy])
    up = np.array([candidate.ux, candidate.uy])
    for number, quad in enumerate(quads):
        quad_up = quad[0] + quad[1] - quad[2] - quad[3]  # bottom edge to top edge
        height = float(np.linalg.norm(quad_up)) / 2
        if np.linalg.norm(quad.mean(0) - centre) > 0.3 * height:
            continue
        along = float(up @ quad_up) / (2 * height)
        if abs(along) > 0.9:
            return number, along < 0
    return None


def _jitter(rng: np.random.Generator, candidate: Candidate) -> Candidate:
    turn = rng.normal(0, math.radians(4))
    ux = candidate.ux * math.cos(turn) - candidate.uy * math.sin(turn)
    uy = candidate.ux * math.sin(turn) + candidate.uy * math.cos(turn)
    shift = rng.normal(0, 0.06 * candidate.length, 2)
    return replace(
        candidate,
        cx=candidate.cx + float(shift[0]),
        cy=candidate.cy + float(shift[1]),
        ux=ux,
        uy=uy,
        length=candidate.length * float(rng.uniform(0.88, 1.12)),
    )


def scene_crops(seed: int, jitters: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Crops (N x H x W x 3 uint8) and outputs (N) from the scene of ``seed``."""
    scene = render(seed)
    rng = np.random.default_rng(seed + 7)
    shown = [(card.code, q) for card in scene.cards for q in card.indices if card.code]
    hidden = [q for card in scene.cards for q in card.hidden]
    chosen: list[Candidate] = []
    labels: list[int] = []
    for candidate in find(scene.image, scene.card_height):
        hit = _match(candidate, [q for _, q in shown])
        if hit is None:
            if _match(candidate, hidden) is None:
                chosen.append(candidate)
                labels.append(NONE)
            continue
        label = output_of(str(shown[hit[0]][0]), hit[1])
        for extra in range(jitters + 1):
            chosen.append(candidate if extra == 0 else _jitter(rng, candidate))
            labels.append(label)
    return crops(scene.image, chosen), np.array(labels, np.int16)


def build(seeds: range, out: Path, workers: int = 1) -> int:
    """Crops of all ``seeds`` into ``out`` (.npz: crops, labels); returns how many."""
    if seeds.stop > HELD_OUT_FROM:
        raise ValueError(f"seeds from {HELD_OUT_FROM} are held out for evaluation")
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(scene_crops, seeds, chunksize=8))
    return save_crops(parts, out)


def save_crops(parts: list[tuple[np.ndarray, np.ndarray]], out: Path) -> int:
    """``parts`` (crops, outputs) joined into ``out`` (.npz: crops, labels); how many."""
    images = np.concatenate([p[0] for p in parts])
    labels = np.concatenate([p[1] for p in parts])
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, crops=images, labels=labels)
    return len(labels)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Card reader training crops from rendered scenes.")
    parser.add_argument("--seeds", default="0:1000", help="first:stop")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    first, stop = (int(v) for v in args.seeds.split(":"))
    count = build(range(first, stop), args.out, args.workers)
    print(f"{count} crops -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
