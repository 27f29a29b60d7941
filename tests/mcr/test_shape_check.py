"""The fast MCR shape check (``mcr_is_win``, which the camera and the photo reader ask) agrees
with the full search (``mcr_arrangements``), the knitted shapes included."""

from __future__ import annotations

import pytest

from engine.mcr.shapes import mcr_arrangements, mcr_is_win
from engine.notation import parse_tiles
from engine.scoring.decompose import counts_of


@pytest.mark.parametrize(
    ("hand", "win"),
    [
        ("147m258p369sESWNC", True),  # lesser honours and knitted tiles, all nine knitted
        ("147m258p369sESWNP", True),  # the same with another honour
        ("147m258p369sEEEFF", True),  # knitted straight with a pung and a pair
        ("147m258p369s123sFF", True),  # knitted straight, a chow and a pair
        ("147m258p369s124sFF", False),  # 124s makes no set
        ("147m258p36sESWNCF", True),  # lesser honours, eight knitted
        ("147m258p369sESWNN", False),  # a pair among lesser honours: none
        ("11223344556677m", True),  # seven pairs
    ],
)
def test_the_fast_check_agrees_with_the_full_search(hand: str, win: bool) -> None:
    counts = counts_of(parse_tiles(hand))
    assert bool(mcr_arrangements(counts, [])) is win
    assert mcr_is_win(counts, []) is win
