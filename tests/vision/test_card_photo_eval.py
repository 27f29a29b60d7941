"""The real-photo card evaluation (models/cards/evaluate_photos.py) and its source's label
conversion, on made-up reads and one rendered scene written as a PNG with a labels JSON: a read
of the right rank on the card is counted, a wrong rank or a read elsewhere is not, an image
that cannot be decoded is skipped by name. No fetched photos are needed."""

from __future__ import annotations

import json
from collections import Counter

import cv2
import numpy as np
import pytest

from models.cards.evaluate_photos import evaluate, lies_on, match, rank, score_image, table
from models.cards.photo_sources import SOURCES, group_indices
from models.cards.scene import HELD_OUT_FROM, render
from vision.cards import CardRead, CardReader

SEED = HELD_OUT_FROM + 900_005  # held out; its 14 face-up cards all read right


def _read(code: str, x: float, y: float) -> CardRead:
    """A made-up read of a 60 x 90 px card with its top-left corner at (x, y)."""
    quad = np.array([[x, y], [x + 60, y], [x + 60, y + 90], [x, y + 90]], np.float64)
    index = np.array([[x + 2, y + 2], [x + 12, y + 2], [x + 12, y + 20], [x + 2, y + 20]], float)
    return CardRead(code, quad, 0.9, (index,))


def test_a_right_read_is_counted_and_a_wrong_rank_is_not() -> None:
    truth = [
        {"code": "Td", "box": [100, 100, 160, 190]},
        {"code": "9s", "box": [300, 100, 360, 190]},
    ]
    reads = [_read("Td", 101, 99), _read("8s", 300, 100)]
    assert match(reads, truth, rank) == [(0, 0)]
    tally: Counter[str] = Counter()
    score_image(reads, truth, tally)
    counts = dict(tally)
    assert counts["rank_right"] == 1 and counts["code_right"] == 1 and counts["cards"] == 2
    assert counts["reads_right"] == 1 and counts["reads"] == 2
    assert counts["images_all_right"] == 0


def test_rank_right_suit_wrong_and_a_read_elsewhere() -> None:
    truth = [{"code": "Td", "box": [100, 100, 160, 190]}]
    assert match([_read("Th", 100, 100)], truth, rank) == [(0, 0)]
    assert match([_read("Th", 100, 100)], truth, lambda c: c) == []
    assert match([_read("Td", 500, 500)], truth, rank) == []  # the right code, not on the card


def test_index_boxes_and_multisets() -> None:
    on = {"code": "As", "box": None, "indices": [[104, 104, 112, 118]]}
    assert lies_on(_read("As", 100, 100), on)
    assert not lies_on(_read("As", 300, 300), on)
    assert lies_on(_read("As", 300, 300), {"code": "As", "box": None, "indices": []})
    two = [{"code": "5c"}, {"code": "5h"}]
    assert len(match([_read("5d", 0, 0)] * 3, two, rank)) == 2  # each read used once


def test_one_cards_two_indices_group_and_the_classes_map() -> None:
    cards = group_indices(
        [("Kh", [0, 0, 10, 20]), ("Kh", [50, 80, 60, 100]), ("Kh", [900, 0, 910, 20])]
    )
    assert [len(c["indices"]) for c in cards] == [2, 1]
    mapping = SOURCES["card-detection-rf"].mapping
    assert (mapping["10C"], mapping["AS"], mapping["BLACK JOKER"], mapping["RED JOKER"]) == (
        "Tc",
        "As",
        "BJ",
        "RJ",
    )
    assert mapping["BACK"] is None


def _write(folder, name: str, image: bytes, cards: list[dict]) -> None:  # type: ignore[no-untyped-def, type-arg]
    (folder / "images" / f"{name}.png").write_bytes(image)
    record = {"image": f"{name}.png", "width": 1920, "height": 1080, "cards": cards}
    (folder / "labels" / f"{name}.json").write_text(json.dumps(record))


@pytest.mark.slow
def test_a_rendered_scene_as_a_photo_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    scene = render(SEED)
    folder = tmp_path / "made-up"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    ok, png = cv2.imencode(".png", scene.image)
    assert ok
    shown = [c for c in scene.cards if c.code and c.indices]
    boxed = [
        {"code": c.code, "box": [*c.quad.min(0).tolist(), *c.quad.max(0).tolist()]} for c in shown
    ]
    _write(folder, "a", png.tobytes(), boxed)
    assert all(rank(c["code"]) != "5" for c in boxed)  # no five in this scene
    wrong = [{"code": "5c", "box": c["box"]} for c in boxed]
    _write(folder, "b", png.tobytes(), wrong)  # the same photo labelled with other ranks
    _write(folder, "c", b"not a png", boxed)  # cannot be decoded: skipped, named
    result = evaluate(folder, CardReader())
    cards = result["metrics"]["cards read right (rank)"]
    assert cards["total"] == 2 * len(shown) and len(shown) >= 10
    assert len(shown) * 0.85 <= cards["right"] <= len(shown)  # every right one is from "a"
    assert result["unreadable"] == ["c.png"]
    assert result["metrics"]["images with every card right"]["right"] <= 1
    assert "cards read right (rank and suit)" in table(result)
