"""``tilesight calibrate`` for a Gouji table (the config's ``game = "gouji"``, or ``--game``): the
six seats' play zones drawn on a rendered card-table frame (a real PNG file), each over the
cards that seat laid, the middle left clear for the pile; zones that leave the frame refused."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from models.cards.gouji_frames import GoujiTableRender
from tilesight.cli import main
from vision.calibration import Calibration
from vision.calibration_check import zone_outlines
from vision.cards import CardReader

FRAME = (1920, 1080)
PLAYS = [["3s", "3h"], ["5d", "5c"], ["9h", "9s"], ["Qd", "Qc"], ["Kh", "Ks"], ["As", "Ad"]]


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, np.ndarray, np.ndarray]:
    """A frame with two cards laid in every seat's zone; its file, pixels and corners."""
    render = GoujiTableRender(11, frame=FRAME)
    image = next(render.frames(PLAYS, 12, 1, 1, laid=[1, 2, 3, 4, 5, 6]))
    path = tmp_path_factory.mktemp("gouji-calibrate") / "table.png"
    assert cv2.imwrite(str(path), image)
    return path, image, np.asarray(render.corners, np.float64)


def _config(tmp_path: Path, source: Path, out: Path) -> Path:
    config = tmp_path / "gouji.toml"
    config.write_text(
        f'tournament = "hall"\ntable = "G1"\ngame = "gouji"\n'
        f'[[cameras]]\nsource = "{source}"\n[calibration]\npath = "{out}"\n'
    )
    return config


def test_a_gouji_config_calibrates_its_six_play_zones_over_the_cards_laid(
    table: tuple[Path, np.ndarray, np.ndarray], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, image, corners = table
    out = tmp_path / "G1.json"
    given = [f"{x:.1f},{y:.1f}" for x, y in corners]
    assert (
        main(["calibrate", "--config", str(_config(tmp_path, path, out)), "--corners", *given]) == 0
    )
    assert "play zone" in capsys.readouterr().out
    calibration = Calibration.load(out)
    zones = zone_outlines(calibration, "gouji")
    assert sorted(zones) == [f"seat{seat}.play" for seat in range(6)]
    preview = cv2.imread(str(tmp_path / "G1.preview.png"))
    assert preview is not None and preview.shape == image.shape
    changed = np.abs(preview.astype(int) - image.astype(int)).sum(axis=2) > 30
    for seat, polygon in enumerate(zones.values()):
        mask = np.zeros(image.shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.round(polygon).astype(np.int32)], 255)
        assert changed[mask > 0].mean() > 0.5, seat  # the zone tinted
        for read in CardReader().read(image):  # each card read lies in its seat's zone
            centre = read.quad.mean(axis=0)
            if (
                cv2.pointPolygonTest(polygon.astype(np.float32), tuple(map(float, centre)), False)
                >= 0
            ):
                assert read.code in PLAYS[seat], (seat, read.code)
    middle = calibration.to_image(np.array([[0.5, 0.5]]))[0].round().astype(int)
    assert not changed[middle[1] - 5 : middle[1] + 5, middle[0] - 5 : middle[0] + 5].any()


def test_gouji_zones_that_leave_the_frame_are_refused_by_name(
    table: tuple[Path, np.ndarray, np.ndarray], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _, _ = table
    out = tmp_path / "G1.json"
    wide = "-300,100 2200,100 2200,1000 -300,1000"  # the end seats' zones off the frame
    command = ["calibrate", "--source", str(path), "--out", str(out), "--game", "gouji"]
    assert main([*command, "--corners", wide]) == 2
    error = capsys.readouterr().err
    assert "seat 2 play" in error and "seat 5 play" in error and "seat 0 play" not in error
    assert not out.exists() and (tmp_path / "G1.preview.png").exists()
