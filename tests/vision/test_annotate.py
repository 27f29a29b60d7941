"""Drawing what was read (vision.annotate) and ``tilesight detect --annotated``."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.test_hand_photo import camera
from tests.vision.test_score_photo import AIM, HAND, render
from tilesight.cli import main
from vision.annotate import DOUBTED, GROUP_COLOURS, SURE, AnnotateError, Outline, annotate, save
from vision.photo import PhotoTile


def _row(x: float, y: float, width: float, names: str) -> list[PhotoTile]:
    """Upright tiles side by side from (x, y), each ``width`` px wide; ``?`` after a name reads
    it unsure with 6p as runner-up."""
    tiles = []
    for n, name in enumerate(names.split()):
        left, h = x + n * width * 1.02, width * 4 / 3
        corners = ((left, y), (left + width, y), (left + width, y + h), (left, y + h))
        unsure = name.endswith("?")
        alternatives = (("6p", 0.4),) if unsure else ()
        tiles.append(PhotoTile(name.rstrip("?"), corners, 0.45 if unsure else 0.97, alternatives))
    return tiles


def _edge_run(drawn: np.ndarray, plain: np.ndarray, tile: PhotoTile) -> int:
    """How many pixels wide the line drawn along the tile's left edge is (high on the tile,
    above its label, which sits low on the face)."""
    x1, y1, _, y2 = (round(v) for v in tile.box)
    row = round(y1 + 0.35 * (y2 - y1))
    changed = np.abs(drawn[row].astype(int) - plain[row].astype(int)).max(axis=1) > 30
    left, right = x1, x1
    while left > 0 and changed[left - 1]:
        left -= 1
    while right + 1 < len(changed) and changed[right + 1]:
        right += 1
    return right - left + 1 if changed[x1] else 0


def _has(
    image: np.ndarray, colour: tuple[int, int, int], box: tuple[float, ...], margin: float = 0.3
) -> bool:
    """Whether ``colour`` is drawn on the box or around it (``margin`` of its width)."""
    x1, y1, x2, y2 = (round(v) for v in box)
    m = round((x2 - x1) * margin) + 2
    patch = image[max(0, y1 - m) : y2 + m, max(0, x1 - m) : x2 + m].astype(int)
    return bool((np.abs(patch - np.array(colour)).max(axis=2) < 12).any())


@pytest.mark.parametrize(("size", "tile_px"), [(300, 18.0), (4000, 300.0)])
def test_drawings_scale_with_the_tiles_and_keep_the_image_size(size: int, tile_px: float) -> None:
    plain = np.full((size * 3 // 4, size, 3), 200, np.uint8)
    tiles = _row(size * 0.05, size * 0.4, tile_px, "1m 2m 3m? E")
    meld = Outline((0, 1, 2), "[123m<3]", "meld")
    drawn = annotate(plain, tiles, [meld], ["PROVISIONAL total 9", "123m E"], alert=True)
    assert drawn.shape == plain.shape and drawn is not plain
    assert (plain == 200).all()  # the input is left alone
    run = _edge_run(drawn, plain, tiles[0])
    assert (run >= 8) if size == 4000 else (1 <= run <= 4)
    assert _has(drawn, SURE, tiles[0].box) and _has(drawn, DOUBTED, tiles[2].box)
    assert _has(drawn, GROUP_COLOURS["meld"], tiles[1].box, margin=1.0)  # its outline, label
    banner = drawn[: size // 50].mean()
    assert banner < 120 < drawn[-(size // 50) :].mean()  # a dark band at the top only


def test_save_refuses_unknown_formats_and_unwritable_places(tmp_path: Path) -> None:
    image = np.zeros((20, 30, 3), np.uint8)
    save(tmp_path / "ok.png", image)
    assert cv2.imread(str(tmp_path / "ok.png")).shape == (20, 30, 3)
    with pytest.raises(AnnotateError, match=r"\.nope"):
        save(tmp_path / "bad.nope", image)
    with pytest.raises(AnnotateError, match="cannot write"):
        save(tmp_path / "missing" / "folder" / "x.png", image)


def _tilesight(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def hand_photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("detect") / "hand.jpg"
    cv2.imwrite(str(path), render(HAND, camera(10, 20, 0, 800, aim=AIM)))
    return path


def _drawn(path: Path, source: Path) -> np.ndarray:
    drawn, photo = cv2.imread(str(path)), cv2.imread(str(source))
    assert drawn is not None and drawn.shape == photo.shape
    assert (np.abs(drawn.astype(int) - photo.astype(int)).max(axis=2) > 40).mean() > 0.01
    return drawn


def test_detect_draws_one_image_to_a_file(hand_photo: Path, tmp_path: Path) -> None:
    out = tmp_path / "read.png"
    code, stdout, err = _tilesight(
        "detect", str(hand_photo), "--json", "--tile-px", "50", "--annotated", str(out)
    )
    assert code == 0, err
    assert stdout.count("\n") == 1  # the JSON line is still printed
    _drawn(out, hand_photo)


def test_detect_draws_several_images_to_a_folder_or_a_pattern(
    hand_photo: Path, tmp_path: Path
) -> None:
    second = tmp_path / "second.jpg"
    second.write_bytes(hand_photo.read_bytes())
    images = [str(hand_photo), str(second)]
    code, _, err = _tilesight("detect", *images, "--json", "--annotated", str(tmp_path / "out"))
    assert code == 0, err
    _drawn(tmp_path / "out" / "hand-read.png", hand_photo)
    _drawn(tmp_path / "out" / "second-read.png", second)
    pattern = str(tmp_path / "p" / "{index}-{stem}.jpg")
    code, _, err = _tilesight("detect", *images, "--json", "--annotated", pattern)
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "p").iterdir()) == ["1-hand.jpg", "2-second.jpg"]


def test_detect_refuses_two_images_drawn_to_one_file(hand_photo: Path, tmp_path: Path) -> None:
    again = str(tmp_path / "{stem}.png")
    code, stdout, err = _tilesight("detect", str(hand_photo), str(hand_photo), "--annotated", again)
    assert code == 2 and stdout == "" and "for two images" in err
