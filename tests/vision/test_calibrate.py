"""``tilesight calibrate`` on real image files: printed markers rendered at the corners of a table
seen in perspective, the corners found, the preview drawn, and the clear failures."""

from __future__ import annotations

import json
import re
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.drawn.render import render_table
from tilesight.cli import main
from vision.calibration import Calibration, find_markers
from vision.calibration_check import problems, zone_outlines
from vision.layout import TableSpec
from vision.marker_sheet import DPI, MARKER_MM, PAGE_MM, marker_image

FRAME = (1280, 800)
#: Where the table's corners land in the camera frame (the truth calibrate must find).
TRUTH = np.float64([[330, 70], [1010, 105], [1040, 760], [280, 730]])
TABLE_PX, MARGIN = 800, 80


def _camera_still(faces: dict[str, list[np.ndarray]], *, markers: bool = True) -> np.ndarray:
    """A table with tiles on it and the four printed markers (black square's outer corner on
    the table's corner, white border around, overhanging the edge), seen by a tilted camera."""
    spec = TableSpec(concealed=[0] * 4)
    spec.rivers = [["1m", "2p", "3s", "E", "C", "9m", "5p"] for _ in range(4)]
    table, _ = render_table(spec, faces, TABLE_PX, np.random.default_rng(7))
    board = np.full((TABLE_PX + 2 * MARGIN, TABLE_PX + 2 * MARGIN, 3), (70, 60, 50), np.uint8)
    board[MARGIN : MARGIN + TABLE_PX, MARGIN : MARGIN + TABLE_PX] = table
    side = round(0.078 * TABLE_PX)  # a 70 mm marker on a 0.9 m table
    border = round(side / 6)
    far = MARGIN + TABLE_PX
    # each marker's top-left pixel: its outer corner on the table's corner
    places = {0: (MARGIN, MARGIN), 1: (far - side, MARGIN)}
    places |= {2: (far - side, far - side), 3: (MARGIN, far - side)}
    for marker, (x, y) in places.items() if markers else ():
        board[y - border : y + side + border, x - border : x + side + border] = 255
        tag = marker_image(marker, side)
        board[y : y + side, x : x + side] = cv2.cvtColor(tag, cv2.COLOR_GRAY2BGR)
    # table corners at pixel edges: the table covers pixels MARGIN .. far - 1
    square = np.float32([[MARGIN, MARGIN], [far, MARGIN], [far, far], [MARGIN, far]]) - 0.5
    homography = cv2.getPerspectiveTransform(square, TRUTH.astype(np.float32))
    return cv2.warpPerspective(board, homography, FRAME, borderValue=(40, 40, 40))


@pytest.fixture(scope="module")
def stills(tmp_path_factory, faces) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("calibrate")
    paths = {"markers": folder / "table.jpg", "bare": folder / "bare.jpg"}
    cv2.imwrite(str(paths["markers"]), _camera_still(faces), [cv2.IMWRITE_JPEG_QUALITY, 90])
    cv2.imwrite(str(paths["bare"]), _camera_still(faces, markers=False))
    return paths


def _zone_colour_share(preview: np.ndarray, original: np.ndarray) -> float:
    """The share of pixels inside the zones that the preview changed."""
    mask = np.zeros(preview.shape[:2], np.uint8)
    for polygon in zone_outlines(Calibration(tuple(map(tuple, TRUTH)))).values():
        cv2.fillPoly(mask, [np.round(polygon).astype(np.int32)], 255)
    changed = np.abs(preview.astype(int) - original.astype(int)).sum(axis=2) > 30
    return float(changed[mask > 0].mean())


def test_calibrate_finds_the_printed_markers_in_a_still(stills, tmp_path, capsys) -> None:
    out = tmp_path / "cal" / "T01.json"
    assert main(["calibrate", "--source", str(stills["markers"]), "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["image_size"] == list(FRAME)
    error = np.linalg.norm(np.array(data["corners"]) - TRUTH, axis=1)
    assert error.max() < 2.5, error
    preview = cv2.imread(str(tmp_path / "cal" / "T01.preview.png"))
    assert preview is not None and preview.shape == (FRAME[1], FRAME[0], 3)
    original = cv2.imread(str(stills["markers"]))
    assert _zone_colour_share(preview, original) > 0.5  # the zones are drawn over the table
    assert "from ArUco markers 0-3" in capsys.readouterr().out


def test_calibrate_reads_a_video_until_a_frame_shows_every_marker(stills, tmp_path, capsys) -> None:
    video = tmp_path / "camera.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, FRAME)
    writer.write(np.zeros((FRAME[1], FRAME[0], 3), np.uint8))  # exposure still settling
    for _ in range(2):
        writer.write(cv2.imread(str(stills["markers"])))
    writer.release()
    out = tmp_path / "T01.json"
    assert main(["calibrate", "--source", str(video), "--out", str(out)]) == 0
    assert f"in frame 2 of {str(video)!r}" in capsys.readouterr().out
    error = np.linalg.norm(np.array(Calibration.load(out).corners) - TRUTH, axis=1)
    assert error.max() < 3.0, error


def test_calibrate_without_markers_names_what_it_saw(stills, tmp_path, capsys) -> None:
    out = tmp_path / "T01.json"
    assert main(["calibrate", "--source", str(stills["bare"]), "--out", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0
    assert "ArUco markers [0, 1, 2, 3] not found" in error and "no marker seen" in error
    assert not out.exists()


def test_calibrate_with_corners_and_the_config_path(stills, tmp_path) -> None:
    config = tmp_path / "table.toml"
    out = tmp_path / "calibration" / "T01.json"
    config.write_text(
        f'tournament = "t"\ntable = "T01"\n[[cameras]]\nsource = "{stills["bare"]}"\n'
        f'[calibration]\npath = "{out}"\n'
    )
    corners = [f"{x:.0f},{y:.0f}" for x, y in TRUTH]
    assert main(["calibrate", "--config", str(config), "--corners", *corners]) == 0
    written = Calibration.load(out)
    assert np.allclose(written.corners, TRUTH) and written.image_size == FRAME
    assert (tmp_path / "calibration" / "T01.preview.png").exists()


def test_calibrate_refuses_zones_outside_the_frame(stills, tmp_path, capsys) -> None:
    out = tmp_path / "T01.json"
    command = ["calibrate", "--source", str(stills["bare"]), "--out", str(out), "--corners"]
    too_big = "-200,-150 1400,-120 1450,900 -250,880"  # one argument: negative numbers
    assert main([*command, too_big]) == 2
    error = capsys.readouterr().err
    assert "zones leave the 1280x800 frame: seat 0 hand row" in error
    assert not out.exists() and (tmp_path / "T01.preview.png").exists()
    mirrored = ["1010,105", "330,70", "280,730", "1040,760"]
    assert main([*command, *mirrored]) == 2
    assert "anticlockwise" in capsys.readouterr().err and not out.exists()


def test_printed_marker_sheet_png_and_pdf_hold_the_four_markers(tmp_path) -> None:
    png, pdf = tmp_path / "markers.png", tmp_path / "markers.pdf"
    assert main(["calibrate", "--print-markers", str(png)]) == 0
    assert main(["calibrate", "--print-markers", str(pdf)]) == 0
    page = cv2.imread(str(png))
    assert page is not None and b"pHYs" in png.read_bytes()[:64]
    found = find_markers(page)
    assert sorted(found) == [0, 1, 2, 3]
    side_px = MARKER_MM / 25.4 * DPI
    for quad in found.values():
        assert abs(np.linalg.norm(quad[1] - quad[0]) - side_px) < 0.01 * side_px
    # the PDF: one A4 page whose single image is that page again
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert box and np.allclose(
        [float(box[1]), float(box[2])], np.array(PAGE_MM) / 25.4 * 72, atol=0.01
    )
    head = re.search(rb"/Width (\d+) /Height (\d+) .*?/Length (\d+) >>\nstream\n", data)
    assert head is not None
    start, length = head.end(), int(head[3])
    pixels = np.frombuffer(zlib.decompress(data[start : start + length]), np.uint8)
    image = pixels.reshape(int(head[2]), int(head[1]))
    assert sorted(find_markers(image)) == [0, 1, 2, 3]


def test_problems_accept_a_good_view_and_name_each_zone_that_leaves_it() -> None:
    calibration = Calibration(tuple(map(tuple, TRUTH)), FRAME)
    assert problems(calibration, FRAME) == []
    narrow = problems(calibration, (1000, 800))
    assert len(narrow) == 1 and "seat 1 hand row" in narrow[0] and "seat 3" not in narrow[0]
