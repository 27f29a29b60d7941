"""``tilesight calibrate``: find the table in a camera's view and write its calibration file.

The four corners come from the ArUco markers taped at the table's corners (DICT_4X4_50, ids 0-3;
``--print-markers`` writes the sheet to print) or from ``--corners``. The calibration is written
only when every zone the reader needs (rivers, walls, hand rows) lies inside the frame; the
preview (the frame with the table and its zones drawn, labelled by seat) is written either way,
so a technician can see what is wrong.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from vision.calibration import Calibration

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "calibrate",
        help="find the table (ArUco markers or --corners): write the calibration and a preview",
        description="Reads a still image, a video file or a camera (a few frames), finds the "
        "four table markers (or takes --corners), and writes the calibration JSON the config's "
        "[calibration] path names, with a preview PNG of the zones drawn on the frame. Exits "
        "non-zero with one line when the markers are not found or a zone leaves the frame.",
    )
    parser.add_argument(
        "--source",
        help="camera index (0), stream URL, video file or still image; default: the config's "
        "first camera",
    )
    parser.add_argument(
        "--config", type=Path, help="table configuration: the defaults of --out and --source"
    )
    parser.add_argument(
        "--out", type=Path, help="calibration JSON to write; default: the config's path"
    )
    parser.add_argument(
        "--preview", type=Path, help="preview PNG; default: beside the JSON, NAME.preview.png"
    )
    parser.add_argument(
        "--corners",
        nargs="+",
        metavar="X,Y",
        help="the table's four corners in pixels instead of markers, clockwise from the far "
        "left corner seen from seat 0 (where marker 0 goes); quote them as one argument when "
        "one is negative: --corners '-12,40 1290,35 1300,700 -20,690'",
    )
    parser.add_argument(
        "--game",
        choices=("mahjong", "gouji"),
        help="whose zones to draw and check: a mahjong table's rivers, walls and hand rows, or "
        "a Gouji table's six play zones; default: the config's game, else mahjong",
    )
    parser.add_argument(
        "--frames", type=int, default=30, help="frames of a camera or video to try (default 30)"
    )
    parser.add_argument(
        "--print-markers",
        type=Path,
        metavar="SHEET",
        help="write the printable A4 marker sheet (.png or .pdf; 70 mm markers, instructions)",
    )
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from tilesight.cli import CliError
    from vision.capture import CaptureError
    from vision.marker_sheet import MARKER_MM, write_sheet

    if args.frames < 1:
        raise CliError("--frames must be at least 1")
    if args.print_markers is not None:
        try:
            write_sheet(args.print_markers)
        except (ValueError, OSError) as exc:
            raise CliError(str(exc)) from exc
        print(
            f"wrote the marker sheet {args.print_markers}: A4, four {MARKER_MM:.0f} mm markers; "
            "print it at 100% (actual size)"
        )
        if args.source is None and args.config is None and args.corners is None:
            return 0
    out, source, game = _destinations(args)
    preview = args.preview or out.with_suffix(".preview.png")
    try:
        images = _grab(source, args.frames)
    except CaptureError as exc:
        raise CliError(str(exc)) from exc
    calibration, image, markers, how = _locate(args.corners, images, source)
    _write_checked(calibration, image, markers, out, preview, game=game)
    corners = " ".join(f"({x:.0f}, {y:.0f})" for x, y in calibration.corners)
    height, width = image.shape[:2]
    print(f"table corners {how} ({width}x{height}): {corners}")
    zones = (
        "every seat's play zone lies where that seat lays its cards, the middle clear for the pile"
        if game == "gouji"
        else "every river, wall and hand row lies where that seat's tiles go"
    )
    print(f"wrote {out} and its preview {preview}: check that {zones}")
    return 0


def _destinations(args: argparse.Namespace) -> tuple[Path, str, str]:
    """Where to write the calibration, which source to read and whose zones (the game), from
    the flags or the config."""
    from tilesight.cli import CliError
    from tilesight.config import ConfigError, load_config

    out, source, game = args.out, args.source, args.game
    if args.config is not None:
        try:
            config = load_config(args.config)
        except ConfigError as exc:
            raise CliError(str(exc)) from exc
        out = out or config.calibration.path
        source = source or (config.cameras[0].source if config.cameras else None)
        game = game or config.game
    if out is None:
        raise CliError("say where to write it: --out FILE, or --config with a [calibration] path")
    if source is None:
        raise CliError("say what to read: --source (a camera index, video or image) or --config")
    return Path(out), str(source), game or "mahjong"


def _grab(source: str, count: int) -> list[np.ndarray]:
    """A still image, or up to ``count`` frames of a video or camera (at least one)."""
    from vision.capture import CaptureError, Source, frames, read_image

    if Path(source).suffix.lower() in IMAGE_SUFFIXES:
        return [read_image(Path(source))]
    grabbed = []
    for _number, image in frames(Source(source), max_reconnects=2, backoff_s=0.2):
        grabbed.append(image)
        if len(grabbed) >= count:
            break
    if not grabbed:
        raise CaptureError(f"{source!r} gave no frame")
    return grabbed


def _locate(
    corners: list[str] | None, images: list[np.ndarray], source: str
) -> tuple[Calibration, np.ndarray, dict[int, np.ndarray], str]:
    """The calibration, the frame it was found on, the markers drawn in the preview, and how."""
    from tilesight.cli import CliError
    from vision.calibration import Calibration, CalibrationError, find_markers

    if corners is not None:
        image = images[-1]  # a camera's last frame: its exposure has settled
        height, width = image.shape[:2]
        try:
            return Calibration(_parse_corners(corners), (width, height)), image, {}, "as given"
        except CalibrationError as exc:
            raise CliError(f"--corners: {exc}") from exc
    seen: set[int] = set()
    for number, image in enumerate(images, start=1):
        markers = find_markers(image)
        seen |= markers.keys()
        if all(i in markers for i in range(4)):
            height, width = image.shape[:2]
            where = f"frame {number} of {source!r}" if len(images) > 1 else repr(source)
            try:
                calibration = Calibration.from_markers(markers, (width, height))
            except CalibrationError as exc:
                raise CliError(f"markers 0-3 in {where} give no table: {exc}") from exc
            return calibration, image, markers, f"from ArUco markers 0-3 in {where}"
    missing = [i for i in range(4) if i not in seen]
    what = f"{len(images)} frames of {source!r}" if len(images) > 1 else repr(source)
    found = f"ids seen: {sorted(seen)}" if seen else "no marker seen"
    if not missing:
        problem = f"markers 0-3 were each seen in {what} but never all in one frame"
    else:
        problem = f"ArUco markers {missing} not found in {what} ({found})"
    raise CliError(
        f"{problem}; put all four in view, flat and without glare "
        "(tilesight calibrate --print-markers SHEET.pdf), or give --corners"
    )


def _parse_corners(values: list[str]) -> tuple[tuple[float, float], ...]:
    from tilesight.cli import CliError

    corners = []
    for value in (pair for text in values for pair in text.split()):
        try:
            x, y = (float(part) for part in value.split(","))
        except ValueError as exc:
            raise CliError(f"--corners: {value!r} is not X,Y (pixels, e.g. 412,98)") from exc
        corners.append((x, y))
    if len(corners) != 4:
        raise CliError(f"--corners: give four X,Y corners, not {len(corners)}")
    return tuple(corners)


def _write_checked(
    calibration: Calibration,
    image: np.ndarray,
    markers: dict[int, np.ndarray],
    out: Path,
    preview: Path,
    *,
    game: str,
) -> None:
    """Write the preview; then the calibration, only if every zone of a ``game`` table is in
    the frame."""
    import cv2

    from tilesight.cli import CliError
    from vision.calibration_check import problems
    from vision.calibration_preview import draw_preview

    height, width = image.shape[:2]
    try:
        preview.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(preview), draw_preview(image, calibration, markers, game)):
            raise CliError(f"cannot write the preview {str(preview)!r} (name it .png)")
        found = problems(calibration, (width, height), game)
        if found:
            raise CliError(
                "; ".join(found) + f". Calibration not written; see the preview {preview}"
            )
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(calibration.to_json() + "\n", encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write {exc.filename!r}: {exc.strerror}") from exc
