"""Real photographs of mahjong tiles from public, permissively licensed repositories, for
evaluating the detector (never for committing: everything lands in a cache outside the repo).

    python -m models.photo.sources list
    python -m models.photo.sources fetch NAME [--mirror GIT_DIR] [--cache DIR]

``fetch`` reads the pinned commit from a bare git mirror (``git --git-dir=MIRROR``) or, without
one, from a shallow fetch of the repository, and writes ``<cache>/<name>/images/<file>`` plus
one ``<cache>/<name>/labels/<stem>.json`` per image: ``{"image", "width", "height", "tiles"}``
with ``tiles`` a list of ``{"tile": notation or null, "box": [x1, y1, x2, y2]}`` (pixels of the
image as cv2 reads it), or null for an unlabelled source. Sources and licences:
docs/photo-sources.md; the registry itself is :mod:`models.photo.source_registry` (its names
re-exported here).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from models.photo.source_registry import (
    HK_CLASSES,
    HK_MAPPING,
    RIICHI_CLASSES,
    RIICHI_MAPPING,
    SOURCES,
    PhotoSource,
)

__all__ = [
    "DEFAULT_CACHE",
    "HK_CLASSES",
    "HK_MAPPING",
    "RIICHI_CLASSES",
    "RIICHI_MAPPING",
    "SOURCES",
    "PhotoSource",
    "coco_tiles",
    "fetch",
    "load",
    "main",
    "placeholder_labels",
    "yolo_tiles",
]

DEFAULT_CACHE = Path(os.environ.get("TILESIGHT_PHOTO_CACHE", "~/.cache/tilesight/photos"))
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp")
Tile = dict[str, Any]


def yolo_tiles(
    text: str, classes: Sequence[str], mapping: Mapping[str, str | None], width: int, height: int
) -> list[Tile]:
    """YOLO label lines (``class cx cy w h`` or ``class x1 y1 x2 y2 ...`` polygons, normalised)
    as tiles with pixel boxes; classes outside ``mapping`` give ``tile`` null."""
    tiles: list[Tile] = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 5:
            continue
        index, values = int(parts[0]), [float(v) for v in parts[1:]]
        if len(values) == 4:
            cx, cy, w, h = values
            x1, y1, x2, y2 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
        else:
            xs, ys = values[0::2], values[1::2]
            x1, y1, x2, y2 = min(xs), min(ys), max(xs), max(ys)
        name = classes[index] if 0 <= index < len(classes) else str(index)
        box = [x1 * width, y1 * height, x2 * width, y2 * height]
        tiles.append({"tile": mapping.get(name), "box": [round(v, 1) for v in box]})
    return tiles


def coco_tiles(coco: Mapping[str, Any], mapping: Mapping[str, str | None]) -> dict[str, list[Tile]]:
    """A COCO detection file's boxes as tiles, by image file name (category names mapped)."""
    names = {c["id"]: c["name"] for c in coco.get("categories", [])}
    files = {i["id"]: i["file_name"] for i in coco.get("images", [])}
    out: dict[str, list[Tile]] = {name: [] for name in files.values()}
    for ann in coco.get("annotations", []):
        x, y, w, h = (float(v) for v in ann["bbox"])
        tile = mapping.get(names.get(ann["category_id"], ""))
        out[files[ann["image_id"]]].append({"tile": tile, "box": [x, y, x + w, y + h]})
    return out


class _Git:
    """Reads blobs of one commit from a git directory."""

    def __init__(self, git_dir: Path, commit: str) -> None:
        self.git_dir, self.commit = git_dir, commit

    def _run(self, *args: str) -> bytes:
        cmd = ["git", f"--git-dir={self.git_dir}", *args]
        return subprocess.run(cmd, check=True, capture_output=True).stdout

    def files(self, folder: str) -> list[tuple[str, str]]:
        """(blob id, path) of the files directly in ``folder``."""
        out = self._run("ls-tree", "-z", "--full-tree", self.commit, f"{folder.rstrip('/')}/")
        rows = [entry.split("\t", 1) for entry in out.decode().split("\0") if entry]
        return [(meta.split()[2], path) for meta, path in rows if meta.split()[1] == "blob"]

    def read(self, path: str) -> bytes | None:
        try:
            return self._run("cat-file", "blob", f"{self.commit}:{path}")
        except subprocess.CalledProcessError:
            return None  # listed but absent (a mirror may lack large blobs)


def _shallow_clone(source: PhotoSource, into: Path) -> Path:
    git_dir = into / "repo.git"
    subprocess.run(["git", "init", "--bare", "-q", str(git_dir)], check=True)
    cmd = ["git", f"--git-dir={git_dir}", "fetch", "-q", "--depth=1", source.url, source.commit]
    subprocess.run(cmd, check=True)
    return git_dir


def _labels_for(source: PhotoSource, git: _Git, path: str, w: int, h: int) -> list[Tile] | None:
    if source.label_format != "yolo":
        return None
    folder, file = path.rsplit("/", 1)
    label_path = f"{folder.rsplit('images', 1)[0]}labels/{Path(file).stem}.txt"
    text = git.read(label_path)
    return yolo_tiles((text or b"").decode(), source.classes, source.mapping, w, h)


def _coco_labels(source: PhotoSource, git: _Git) -> dict[str, list[Tile]]:
    found: dict[str, list[Tile]] = {}
    for path in source.coco_files:
        found.update(coco_tiles(json.loads(git.read(path) or b"{}"), source.mapping))
    return found


def fetch(name: str, cache_dir: Path = DEFAULT_CACHE, mirror: Path | None = None) -> Path:
    """Copy source ``name``'s images and converted labels into ``cache_dir/name``; return it."""
    source = SOURCES[name]
    with tempfile.TemporaryDirectory() as tmp:
        git = _Git(mirror if mirror else _shallow_clone(source, Path(tmp)), source.commit)
        return _export(source, git, Path(cache_dir).expanduser() / name)


def _export(source: PhotoSource, git: _Git, out: Path) -> Path:
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    coco = _coco_labels(source, git) if source.label_format == "coco" else {}
    seen: set[str] = set()
    missing: list[str] = []
    for folder in source.image_dirs:
        for blob, path in git.files(folder):
            if not path.lower().endswith(IMAGE_SUFFIXES) or blob in seen:
                continue
            seen.add(blob)
            data = git.read(path)
            image = None if data is None else cv2.imdecode(np.frombuffer(data, np.uint8), 1)
            if data is None or image is None:
                missing.append(path)
                continue
            h, w = image.shape[:2]
            file = Path(path).name
            tiles = coco.get(file) if coco else _labels_for(source, git, path, w, h)
            (out / "images" / file).write_bytes(data)
            record = {"image": file, "width": w, "height": h, "tiles": tiles, "repo_path": path}
            (out / "labels" / f"{Path(file).stem}.json").write_text(json.dumps(record))
    meta = {k: v for k, v in vars(source).items() if k not in ("mapping", "classes")}
    meta.update(url=source.url, images=len(seen) - len(missing), missing=missing)
    (out / "source.json").write_text(json.dumps(meta, indent=2))
    return out


def load(name: str, cache_dir: Path = DEFAULT_CACHE) -> Iterator[tuple[Path, dict[str, Any]]]:
    """(image path, label record) for each fetched image of source ``name``; FileNotFoundError
    if it has not been fetched."""
    folder = Path(cache_dir).expanduser() / name
    if not (folder / "source.json").is_file():
        raise FileNotFoundError(f"{folder}: run python -m models.photo.sources fetch {name}")
    for label in sorted((folder / "labels").glob("*.json")):
        record = json.loads(label.read_text())
        if placeholder_labels(record.get("tiles")):
            record["placeholder_labels"] = True
            record["tiles"] = [{**t, "tile": None} for t in record["tiles"]]
        yield folder / "images" / record["image"], record


def placeholder_labels(tiles: list[dict[str, Any]] | None) -> bool:
    """True when every tile of a photo carries one kind and there are more than four of them.

    No set holds a fifth copy of a face, so the publisher left one class on every box (7 photos
    of hk-table-rf label every tile 1p: a bamboo row, characters, winds). :func:`load` keeps
    their boxes but names none of their tiles, so a reading is neither right nor wrong there.
    Backs are exempt (a wall shows many)."""
    kinds = {t["tile"] for t in tiles or []}
    return len(tiles or []) > 4 and len(kinds) == 1 and None not in kinds and "back" not in kinds


def source_parser(
    prog: str, doc: str | None, names: Sequence[str], cache: Path
) -> argparse.ArgumentParser:
    """The ``list`` / ``fetch NAME [--mirror GIT_DIR] [--cache DIR]`` command line of a source
    registry (this one, models.cards.photo_sources)."""
    parser = argparse.ArgumentParser(prog=prog, description=doc)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="print the registered sources")
    get = sub.add_parser("fetch", help="copy one source into the cache")
    get.add_argument("name", choices=sorted(names))
    get.add_argument("--mirror", type=Path, help="bare git directory holding the commit")
    get.add_argument("--cache", type=Path, default=cache)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = source_parser("python -m models.photo.sources", __doc__, list(SOURCES), DEFAULT_CACHE)
    args = parser.parse_args(argv)
    if args.command == "list":
        for s in SOURCES.values():
            print(f"{s.name:20} {s.licence:10} {s.url}@{s.commit[:10]}  {s.label_format}")
        return 0
    out = fetch(args.name, args.cache, args.mirror)
    records = [record for _, record in load(args.name, args.cache)]
    tiles = sum(len(r["tiles"] or []) for r in records)
    unnamed = sum(1 for r in records if r.get("placeholder_labels"))
    print(f"{args.name}: {len(records)} images, {tiles} labelled tiles -> {out}")
    if unnamed:
        print(f"  {unnamed} photos label every tile one kind (placeholders): their tiles unnamed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
