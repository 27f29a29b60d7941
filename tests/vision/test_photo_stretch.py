"""Photos their publisher stretched (vision/photo_stretch.py): the squeeze that undoes the
stretch is found from what reads surest, tiles come back in the photo's own pixels, and a row
of real photographed tiles stretched into a square photo is read again."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.photo import PhotoTile
from vision.photo_stretch import (
    ALREADY_SURE,
    AS_IS,
    bordered,
    squeezed,
    stretch_of,
    stretched_back,
    sure_faces,
)

PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "camerash-tiles"
QUAD = ((10.0, 10.0), (40.0, 10.0), (40.0, 50.0), (10.0, 50.0))


def face(name: str = "5p", probability: float = 0.97, box: float = 0.9) -> PhotoTile:
    return PhotoTile(name, QUAD, probability * box, box_score=box)


def reads_when_tall_over_wide(ratio: float, faces: int) -> object:
    """A stand-in reader: ``faces`` sure faces on an image whose height over width is about
    ``ratio`` (the true photo), a doubted guess on any other."""

    def read(image: np.ndarray) -> list[PhotoTile]:
        h, w = image.shape[:2]
        if abs(h / w - ratio) / ratio < 0.3:
            return [face() for _ in range(faces)]
        return [face(probability=0.5)]

    return read


def test_sure_faces_count_reported_faces_read_surely() -> None:
    tiles = [face(), face(probability=0.8), face("back"), face(box=0.1), face()]
    assert sure_faces(tiles) == 2


def test_a_photo_that_reads_well_as_it_is_is_not_searched() -> None:
    calls: list[tuple[int, ...]] = []

    def read(image: np.ndarray) -> list[PhotoTile]:
        calls.append(image.shape)
        return []

    image = np.zeros((640, 640, 3), np.uint8)
    assert stretch_of(read, image, [face()] * ALREADY_SURE) == AS_IS
    assert calls == []


@pytest.mark.parametrize(("ratio", "expected"), [(1 / 8, (1, 8)), (8.0, (8, 1)), (1 / 4, (1, 4))])
def test_the_squeeze_that_reads_most_sure_faces_is_found(
    ratio: float, expected: tuple[int, int]
) -> None:
    image = np.zeros((640, 640, 3), np.uint8)
    assert stretch_of(reads_when_tall_over_wide(ratio, 12), image) == expected


def test_a_small_gain_is_no_stretch() -> None:
    image = np.zeros((640, 640, 3), np.uint8)
    assert stretch_of(reads_when_tall_over_wide(1 / 8, 2), image) == AS_IS  # two faces: chance
    as_is = [face()] * 4
    assert stretch_of(reads_when_tall_over_wide(1 / 8, 8), image, as_is) == AS_IS  # < 1.5 x 4 + 3


def test_a_large_photo_is_searched_on_a_small_copy() -> None:
    shapes: list[tuple[int, ...]] = []

    def read(image: np.ndarray) -> list[PhotoTile]:
        shapes.append(image.shape)
        return []

    stretch_of(read, np.zeros((3000, 4000, 3), np.uint8))
    assert max(max(s[:2]) for s in shapes) <= 640 * 1.3  # the border aside


def test_tiles_come_back_in_the_photo_pixels() -> None:
    image = np.zeros((600, 800, 3), np.uint8)
    small = squeezed(image, (1, 4))
    framed, border = bordered(small)
    assert small.shape[:2] == (150, 800)
    assert framed.shape[:2] == (150 + 2 * border, 800 + 2 * border)
    tile = PhotoTile("5p", tuple((x + border, y + border) for x, y in QUAD), 0.9)
    back = stretched_back(tile, (1, 4), border)
    assert back.corners == ((10.0, 40.0), (40.0, 40.0), (40.0, 200.0), (10.0, 200.0))
    assert back.tile == "5p" and back.confidence == 0.9


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="needs ../shared/datasets/camerash-tiles")
def test_a_row_of_real_tiles_stretched_square_is_read_again() -> None:
    """Fourteen held-out real tile photos in a row (60x80 px each), the strip stretched to 640 x
    640 as public sets export it: read as it is nothing is found; squeezed back most tiles are
    read right, each where it lies in the stretched photo."""
    import cv2

    from models.drawn.dataset import camerash_crops
    from vision.photo import PhotoReader

    chosen: dict[str, np.ndarray] = {}
    for name, crop in camerash_crops(PHOTOS, "eval"):
        if not name.endswith("f") and name not in chosen and name != "P":
            chosen[name] = crop
    names = list(chosen)[:14]
    strip = np.zeros((120, 14 * 62 + 40, 3), np.uint8)
    strip[:] = (40, 110, 40)
    for i, name in enumerate(names):
        left = 20 + i * 62
        strip[20:100, left : left + 60] = cv2.resize(chosen[name], (60, 80), cv2.INTER_AREA)
    stretched = cv2.resize(strip, (640, 640), interpolation=cv2.INTER_CUBIC)
    reader = PhotoReader()

    def read_right(tiles: list[PhotoTile]) -> int:
        right = 0
        for tile in (t for t in tiles if t.reported()):
            x, y = tile.centre
            slot = int((x * strip.shape[1] / 640 - 20) // 62)
            assert 20 * 640 / 120 - 40 < y < 100 * 640 / 120 + 40  # on the row, stretched
            right += 0 <= slot < 14 and names[slot] == tile.tile
        return right

    plain = read_right(reader.read(stretched, unstretch=False))
    squeezed_back = read_right(reader.read(stretched))
    assert squeezed_back >= 11 and squeezed_back >= plain + 6, (plain, squeezed_back)
    image, _, squeeze = reader.read_unstretched(stretched)
    assert squeeze[0] == 1 and 4 <= squeeze[1] <= 12 and image.shape[0] < 640  # truly 7.6


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="needs ../shared/datasets/camerash-tiles")
def test_score_photo_says_it_read_a_stretched_photo_squeezed_back(tmp_path: Path) -> None:
    import cv2

    from models.drawn.dataset import camerash_crops
    from tests.vision.test_score_photo import tilesight

    hand = ["2m", "3m", "4m", "5p", "6p", "7p", "7s", "8s", "9s", "E", "E", "E", "W", "W"]
    crops: dict[str, list[np.ndarray]] = {}
    for name, crop in camerash_crops(PHOTOS, "eval"):
        crops.setdefault(name, []).append(crop)
    if any(len(crops.get(name, [])) < hand.count(name) for name in set(hand)):
        pytest.skip("too few held-out photos of a kind")
    strip = np.full((120, 14 * 62 + 40, 3), (40, 110, 40), np.uint8)
    for i, name in enumerate(hand):
        crop = crops[name][hand[:i].count(name)]
        strip[20:100, 20 + i * 62 : 80 + i * 62] = cv2.resize(crop, (60, 80), cv2.INTER_AREA)
    path = tmp_path / "stretched.jpg"
    cv2.imwrite(str(path), cv2.resize(strip, (640, 640), interpolation=cv2.INTER_CUBIC))
    code, out, _ = tilesight("score", "--photo", str(path), "--json")
    document = json.loads(out)
    assert document["squeezed"]["width"] == 1 and 4 <= document["squeezed"]["height"] <= 12
    assert "stretched" in document["squeezed"]["note"] and code in (0, 1, 3)
    assert len(document["tiles"]) >= 12
    code, text, _ = tilesight("score", "--photo", str(path))
    assert "note: the photo looks stretched" in text
