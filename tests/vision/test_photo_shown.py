"""Which photo readings are shown (vision/photo_shown.py): tiles in company at the runtime's cut,
a lone reading only when surer."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vision.photo import PHOTO_MIN_CONFIDENCE, PhotoTile
from vision.photo_shown import ALONE_BELOW, COMPANY, companions, shown


def tile(x: float, y: float = 0.0, confidence: float = 0.45, size: float = 30.0) -> PhotoTile:
    """An upright face ``size`` wide and 4/3 as long, its top-left corner at ``x, y``."""
    w, h = size, size * 4 / 3
    quad = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    return PhotoTile("5p", quad, confidence, box_score=0.9)


def test_a_row_keeps_its_unsure_tiles_and_a_lone_unsure_one_goes() -> None:
    row = [tile(31.0 * i) for i in range(5)]
    lone = tile(2000.0, 2000.0)
    assert shown([*row, lone]) == row


def test_a_lone_sure_tile_is_shown() -> None:
    lone = tile(0.0, confidence=ALONE_BELOW + 0.01)
    assert shown([lone]) == [lone]


def test_tiles_of_another_size_are_no_company() -> None:
    small = [tile(12.0 * i, size=10.0) for i in range(4)]
    big = tile(0.0, 40.0, size=60.0)
    assert companions([*small, big])[-1] == 0
    assert big not in shown([*small, big])


def test_unreported_tiles_are_never_shown_nor_company() -> None:
    weak = [tile(31.0 * i, confidence=PHOTO_MIN_CONFIDENCE - 0.1) for i in range(6)]
    one = tile(31.0 * 6)
    assert shown([*weak, one]) == []


@given(
    st.lists(
        st.tuples(st.floats(0, 2000), st.floats(0, 2000), st.floats(0.3, 1.0), st.floats(5, 200)),
        max_size=25,
    )
)
def test_shown_is_the_reported_tiles_less_lone_unsure_ones(
    specs: list[tuple[float, float, float, float]],
) -> None:
    tiles = [tile(x, y, c, s) for x, y, c, s in specs]
    reported = [t for t in tiles if t.reported()]
    out = shown(tiles)
    assert all(t in reported for t in out)
    company = companions(reported)
    for t, n in zip(reported, company, strict=True):
        assert (t in out) == (n >= COMPANY or t.confidence >= ALONE_BELOW)
