"""``tilesight detect``: read every tile in still images with the vision detector."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "detect",
        help="detect tiles in images: tile, box, confidence, orientation as JSON",
        description="Prints, per image, a JSON list of {tile, box [x1,y1,x2,y2] in image pixels, "
        "confidence, orientation (0/90/180/270, face turned counter-clockwise)}. One pretty "
        "document per image, or with --json one compact line per image.",
    )
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    parser.add_argument("--json", action="store_true", help="one compact JSON line per image")
    parser.add_argument("--calibration", type=Path, help="table corners JSON: rectify first")
    parser.add_argument(
        "--tile-px",
        type=float,
        default=40.0,
        help="expected tile width in pixels when no calibration is given",
    )
    parser.add_argument("--min-confidence", type=float, default=0.3)
    parser.add_argument("--backend", choices=["onnx", "ultralytics"], default="onnx")
    parser.add_argument(
        "--weights", type=Path, help="detector weights (.onnx, or .pt for ultralytics)"
    )
    parser.add_argument(
        "--no-expert",
        action="store_true",
        help="do not read unsure crops again with the second-opinion classifier",
    )
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from tilesight.cli import CliError
    from vision.boxes import DetectorError, OnnxBoxes, UltralyticsBoxes
    from vision.calibration import Calibration, CalibrationError
    from vision.capture import CaptureError, read_image
    from vision.detector import Detector

    try:
        calibration = Calibration.load(args.calibration) if args.calibration else None
        if args.backend == "ultralytics":
            if args.weights is None:
                raise CliError("--backend ultralytics needs --weights FILE.pt")
            boxes = UltralyticsBoxes(args.weights)
        else:
            boxes = OnnxBoxes(args.weights) if args.weights else OnnxBoxes()
        detector = Detector(boxes=boxes, tile_px=args.tile_px, use_expert=not args.no_expert)
    except (CalibrationError, DetectorError) as exc:
        raise CliError(str(exc)) from exc
    except ImportError as exc:
        raise CliError(
            f"ultralytics backend unavailable ({exc}); pip install tilesight[train]"
        ) from exc
    failed = 0
    for path in args.images:
        try:
            found = detector.detect(read_image(path), calibration)
        except (CaptureError, DetectorError) as exc:
            print(f"tilesight detect: {exc}", file=__import__("sys").stderr)
            failed += 1
            continue
        doc = [d.to_dict() for d in found if d.confidence >= args.min_confidence]
        print(json.dumps(doc) if args.json else json.dumps(doc, indent=1), flush=True)
    if failed:
        raise CliError(f"{failed} of {len(args.images)} image(s) could not be read")
    return 0
