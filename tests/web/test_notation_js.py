"""The pages' reading of the project notation (common.js) agrees with engine.notation.

The browser only splits what engine.notation printed (hands in win cards, melds in the state);
hypothesis feeds it random hands and random junk, in the same Chromium the other tests use.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.notation import Hand, format_hand, format_meld
from engine.tiles import FLOWERS, KINDS, Meld, MeldKind, RelativeSeat
from tilesight.web.server import page_url

pytestmark = pytest.mark.browser

NUMBERED = [t for t in KINDS if not t.suit.is_honor]
FUZZ = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@st.composite
def melds(draw: st.DrawFn) -> Meld:
    kind = draw(st.sampled_from(list(MeldKind)))
    if kind is MeldKind.CHOW:
        first = draw(st.sampled_from([t for t in NUMBERED if t.rank <= 7]))
        base = KINDS.index(first)
        tiles = tuple(KINDS[base : base + 3])
    else:
        tiles = (draw(st.sampled_from(KINDS)),) * kind.size
    source = None
    if kind is not MeldKind.CONCEALED_KONG:
        source = draw(st.none() | st.sampled_from(list(RelativeSeat)))
    return Meld(kind, tiles, source)


hands = st.builds(
    Hand,
    st.lists(st.sampled_from(KINDS + FLOWERS), min_size=1, max_size=14).map(tuple),
    st.lists(melds(), max_size=4).map(tuple),
)


@pytest.fixture
def page(page_factory: Any, web: Any) -> Any:
    # no broker: the page keeps retrying in the background, which does not matter here
    return page_factory(page_url(web.url, "overlay.html", {"broker": "ws://127.0.0.1:9"}))


@FUZZ
@given(hand=hands)
def test_hands_split_like_the_engine_prints_them(page: Any, hand: Hand) -> None:
    groups = page.evaluate("(text) => Tilesight.splitHand(text)", format_hand(hand))
    concealed = [t for g in groups if not g["meld"] for t in g["tiles"]]
    assert concealed == [str(t) for t in hand.concealed]
    split_melds = [g for g in groups if g["meld"]]
    assert [g["tiles"] for g in split_melds] == [[str(t) for t in m.tiles] for m in hand.melds]
    assert [g["source"] for g in split_melds] == [
        int(m.source) if m.source is not None else None for m in hand.melds
    ]


@FUZZ
@given(meld=melds())
def test_the_claimed_tile_lies_sideways_by_where_it_came_from(page: Any, meld: Meld) -> None:
    shown = page.evaluate(
        """(text) => [...Tilesight.meld(text).children].map(
             (t) => [t.dataset.tile, t.classList.contains('sideways'),
                     t.classList.contains('face-down')])""",
        format_meld(meld),
    )
    assert [code for code, _, _ in shown] == [str(t) for t in meld.tiles]
    sideways = [i for i, (_, side, _) in enumerate(shown) if side]
    expected = {None: [], RelativeSeat.UPPER: [0], RelativeSeat.OPPOSITE: [1]}
    want = expected.get(meld.source, [len(meld.tiles) - 1])
    assert sideways == want
    down = [i for i, (_, _, face_down) in enumerate(shown) if face_down]
    assert down == ([0, 3] if meld.kind is MeldKind.CONCEALED_KONG else [])


@FUZZ
@given(text=st.text(alphabet="123456789mspfESWNCFP[]{}<> x&;\"'", max_size=30))
def test_junk_never_throws_and_stays_text(page: Any, text: str) -> None:
    out = page.evaluate(
        """(text) => { Tilesight.splitHand(text); const m = Tilesight.meld(text);
             return [m.querySelectorAll('*:not(span):not(svg):not(use)').length,
                     [...m.querySelectorAll('.tile')].map((t) => t.dataset.tile)]; }""",
        text,
    )
    assert out[0] == 0  # only the page's own elements, whatever the text
    assert all(isinstance(code, str) for code in out[1])
