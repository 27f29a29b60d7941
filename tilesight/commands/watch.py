"""``tilesight watch``: follow a video or camera and print table events as JSON lines."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "watch",
        help="watch a video/camera: discards, melds, revealed hands as JSON lines",
        description="Reads frames (a video file, a USB camera index such as 0, or an rtsp:// "
        "URL), rectifies the table with the calibration, detects and stabilises tiles, and "
        "prints each settled event as one JSON line. Unreadable frames are reported on stderr "
        "and skipped.",
    )
    parser.add_argument("source", metavar="VIDEO", help="video file, camera index or stream URL")
    parser.add_argument("--calibration", type=Path, required=True, help="table corners JSON")
    parser.add_argument(
        "--confirm-frames", type=int, default=3, help="frames a tile must be seen before it counts"
    )
    parser.add_argument("--every", type=int, default=1, help="process every Nth frame")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    import json
    import sys

    from tilesight.cli import CliError
    from vision.calibration import Calibration, CalibrationError
    from vision.capture import CaptureError, Source, frames
    from vision.detector import Detector
    from vision.detector_backends import DetectorError
    from vision.observed import to_json
    from vision.reader import TableReader
    from vision.stabiliser import Stabiliser

    if args.confirm_frames < 1 or args.every < 1:
        raise CliError("--confirm-frames and --every must be at least 1")
    try:
        reader = TableReader(
            Detector(),
            Calibration.load(args.calibration),
            Stabiliser(confirm_frames=args.confirm_frames),
        )
        stream = frames(
            Source(args.source),
            on_error=lambda message: print(f"tilesight watch: {message}", file=sys.stderr),
        )
        for number, image in stream:
            if number % args.every:
                continue
            for event in reader.process(image):
                print(json.dumps(to_json(event)), flush=True)
    except (CalibrationError, CaptureError, DetectorError) as exc:
        raise CliError(str(exc)) from exc
    return 0
