"""Close-up flower reading: large tiles called a flower are read again from a 96x72 crop."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from models.art.numbered_flowers import numbered_flower_faces
from models.training.crop_sets import jittered_crops
from vision.closeup import CLOSEUP_H, CLOSEUP_W, MIN_SIDE, CloseupReader, closeup_crop
from vision.crops import TILE_NAMES, kind_probabilities
from vision.detector import Detection, Detector
from vision.detector_backends import WEIGHTS
from vision.faces import face

FLOWERS = [f"{rank}f" for rank in range(1, 9)]
PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "camerash-tiles"


@pytest.fixture(scope="module")
def reader() -> CloseupReader:
    return CloseupReader(WEIGHTS / "closeup.onnx")


def test_a_sideways_box_is_turned_clockwise_like_the_table_crops() -> None:
    image = np.full((200, 300, 3), 255, np.uint8)
    image[50:110, 20:40] = (0, 0, 255)  # red at the left end of a sideways tile
    crop = closeup_crop(image, (20, 50, 180, 110))
    assert crop.shape == (CLOSEUP_H, CLOSEUP_W, 3)
    red = (crop[..., 2] > 200) & (crop[..., 0] < 80)
    assert red[:10].mean() > 0.9  # clockwise: the left end is now the top
    assert red[-40:].mean() == 0


@pytest.mark.parametrize("box", [(10, 10, 10, 50), (500, 500, 600, 600), (-50, -50, -10, -10)])
def test_a_box_showing_nothing_is_refused(box: tuple[float, float, float, float]) -> None:
    with pytest.raises(ValueError, match="shows nothing"):
        closeup_crop(np.zeros((100, 100, 3), np.uint8), box)


def test_no_crops_read_nothing(reader: CloseupReader) -> None:
    assert reader.read(np.zeros((0, CLOSEUP_H, CLOSEUP_W, 3), np.uint8)).shape == (0, 16)


def test_it_reads_numerals_the_table_classifier_cannot(reader: CloseupReader) -> None:
    """Faces whose picture is usually another flower's: the numeral and character decide.
    Never trained on (another seed). The table classifier reads the same faces at 48x36."""
    faces = numbered_flower_faces(np.random.default_rng(2024), 10)
    items = [(name, face) for name, images in faces.items() for face in images]
    big, labels = jittered_crops(items, 2, seed=7, size=(CLOSEUP_W, CLOSEUP_H))
    found = reader.read(big).argmax(axis=1)
    closeup_right = float(np.mean(found // 2 == labels // 2 - TILE_NAMES.index("1f")))
    small = np.stack([cv2.resize(c, (36, 48), interpolation=cv2.INTER_AREA) for c in big])
    table = kind_probabilities(Detector().read_crops(small))[:, :-1].argmax(axis=1)
    table_right = float(np.mean(table == labels // 2))
    assert closeup_right >= 0.85, closeup_right
    assert closeup_right >= table_right + 0.3, (closeup_right, table_right)
    assert np.mean(found % 2 == labels % 2) >= 0.85  # which way up


def test_our_own_flower_faces_read_right_both_ways_up(reader: CloseupReader, faces) -> None:
    for name in FLOWERS:
        photo = cv2.resize(faces[name][0], (150, 200), interpolation=cv2.INTER_CUBIC)
        for turned in (False, True):
            image = cv2.rotate(photo, cv2.ROTATE_180) if turned else photo
            found, upside_down, probability = reader.flower(image, (0, 0, 150, 200))
            assert (found, upside_down) == (name, turned), (name, turned, found, probability)


def test_only_large_flowers_are_re_read(faces) -> None:
    detector = Detector()
    photo = cv2.resize(faces["3f"][0], (150, 200), interpolation=cv2.INTER_CUBIC)
    called = Detection(face("7f"), (0, 0, 150, 200), 0.2, 0)
    reread = detector.read_closeup(photo, called, box_score=0.9)
    assert str(reread.face) == "3f" and reread.orientation == 0
    assert 0.2 < reread.confidence <= 0.9
    small = Detection(face("7f"), (0, 0, MIN_SIDE - 1, 200), 0.5, 0)
    assert detector.read_closeup(photo, small, 0.9) == small
    not_a_flower = Detection(face("5p"), (0, 0, 150, 200), 0.9, 0)
    assert detector.read_closeup(photo, not_a_flower, 0.9) == not_a_flower
    mostly_outside = Detection(face("7f"), (100, -150, 250, 50), 0.5, 0)  # 50 x 50 px inside
    assert detector.read_closeup(photo, mostly_outside, 0.9) == mostly_outside
    beyond = Detection(face("7f"), (300, 300, 450, 500), 0.5, 0)  # in a window's padding only
    assert detector.read_closeup(photo, beyond, 0.9) == beyond


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="needs ../shared/datasets/camerash-tiles")
def test_detect_reads_real_close_up_flowers_from_full_resolution() -> None:
    """Held-out real tile photos (240x320) laid on felt: ``detect --tile-px 200`` finds the
    four tiles and names both flowers from the full-resolution pixels."""
    from models.drawn.dataset import camerash_crops

    photos = camerash_crops(PHOTOS, "eval")
    flowers = [p for p in photos if p[0] in ("6f", "7f")][:2]
    kinds = [p for p in photos if p[0] in ("E", "C")][:2]
    image = np.zeros((480, 1100, 3), np.uint8)
    image[:] = (40, 110, 40)
    chosen = [kinds[0], flowers[0], kinds[1], flowers[1]]
    for i, (_, photo) in enumerate(chosen):
        image[80:400, 20 + i * 270 : 260 + i * 270] = photo
    found = sorted(Detector(tile_px=200).detect(image), key=lambda d: d.box[0])
    assert [str(d.face) for d in found] == [name for name, _ in chosen]
    assert all(0 < d.confidence <= 1 for d in found)
