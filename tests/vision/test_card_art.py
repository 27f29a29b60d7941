"""Our card art and rendered card scenes: 54 distinct faces, backs, labels that fit the image."""

from __future__ import annotations

import hashlib

import cv2
import numpy as np
import pytest

from models.cards import art
from models.cards.art import COLOURS, PATTERNS, back
from models.cards.scene import HELD_OUT_FROM, render
from vision import card_candidates, card_places


def test_the_art_draws_54_distinct_faces_in_engine_notation(tmp_path) -> None:
    from engine.gouji.notation import parse_card

    assert art.FACES == card_candidates.FACES
    assert len(set(art.FACES)) == 54
    digests = set()
    for code in art.FACES:
        assert str(parse_card(code)) == code  # the engine's own notation
        path = tmp_path / f"{code}.png"
        assert cv2.imwrite(str(path), art.face(code))
        image = cv2.imread(str(path))
        assert image.shape == (528, 378, 3)
        digests.add(hashlib.sha256(image.tobytes()).hexdigest())
    assert len(digests) == 54


def _red_ink(image: np.ndarray) -> int:
    b, g, r = (image[..., i].astype(int) for i in range(3))
    return int(((r > 120) & (r - g > 80) & (r - b > 80)).sum())


@pytest.mark.parametrize("code", ["7h", "Td", "Qh", "RJ"])
def test_red_cards_have_red_ink(code: str) -> None:
    assert _red_ink(art.face(code)) > 500


@pytest.mark.parametrize("code", ["7s", "Tc", "Ks", "BJ"])
def test_black_cards_have_no_red_ink(code: str) -> None:
    assert _red_ink(art.face(code)) == 0


def test_the_two_indices_are_the_same_turned_half_round() -> None:
    image = art.face("9c")
    x0, y0, x1, y1 = (round(v * art.PX_PER_MM) for v in art.INDEX_MM)
    top = image[y0:y1, x0:x1].min(axis=2) < 128
    turned = image[::-1, ::-1][y0:y1, x0:x1].min(axis=2) < 128
    assert top.mean() > 0.1  # there is ink in the index
    overlap = (top & turned).sum() / (top | turned).sum()
    assert overlap > 0.75  # the same ink, give or take a pixel of rounding


def test_unknown_faces_are_refused() -> None:
    with pytest.raises(ValueError, match="not a card face"):
        art.face("1x")
    with pytest.raises(ValueError, match="unknown back pattern"):
        back(0, "plaid")


def test_backs_differ_from_each_other_and_from_faces() -> None:
    images = [back(c, p) for c in range(len(COLOURS)) for p in PATTERNS]
    assert len({hashlib.sha256(i.tobytes()).hexdigest() for i in images}) == len(images)
    blank = art.face("3s")
    for image in images:
        assert image.shape == blank.shape
        assert np.abs(image.astype(int) - blank.astype(int)).mean() > 30


def test_vision_constants_match_the_art() -> None:
    x0, y0, x1, y1 = art.INDEX_MM
    assert pytest.approx(((x0 + x1) / 2, (y0 + y1) / 2)) == card_places.INDEX_CENTRE_MM
    assert (card_places.CARD_W_MM, card_places.CARD_H_MM) == (art.CARD_W_MM, art.CARD_H_MM)


def test_a_scene_is_deterministic_and_its_labels_fit(tmp_path) -> None:
    scene = render(HELD_OUT_FROM + 3)
    again = render(HELD_OUT_FROM + 3)
    assert np.array_equal(scene.image, again.image)
    assert scene.image.shape == (1080, 1920, 3)
    showing = [q for card in scene.cards for q in card.indices]
    assert showing, "a scene shows some corner indices"
    for quad in showing:
        assert quad.shape == (4, 2)
        assert (quad >= 0).all() and (quad[:, 0] < 1920).all() and (quad[:, 1] < 1080).all()
    for card in scene.cards:
        if card.code is None:
            assert not card.indices  # face-down cards show no index
        side = np.linalg.norm(card.quad[0] - card.quad[3])
        assert 0.8 * scene.card_height < side < 1.3 * scene.card_height
    path = tmp_path / "scene.jpg"
    assert cv2.imwrite(str(path), scene.image)
    assert cv2.imread(str(path)).shape == scene.image.shape
    # an index quad is darker inside (ink) than the card's middle-edge paper around it
    gray = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    mask = np.zeros(gray.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(showing[0]).astype(np.int32), 1)
    assert gray[mask > 0].min() < np.percentile(gray[mask > 0], 90) - 40
