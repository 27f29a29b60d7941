"""Render planned scenes to a cache, resumable: one PNG and one label JSON per seed.

    /path/to/render-venv/bin/python -m models.scenes.render --assets ~/.cache/tilesight/scenes \
        --out ~/.cache/tilesight/scenes/train --seeds 0:400 --threads 1 --samples 12

Run it from the repository root with Blender's Python module installed in its own virtual
environment (``pip install '.[render]'`` there, or ``pip install bpy``). A seed already rendered
is skipped, so a run can be stopped and started again; ``--front`` renders standing tiles
through a low camera (models.scenes.front); ``--faces camerash-eval`` renders the
evaluation scenes with the held-out real faces only.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from models.scenes.front import front_plan
from models.scenes.hands import hand_plan
from models.scenes.plan import random_plan


def seed_range(text: str) -> range:
    start, _, stop = text.partition(":")
    return range(int(start), int(stop)) if stop else range(int(start), int(start) + 1)


def render_seeds(
    assets: Path,
    out: Path,
    seeds: range,
    *,
    threads: int,
    samples: int,
    faces: str | None = None,
    empty: float = 0.08,
    percent: int = 100,
    hands: bool = False,
    front: bool = False,
) -> int:
    from models.scenes.blender_scene import render

    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    done = 0
    for seed in seeds:
        label_file = out / "labels" / f"{seed:06d}.json"
        if label_file.exists():
            continue
        if hands:
            plan, truth = hand_plan(seed)
        else:
            plan, truth = (front_plan(seed) if front else random_plan(seed, empty=empty)), None
        if faces is not None:
            plan["style"]["faces"] = faces
        started = time.perf_counter()
        image = out / "images" / f"{seed:06d}.png"
        tiles = render(plan, assets, image, threads=threads, samples=samples, percent=percent)
        record = {
            "seed": seed,
            "image": image.name,
            "width": plan["resolution"][0] * percent // 100,
            "height": plan["resolution"][1] * percent // 100,
            "seconds": round(time.perf_counter() - started, 2),
            "faces": plan["style"]["faces"],
            "surface": plan["surface"]["kind"],
            "camera": plan["camera"],
            "tiles": tiles,
            **({"truth": truth} if truth else {}),
        }
        label_file.write_text(json.dumps(record), encoding="utf-8")
        done += 1
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--assets", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seeds", type=seed_range, default=range(10))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--faces", help="one face source for every scene (e.g. camerash-eval)")
    parser.add_argument("--empty", type=float, default=0.08, help="share of scenes with no tile")
    parser.add_argument("--percent", type=int, default=100, help="resolution, percent of 640x480")
    parser.add_argument("--hands", action="store_true", help="revealed winning hands (truth kept)")
    parser.add_argument("--front", action="store_true", help="standing tiles, a low camera")
    args = parser.parse_args()
    count = render_seeds(
        args.assets,
        args.out,
        args.seeds,
        threads=args.threads,
        samples=args.samples,
        faces=args.faces,
        empty=args.empty,
        percent=args.percent,
        hands=args.hands,
        front=args.front,
    )
    print(f"rendered {count} scene(s) into {args.out}")


if __name__ == "__main__":
    main()
