"""The CC0 riichi art maps onto the engine's notation and rasterises into faces."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.art.cc0_art import cc0_faces, notation
from models.art.faces import FACE_H, FACE_W

CC0 = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "tile-art-cc0"


@pytest.mark.parametrize(
    ("stem", "name"),
    [
        ("Man1", "1m"),
        ("Pin9", "9p"),
        ("Sou5-Dora", "5s"),
        ("Ton", "E"),
        ("Shaa", "W"),
        ("Pei", "N"),
        ("Chun", "C"),
        ("Hatsu", "F"),
        ("Haku", "P"),
        ("Front", None),
        ("Back", None),
        ("Blank", None),
        ("Manx", None),
    ],
)
def test_file_names_map_to_engine_notation(stem: str, name: str | None) -> None:
    assert notation(stem) == name


@pytest.mark.training
def test_every_kind_rasterises_in_both_styles() -> None:
    pytest.importorskip("cairosvg", reason="training extra")
    if not CC0.is_dir():
        pytest.skip("shared/datasets/tile-art-cc0 is absent")
    faces = cc0_faces(CC0)
    assert len(faces) == 34  # no flowers in this art
    assert all(len(images) >= 2 for images in faces.values())
    assert len(faces["5m"]) == 4  # plain and red five, two styles
    image = faces["E"][-1]
    assert image.shape == (FACE_H, FACE_W, 3)
    assert image.std() > 20  # a drawn glyph, not a blank body
