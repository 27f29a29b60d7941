"""``tilesight detect``: read every tile in still images with the vision detector.

``--annotated OUT`` also draws what was read on each image (vision.annotate): with one image OUT
is the file to write; with several it is a pattern holding ``{stem}`` and/or ``{index}`` (the
image's file name without its suffix, its place among the images from 1), e.g.
``read/{stem}.png``, or else a folder (created when missing) that gets ``<stem>-read.png`` per
image. Two images that would write one file are refused before anything is read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from vision.photo import PhotoTile


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "detect",
        help="detect tiles in images: tile, box, confidence, orientation as JSON",
        description="Prints, per image, a JSON list of {tile, box [x1,y1,x2,y2] in image pixels, "
        "confidence, orientation (0/90/180/270, face turned counter-clockwise)}; without "
        "--calibration or --tile-px the photo reader (any scale and turn) adds each face's "
        "corners, its exact angle and the runner-up readings. One pretty document per image, "
        "or with --json one compact line per image.",
    )
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    parser.add_argument("--json", action="store_true", help="one compact JSON line per image")
    parser.add_argument("--calibration", type=Path, help="table corners JSON: rectify first")
    parser.add_argument(
        "--tile-px",
        type=float,
        help="read with the table detector at this tile width (px) instead of the photo "
        "reader, which needs no hint of scale",
    )
    parser.add_argument(
        "--min-confidence",
        type=float,
        help="report tiles read at least this sure (default: 0.3 on a calibrated table; on a "
        "photo 0.4, where clutter is likelier, or a face read surely on a weaker box)",
    )
    parser.add_argument("--backend", choices=["onnx", "ultralytics"], default="onnx")
    parser.add_argument(
        "--weights", type=Path, help="detector weights (.onnx, or .pt for ultralytics)"
    )
    parser.add_argument(
        "--annotated",
        metavar="OUT",
        help="draw what was read: a file for one image; for several a folder, or a pattern "
        "with {stem} / {index} (e.g. 'read/{stem}.png')",
    )
    parser.add_argument(
        "--no-expert",
        action="store_true",
        help="do not read unsure crops again with the second-opinion classifier",
    )
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from tilesight.cli import CliError
    from vision.calibration import Calibration, CalibrationError
    from vision.capture import CaptureError, read_image
    from vision.detector import Detector
    from vision.detector_backends import DetectorError, OnnxBoxes, UltralyticsBoxes
    from vision.photo import PhotoReader, PhotoTile, box_corners
    from vision.photo_shown import shown

    outputs = annotated_paths(args.annotated, args.images) if args.annotated else None
    try:
        calibration = Calibration.load(args.calibration) if args.calibration else None
        if args.backend == "ultralytics":
            if args.weights is None:
                raise CliError("--backend ultralytics needs --weights FILE.pt")
            boxes = UltralyticsBoxes(args.weights)
        else:
            boxes = OnnxBoxes(args.weights) if args.weights else OnnxBoxes()
        if args.tile_px is not None and not (args.tile_px > 0 and args.tile_px < 1e5):
            raise CliError(f"--tile-px must be a width in pixels above 0, got {args.tile_px}")
        detector = Detector(
            boxes=boxes, tile_px=args.tile_px or 40.0, use_expert=not args.no_expert
        )
        photo = (
            PhotoReader()
            if calibration is None and args.tile_px is None and args.weights is None
            else None
        )
    except (CalibrationError, DetectorError) as exc:
        raise CliError(str(exc)) from exc
    except ImportError as exc:
        raise CliError(
            f"ultralytics backend unavailable ({exc}); pip install tilesight[train]"
        ) from exc
    failed = 0
    for number, path in enumerate(args.images):
        try:
            image = read_image(path)
            if photo is not None:
                least = args.min_confidence  # when given, a strict cut (no vouched tile below it)
                read = photo.read(image)
                tiles = shown(read) if least is None else [t for t in read if t.confidence >= least]
                doc = [t.to_dict() for t in tiles]
            else:
                found = [
                    d
                    for d in detector.detect(image, calibration)
                    if d.confidence >= (0.3 if args.min_confidence is None else args.min_confidence)
                ]
                tiles = [
                    PhotoTile(str(d.face), box_corners(d.box, d.orientation), d.confidence)
                    for d in found
                ]
                doc = [d.to_dict() for d in found]
        except (CaptureError, DetectorError) as exc:
            print(f"tilesight detect: {exc}", file=sys.stderr)
            failed += 1
            continue
        print(json.dumps(doc) if args.json else json.dumps(doc, indent=1), flush=True)
        if outputs is not None:
            how = "calibrated" if calibration else "photo reader" if photo else "table detector"
            _draw(image, tiles, path, outputs[number], how)
    if failed:
        raise CliError(f"{failed} of {len(args.images)} image(s) could not be read")
    return 0


def annotated_paths(out: str, images: list[Path]) -> list[Path]:
    """Where each image's drawing goes (see the module docstring)."""
    from tilesight.cli import CliError

    if "{stem}" in out or "{index}" in out:
        try:
            paths = [Path(out.format(stem=p.stem, index=n)) for n, p in enumerate(images, 1)]
        except (KeyError, IndexError, ValueError):
            raise CliError(
                f"--annotated {out!r}: a pattern holds only {{stem}} and {{index}}"
            ) from None
    elif len(images) == 1 and not Path(out).is_dir():
        paths = [Path(out)]
    else:
        paths = [Path(out) / f"{p.stem}-read.png" for p in images]
    clash = {str(p) for p in paths if paths.count(p) > 1}
    if clash:
        raise CliError(
            f"--annotated {out!r} writes {sorted(clash)[0]!r} for two images: use {{index}}"
        )
    return paths


def _draw(image: np.ndarray, tiles: Sequence[PhotoTile], source: Path, out: Path, how: str) -> None:
    from tilesight.cli import CliError
    from vision.annotate import AnnotateError, annotate, save

    doubted = sum(t.doubted for t in tiles)
    banner = [f"{source.name}: {len(tiles)} tiles read, {doubted} doubted ({how})"]
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        save(out, annotate(image, tiles, banner=banner, alert=doubted > 0))
    except (AnnotateError, OSError) as exc:
        raise CliError(str(exc)) from None
