"""Real photographs with no tile in them, for the "no box on a tile-free photo" measure.

    python -m models.photo.negatives fetch      # ~/.cache/tilesight/photos/no-tiles

The photos of scikit-image's sample data that its wheel carries and that are CC0 or in the
public domain (each one's licence as its docstring in skimage/data/_fetchers.py states it):
a coffee cup on a table, floors of brick, gravel and grass, a cat, an astronaut, a rocket, a
clock, the Hubble deep field, a retina. ``pip download`` fetches the wheel into a temporary
folder; only these images are kept, in the cache, never in the repository. The real sets of
models.photo.sources cannot give this measure: their labels leave some tiles out, so a part of
a photo without a label may still show a tile.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from models.photo.sources import DEFAULT_CACHE

WHEEL = "scikit-image==0.26.0"
PHOTOS = {  # file in the wheel: licence as scikit-image states it
    "astronaut.png": "public domain (NASA)",
    "brick.png": "CC0 (CC0Textures Bricks25)",
    "chelsea.png": "CC0 (Stefan van der Walt)",
    "clock_motion.png": "public domain (Stefan van der Walt)",
    "coffee.png": "CC0 (Rachel Michetti)",
    "grass.png": "CC0 (CC0Textures)",
    "gravel.png": "CC0 (CC0Textures Gravel04)",
    "hubble_deep_field.jpg": "public domain (NASA)",
    "retina.jpg": "CC0 1.0",
    "rocket.jpg": "public domain (SpaceX)",
}
NAME = "no-tiles"


def fetch(cache: Path = DEFAULT_CACHE) -> Path:
    """Writes the photos and a label file each (no tiles) under ``cache/no-tiles``."""
    target = cache.expanduser() / NAME
    (target / "images").mkdir(parents=True, exist_ok=True)
    (target / "labels").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", WHEEL, "-d", tmp],
            check=True,
        )
        (wheel,) = Path(tmp).glob("*.whl")
        with zipfile.ZipFile(wheel) as archive:
            for name, licence in PHOTOS.items():
                data = archive.read(f"skimage/data/{name}")
                (target / "images" / name).write_bytes(data)
                label = {"image": name, "licence": licence, "tiles": []}
                (target / "labels" / f"{Path(name).stem}.json").write_text(json.dumps(label))
    source = {"source": f"PyPI {WHEEL}", "licences": PHOTOS}
    (target / "source.json").write_text(json.dumps(source, indent=1), encoding="utf-8")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["fetch"])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args()
    print("fetched into", fetch(args.cache))


if __name__ == "__main__":
    main()
