"""Evaluate photo reading on real and rendered photographs, side by side, per class.

    PYTHONPATH=. .venv/bin/python -m models.photo.evaluate --out models/photo/report \
        --rendered ~/.cache/tilesight/scenes/eval ~/.cache/tilesight/scenes/eval-real-faces \
        --empty ~/.cache/tilesight/scenes/eval-empty --real hk-table-rf riichi-webcam-rf

Sets: rendered scenes never trained on (our art; the held-out real Camerash faces on 3D tiles),
rendered scenes with no tile, labelled real photos fetched by models.photo.sources (their boxes
hold whole tiles), and real photos with no tile (models.photo.negatives: floors, a cup on a
table, a cat...; each whole and its four quarters), and the held-out real photos of playing
cards on tables (models.cards.photo_sources' ``card-detection-rf``, five views each), where none
may get a box; and the held-out Camerash crops (../shared), each a close-up one face fills.
Readers: ``photo`` (vision.photo.PhotoReader, no hint), ``table`` (the table detector's
uncalibrated path, ``tilesight detect`` before it, at its default 40 px tile) and
``mahjong-detector`` (the public peer) as baselines.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np

from models.photo.report import write_report
from models.photo.scoring import Box, Tally, Truth
from models.scenes.obb_set import rendered, usable

CAMERASH = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "camerash-tiles"
Reader = Callable[[np.ndarray], list[tuple[str, Box]]]
Sample = tuple[str, np.ndarray, list[Truth]]


def rendered_samples(folder: Path) -> Iterator[Sample]:
    for image_path, record in rendered([folder]):
        truths = []
        for tile in record["tiles"]:
            quad = np.asarray(tile["corners"], np.float64)
            lo = np.clip(quad.min(axis=0), 0, None)
            hi = np.minimum(quad.max(axis=0), [record["width"], record["height"]])
            counted = usable(tile, record["width"], record["height"]) is not None
            truths.append(Truth(tile["name"], (*lo, *hi), counted))
        image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if image is not None:
            yield image_path.name, image, truths


def real_samples(name: str, cache: Path) -> Iterator[Sample]:
    from models.photo.sources import load

    for image_path, record in load(name, cache):
        if record.get("tiles") is None:
            continue
        image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if image is not None:
            truths = [Truth(t["tile"], tuple(t["box"])) for t in record["tiles"]]  # type: ignore[arg-type]
            yield image_path.name, image, truths


def tile_free_samples(folder: Path) -> Iterator[Sample]:
    """Every photo in ``folder`` as one with no tile (playing cards on tables: clutter a mahjong
    reader must leave alone)."""
    for image_path in sorted(folder.iterdir()):
        image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if image is not None:
            yield image_path.name, image, []


def close_up_samples(root: Path) -> Iterator[Sample]:
    """The held-out Camerash crops (../shared/datasets/camerash-tiles, never trained on): each a
    photo one tile's face fills, its truth the whole photo."""
    from models.drawn.dataset import camerash_crops

    for index, (name, crop) in enumerate(camerash_crops(root, "eval")):
        h, w = crop.shape[:2]
        yield f"camerash-{index}", crop, [Truth(name, (0.0, 0.0, float(w), float(h)))]


def scaled(samples: Iterator[Sample], factor: float) -> Iterator[Sample]:
    """The same photos ``factor`` times as large (tiles of a phone's 4000 px photo, or of a far
    camera), their boxes scaled with them."""
    for name, image, truths in samples:
        size = (max(1, round(image.shape[1] * factor)), max(1, round(image.shape[0] * factor)))
        resized = cv2.resize(
            image, size, interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC
        )
        boxes = [Truth(t.tile, tuple(v * factor for v in t.box), t.counted) for t in truths]  # type: ignore[misc]
        yield name, resized, boxes


def views(samples: Iterator[Sample]) -> Iterator[Sample]:
    """Each photo whole and its four quarters: five views of what lies in it."""
    for name, image, truths in samples:
        yield name, image, truths
        h, w = image.shape[:2]
        for top in (0, h // 2):
            for left in (0, w // 2):
                yield f"{name}@{left},{top}", image[top : top + h // 2, left : left + w // 2], []


def photo_reader(full: bool = False, cut: float | None = None) -> Reader:
    """The photo reader, its tiles reported from ``cut`` (default: the runtime's)."""
    from vision.photo import PhotoReader

    reader = PhotoReader()
    if cut is None:  # the runtime's reporting: its cut, vouched tiles, lone ones surer
        from vision.photo_shown import shown

        return lambda image: [(t.tile, t.box) for t in shown(reader.read(image, full=full))]
    return lambda image: [
        (t.tile, t.box) for t in reader.read(image, full=full) if t.confidence >= cut
    ]


def table_reader() -> Reader:
    from vision.detector import Detector

    detector = Detector()
    return lambda image: [
        (str(d.face), d.box) for d in detector.detect(image) if d.confidence >= 0.3
    ]


def peer_reader() -> Reader:
    """mahjong-detector (PyPI; the public peer, no flowers, no backs), as
    models.evaluation.evaluate runs
    it; a reader that reads nothing when it is not installed is refused."""
    from models.evaluation.evaluate import baseline

    run = baseline()
    if run is None:
        raise SystemExit("mahjong-detector is not installed (pip install -e '.[train]')")
    return lambda image: [(name, box) for name, box, score in run(image) if score >= 0.3]


def evaluate(samples: Iterator[Sample], read: Reader, limit: int | None = None) -> dict:
    tally = Tally()
    seconds = 0.0
    for count, (_name, image, truths) in enumerate(samples):
        if limit is not None and count >= limit:
            break
        started = time.perf_counter()
        reported = read(image)
        seconds += time.perf_counter() - started
        tally.add(truths, reported)
    summary = tally.summary()
    summary["seconds_per_image"] = round(seconds / max(tally.images, 1), 3)
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("models/photo/report"))
    parser.add_argument("--rendered", type=Path, nargs="*", default=[])
    parser.add_argument("--empty", type=Path, nargs="*", default=[])
    parser.add_argument("--real", nargs="*", default=["hk-table-rf", "riichi-webcam-rf"])
    parser.add_argument("--cache", type=Path, default=None, help="models.photo.sources cache")
    parser.add_argument("--readers", nargs="+", default=["photo", "table"])
    parser.add_argument("--limit", type=int, help="at most this many images per set")
    parser.add_argument("--cut", type=float, help="the photo reader's least confidence")
    parser.add_argument(
        "--scales", type=float, nargs="*", default=[], help="real sets again at these sizes"
    )
    args = parser.parse_args()
    from models.photo.sources import DEFAULT_CACHE

    cache = (args.cache or DEFAULT_CACHE).expanduser()
    readers = {
        "photo": lambda: photo_reader(cut=args.cut),
        "photo-full": lambda: photo_reader(full=True, cut=args.cut),
    }
    readers["table"] = table_reader
    readers["mahjong-detector"] = peer_reader
    sets: dict[str, Callable[[], Iterator[Sample]]] = {}
    for folder in args.rendered:
        sets[f"rendered:{folder.name}"] = lambda f=folder: rendered_samples(f)
    for folder in args.empty:
        sets[f"rendered, no tile:{folder.name}"] = lambda f=folder: rendered_samples(f)
    if (cache / "no-tiles" / "labels").is_dir():  # models.photo.negatives
        sets["real, no tile:no-tiles"] = lambda: views(real_samples("no-tiles", cache))
    cards = cache.parent / "cards-photos" / "card-detection-rf" / "images"
    if cards.is_dir():  # models.cards.photo_sources' held-out card photos: cards on tables
        sets["real, no tile:card tables"] = lambda: views(tile_free_samples(cards))
    if CAMERASH.is_dir():
        sets["real:camerash close-ups"] = lambda: close_up_samples(CAMERASH)
    for name in args.real:
        if (cache / name / "labels").is_dir():
            sets[f"real:{name}"] = lambda n=name: real_samples(n, cache)
            for factor in args.scales:
                sets[f"real:{name} x{factor:g}"] = lambda n=name, f=factor: scaled(
                    real_samples(n, cache), f
                )

    results: dict[str, dict[str, dict]] = {}
    for reader_name in args.readers:
        read = readers[reader_name]()
        for set_name, samples in sets.items():
            results.setdefault(set_name, {})[reader_name] = evaluate(samples(), read, args.limit)
            print(
                set_name, reader_name, json.dumps(results[set_name][reader_name])[:160], flush=True
            )
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "metrics.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    write_report(results, args.out / "report.md")


if __name__ == "__main__":
    main()
