"""What the Blender scenes read, prepared in a cache outside the repository.

    python -m models.scenes.assets --cache ~/.cache/tilesight/scenes --shared ../shared/datasets

- ``faces/<source>/<tile>/<n>.png``: 120x160 upright faces per source: ``ours`` (models/faces and
  the picture-style flowers), ``camerash`` (the real photos' training part and the untagged
  ones), ``cc0`` (the public-domain riichi art, no flowers) and ``camerash-eval`` (the held-out
  30 % of the labelled photos: evaluation scenes only, never training);
- ``hdri/<name>.exr``: the 18 CC0 light probes (Poly Haven, via npm's ``@pmndrs/assets``; its
  LICENSE is CC0 1.0), decoded from the package's base64 modules. ``npm pack`` fetches it.
"""

from __future__ import annotations

import argparse
import base64
import re
import subprocess
import tarfile
import tempfile
from pathlib import Path

import cv2
import numpy as np

from models.art.faces import load_faces
from models.art.flower_art import flower_faces

DEFAULT_CACHE = Path.home() / ".cache" / "tilesight" / "scenes"
HDRI_PACKAGE = "@pmndrs/assets@1.7.0"
_EXR_DATA = re.compile(rb"data:application/exr;base64,([A-Za-z0-9+/=]+)")


def face_library(shared: Path | None) -> dict[str, dict[str, list[np.ndarray]]]:
    """Faces per source and tile name (sources missing from ``shared`` are left out)."""
    from models.drawn.dataset import camerash_crops, camerash_photos

    ours = {name: [image] for name, image in load_faces().items() if name != "back"}
    for name, images in flower_faces(np.random.default_rng(7)).items():
        ours[name].extend(images)
    blank = ours["P"][0].copy()  # the white dragon as many Chinese sets have it: 白板, blank
    blank[:] = blank[2, 2]
    ours["P"].append(blank)
    library = {"ours": ours}
    if shared is not None and (shared / "camerash-tiles").is_dir():
        for source, pairs in (
            ("camerash", camerash_photos(shared)),
            ("camerash-eval", camerash_crops(shared / "camerash-tiles", "eval")),
        ):
            faces: dict[str, list[np.ndarray]] = {}
            for name, image in pairs:
                faces.setdefault(name, []).append(cv2.resize(image, (120, 160), cv2.INTER_AREA))
            library[source] = faces
    if shared is not None and (shared / "tile-art-cc0").is_dir():
        from models.art.cc0_art import cc0_faces

        library["cc0"] = cc0_faces(shared / "tile-art-cc0")
    return library


def write_faces(cache: Path, shared: Path | None) -> dict[str, int]:
    """Writes the face library under ``cache/faces``; returns faces written per source."""
    counts = {}
    for source, faces in face_library(shared).items():
        total = 0
        for name, images in faces.items():
            folder = cache / "faces" / source / name
            folder.mkdir(parents=True, exist_ok=True)
            for i, image in enumerate(images):
                cv2.imwrite(str(folder / f"{i}.png"), image)
            total += len(images)
        counts[source] = total
    return counts


def write_hdris(cache: Path) -> list[str]:
    """Fetches the CC0 light probes with ``npm pack`` and decodes them to ``cache/hdri``."""
    target = cache / "hdri"
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["npm", "pack", HDRI_PACKAGE], cwd=tmp, check=True, capture_output=True)
        (archive,) = Path(tmp).glob("*.tgz")
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers() if re.search(r"hdri/\w+\.exr\.js$", m.name)]
            names = []
            for member in members:
                handle = tar.extractfile(member)
                found = _EXR_DATA.search(handle.read()) if handle else None
                if found:
                    name = Path(member.name).name.removesuffix(".exr.js")
                    (target / f"{name}.exr").write_bytes(base64.b64decode(found.group(1)))
                    names.append(name)
    return sorted(names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--shared", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--skip-hdri", action="store_true")
    args = parser.parse_args()
    shared = args.shared if args.shared.is_dir() else None
    print("faces:", write_faces(args.cache, shared))
    if not args.skip_hdri:
        print("light probes:", write_hdris(args.cache))


if __name__ == "__main__":
    main()
