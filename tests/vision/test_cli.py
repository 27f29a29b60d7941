"""``tilesight detect`` and ``watch``: JSON shapes, several images, clear errors (real model)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.drawn.camera import render_frame
from vision.calibration import Calibration
from vision.layout import TableSpec

CORNERS = np.float32([[260, 40], [900, 50], [890, 690], [250, 680]])


def _tilesight(*args: str) -> subprocess.CompletedProcess[str]:
    command = "from tilesight.cli import main; raise SystemExit(main())"
    return subprocess.run(
        [sys.executable, "-c", command, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def table_image(tmp_path_factory, faces) -> tuple[Path, Path]:
    spec = TableSpec(concealed=[0] * 4)
    spec.rivers = [["1m", "2p", "3s", "E", "C", "9m"] for _ in range(4)]
    frame = render_frame(
        spec,
        faces,
        np.random.default_rng(4),
        frame_size=(1152, 720),
        arms=0,
        corners=CORNERS,
        distortion=0.0,
    )
    folder = tmp_path_factory.mktemp("detect")
    image = folder / "table.jpg"
    cv2.imwrite(str(image), frame.image)
    calibration = folder / "calibration.json"
    corners = tuple((float(x), float(y)) for x, y in frame.table_corners)
    calibration.write_text(Calibration(corners).to_json())
    return image, calibration


def test_detect_prints_one_json_document_per_image(table_image) -> None:
    image, calibration = table_image
    result = _tilesight("detect", str(image), "--calibration", str(calibration))
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert isinstance(found, list) and len(found) > 20
    for item in found:
        assert set(item) == {"tile", "box", "confidence", "orientation"}
        x1, y1, x2, y2 = item["box"]
        assert 0 <= x1 < x2 <= 1152 and 0 <= y1 < y2 <= 720
        assert 0 <= item["confidence"] <= 1 and item["orientation"] in (0, 90, 180, 270)


def test_detect_json_gives_one_line_per_image(table_image) -> None:
    image, calibration = table_image
    result = _tilesight(
        "detect", "--json", str(image), str(image), "--calibration", str(calibration)
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 2 and json.loads(lines[0]) == json.loads(lines[1])


def test_detect_reports_a_corrupt_image_and_goes_on(table_image, tmp_path: Path) -> None:
    image, _ = table_image
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG\r\n\x1a\n garbage")
    result = _tilesight("detect", "--json", str(broken), str(image))
    assert result.returncode == 2
    assert "broken.png" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stdout.strip().splitlines()) == 1


def test_watch_refuses_a_bad_calibration_clearly(tmp_path: Path) -> None:
    bad = tmp_path / "cal.json"
    bad.write_text('{"corners": [[1, 2]]}')
    result = _tilesight("watch", str(tmp_path / "none.avi"), "--calibration", str(bad))
    assert result.returncode == 2 and "need 4 corners" in result.stderr
    assert "Traceback" not in result.stderr
