"""Real photographs of playing cards from public, permissively licensed repositories, for
evaluating the card reader (never committed: everything lands in a cache outside the repo).

    python -m models.cards.photo_sources list
    python -m models.cards.photo_sources fetch NAME [--mirror GIT_DIR] [--cache DIR]

``fetch`` reads the pinned commit from a bare git mirror (``git --git-dir=MIRROR``) or, without
one, from a shallow fetch, and writes ``<cache>/<name>/images/<file>`` plus one
``<cache>/<name>/labels/<stem>.json`` per image: ``{"image", "width", "height", "cards",
"face_down", "repo_path"}``. Each card is ``{"code", "box", "indices"}``: ``code`` in engine
notation (``Td``, ``As``, ``BJ``; rank only where the source knows no suit), ``box`` its
[x1, y1, x2, y2] in pixels or null, ``indices`` the boxes of its labelled corner indices (a
source that boxes indices, not cards). Sources and licences: docs/cards.md.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

DEFAULT_CACHE = Path(
    os.environ.get("TILESIGHT_CARD_PHOTO_CACHE", "~/.cache/tilesight/cards-photos")
)
Card = dict[str, Any]


def _upper_deck_mapping() -> dict[str, str | None]:
    """Class names like ``10C``, ``AS``, ``BLACK JOKER`` -> engine codes (``BACK`` -> None)."""
    ranks = {str(n): str(n) for n in range(2, 10)} | {"10": "T", "J": "J", "Q": "Q", "K": "K"}
    ranks["A"] = "A"
    out: dict[str, str | None] = {
        f"{r}{s}": f"{code}{s.lower()}" for r, code in ranks.items() for s in "CDHS"
    }
    return out | {"BLACK JOKER": "BJ", "RED JOKER": "RJ", "BACK": None}


@dataclass(frozen=True)
class CardPhotoSource:
    """One registered set of card photographs: where (pinned), under which licence, which
    files are real photos, and how its classes map to engine codes."""

    name: str
    repo: str  # owner/name on GitHub
    commit: str
    licence: str  # SPDX-style identifier
    licence_line: str  # quoted from the source
    holds: str
    image_dirs: tuple[str, ...]
    classes: tuple[str, ...]  # YOLO class names by index
    mapping: Mapping[str, str | None] = field(default_factory=dict)  # None: a card back
    keep: str = ".*"  # regex a file name must match (the real photos among synthetic ones)
    one_copy: bool = False  # Roboflow augmented copies ("<stem>.rf.<hash>"): keep the first
    boxes: str = "indices"  # what the labels box: "indices" (corner indices) or "cards"
    note: str = ""

    @property
    def url(self) -> str:
        return f"https://github.com/{self.repo}"


_FACES = [f"{r}{s}" for r in ("10", *"23456789A") for s in "CDHS"]
CARD_DETECTION_CLASSES = (
    *sorted(_FACES),  # the data set's order: names sorted as strings
    "BACK",
    "BLACK JOKER",
    *[f"{r}{s}" for r in "JKQ" for s in "CDHS"],
    "RED JOKER",
)
_CARD_DETECTION = {
    "repo": "Ammememe/CardCounterML",
    "commit": "a0e040bd4db845437aad261b951b1912cb0b1439",
    "licence": "CC-BY-4.0",
    "licence_line": "License: CC BY 4.0 (README.dataset.txt; Roboflow Universe "
    "cadyzedevelopmenthub/card-detection-zk7wu v12)",
    "classes": CARD_DETECTION_CLASSES,
    "mapping": _upper_deck_mapping(),
    "keep": r"^(IMG|WIN)_",  # phone (IMG_) and webcam (WIN_) photos; numbered files are renders
    "one_copy": True,
    "note": "Repository has no LICENSE file; the data carries the publisher's CC BY 4.0.",
}
SOURCES: dict[str, CardPhotoSource] = {
    s.name: s
    for s in (
        CardPhotoSource(
            name="card-detection-rf",
            holds="Real phone and webcam photos of cards on tables, 640x640 stretched, corner "
            "indices boxed (55 classes: 52 faces, both jokers, backs); valid+test splits, "
            "not augmented",
            image_dirs=("datasets/valid/images", "datasets/test/images"),
            **_CARD_DETECTION,  # type: ignore[arg-type]
        ),
        CardPhotoSource(
            name="card-detection-rf-train",
            holds="The same data set's train split, one of the three augmented copies of each "
            "real photo (brightness +-18 %, blur <= 0.5 px, salt and pepper on 0.49 % of "
            "pixels, boxes sheared +-6 degrees)",
            image_dirs=("datasets/train/images",),
            **_CARD_DETECTION,  # type: ignore[arg-type]
        ),
    )
}


def _run_git(git_dir: Path, *args: str) -> bytes | None:
    done = subprocess.run(["git", f"--git-dir={git_dir}", *args], check=False, capture_output=True)
    return done.stdout if done.returncode == 0 else None


def _yolo_boxes(text: str, width: int, height: int) -> list[tuple[int, list[float]]]:
    """(class, [x1, y1, x2, y2] px) of YOLO lines (centre boxes or polygons, normalised)."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 5:
            continue
        values = [float(v) for v in parts[1:]]
        if len(values) == 4:
            cx, cy, w, h = values
            box = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]
        else:
            xs, ys = values[0::2], values[1::2]
            box = [min(xs), min(ys), max(xs), max(ys)]
        scaled = [box[0] * width, box[1] * height, box[2] * width, box[3] * height]
        out.append((int(parts[0]), [round(v, 1) for v in scaled]))
    return out


def group_indices(found: Sequence[tuple[str, list[float]]]) -> list[Card]:
    """Index boxes of one image as cards: boxes of one code within eight index lengths of each
    other are the two corners of one card (a deck holds each face once; further apart, two
    cards of a larger pack)."""
    cards: list[Card] = []
    for code, box in found:
        centre = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])
        reach = 8 * max(box[2] - box[0], box[3] - box[1])
        for card in cards:
            if card["code"] != code:
                continue
            other = card["indices"][0]
            there = np.array([(other[0] + other[2]) / 2, (other[1] + other[3]) / 2])
            if np.linalg.norm(centre - there) < reach:
                card["indices"].append(box)
                break
        else:
            cards.append({"code": code, "box": None, "indices": [box]})
    return cards


def _records(source: CardPhotoSource, git_dir: Path) -> list[tuple[str, str]]:
    """(folder, file) of the images to export, one copy per source photo."""
    chosen: dict[str, tuple[str, str]] = {}
    for folder in source.image_dirs:
        listing = _run_git(git_dir, "ls-tree", "--name-only", source.commit, f"{folder}/") or b""
        for path in sorted(listing.decode().splitlines()):
            file = path.rsplit("/", 1)[-1]
            if not re.search(source.keep, file):
                continue
            stem = file.split(".rf.")[0] if source.one_copy else file
            chosen.setdefault(stem, (folder, file))
    return list(chosen.values())


def fetch(name: str, cache_dir: Path = DEFAULT_CACHE, mirror: Path | None = None) -> Path:
    """Copy source ``name``'s chosen images and converted labels into ``cache_dir/name``."""
    source = SOURCES[name]
    out = Path(cache_dir).expanduser() / name
    with tempfile.TemporaryDirectory() as tmp:
        git_dir = mirror
        if git_dir is None:
            git_dir = Path(tmp) / "repo.git"
            subprocess.run(["git", "init", "--bare", "-q", str(git_dir)], check=True)
            cmd = ["git", f"--git-dir={git_dir}", "fetch", "-q", "--depth=1", source.url]
            subprocess.run([*cmd, source.commit], check=True)
        (out / "images").mkdir(parents=True, exist_ok=True)
        (out / "labels").mkdir(parents=True, exist_ok=True)
        missing = []
        for folder, file in _records(source, git_dir):
            path = f"{folder}/{file}"
            data = _run_git(git_dir, "cat-file", "blob", f"{source.commit}:{path}")
            image = None if data is None else cv2.imdecode(np.frombuffer(data, np.uint8), 1)
            if data is None or image is None:
                missing.append(path)
                continue
            h, w = image.shape[:2]
            label = f"{folder.rsplit('images', 1)[0]}labels/{Path(file).stem}.txt"
            text = (
                _run_git(git_dir, "cat-file", "blob", f"{source.commit}:{label}") or b""
            ).decode()
            found = [(source.classes[c], box) for c, box in _yolo_boxes(text, w, h)]
            faces = [(source.mapping[n], b) for n, b in found if source.mapping.get(n)]
            (out / "images" / file).write_bytes(data)
            record = {"image": file, "width": w, "height": h, "cards": group_indices(faces)}
            record |= {"face_down": len(found) - len(faces), "repo_path": path}
            (out / "labels" / f"{Path(file).stem}.json").write_text(json.dumps(record))
    meta = {k: v for k, v in vars(source).items() if k not in ("mapping", "classes")}
    meta |= {"url": source.url, "missing": missing}
    (out / "source.json").write_text(json.dumps(meta, indent=2))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    from models.photo.sources import source_parser

    prog = "python -m models.cards.photo_sources"
    args = source_parser(prog, __doc__, list(SOURCES), DEFAULT_CACHE).parse_args(argv)
    if args.command == "list":
        for s in SOURCES.values():
            print(f"{s.name:24} {s.licence:10} {s.url}@{s.commit[:10]}  {s.holds}")
        return 0
    out = fetch(args.name, args.cache, args.mirror)
    labels = [json.loads(p.read_text()) for p in sorted((out / "labels").glob("*.json"))]
    cards = sum(len(r["cards"]) for r in labels)
    print(f"{args.name}: {len(labels)} images, {cards} face-up cards labelled -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
