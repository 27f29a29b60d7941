"""Hypothesis fuzzing: any request scores without raising; valid results settle to zero."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.notation import Hand
from engine.qujing import QujingOptions, QujingRuleSet
from engine.qujing.hands import HAND_TYPES_BY_ID
from engine.rulesets import WinRequest
from engine.tiles import ALL_TILES, KINDS, Meld, MeldKind, Tile
from tests.qujing.helpers import random_winning_request

tiles = st.sampled_from(ALL_TILES)
kinds = st.sampled_from(KINDS)
melds = st.builds(
    lambda t, k: Meld(k, (t,) * k.size),
    kinds,
    st.sampled_from([MeldKind.PUNG, MeldKind.KONG, MeldKind.CONCEALED_KONG]),
)
extras = st.fixed_dictionaries(
    {},
    optional={
        "own_discards": st.one_of(
            st.lists(kinds, max_size=14), st.text(max_size=12), st.integers()
        ),
        "kong_discard": st.one_of(st.booleans(), st.text(max_size=3)),
    },
)
options = st.builds(
    QujingOptions,
    tail_reading=st.sampled_from(["any-kong", "bloom-only"]),
    honours_are_a_colour=st.booleans(),
    seven_pairs_all_different=st.booleans(),
    kong_fans_allow_discard_win=st.booleans(),
    winds_include_green_dragon=st.booleans(),
    winds_payment=st.sampled_from(["self-drawn", "as-declared"]),
    plain_win_needs_two_colours=st.booleans(),
)


@st.composite
def requests(draw: st.DrawFn) -> WinRequest:
    declared = draw(st.lists(melds, max_size=4))
    size = draw(st.sampled_from([13 - 3 * len(declared), draw(st.integers(0, 15))]))
    concealed = draw(st.lists(kinds, min_size=max(size, 0), max_size=max(size, 0)))
    half = len(concealed) // 2
    if draw(st.booleans()):  # pairs make winning shapes far more likely
        concealed[half : 2 * half] = concealed[:half]
    return WinRequest(
        hand=Hand(tuple(concealed), tuple(declared)),
        win_tile=draw(tiles),
        self_drawn=draw(st.booleans()),
        kong_replacement=draw(st.booleans()),
        robbing_kong=draw(st.booleans()),
        extras=draw(extras),
    )


@st.composite
def winning_requests(draw: st.DrawFn) -> WinRequest:
    """Four sets and a pair (some sets declared as pungs or kongs), or seven pairs."""
    if draw(st.booleans()):
        tiles = [t for t in draw(st.lists(kinds, min_size=7, max_size=7)) for _ in range(2)]
        declared: list[Meld] = []
    else:
        tiles, declared = [], []
        for _ in range(4):
            first = draw(kinds)
            run = [first.shifted(0), first.shifted(1), first.shifted(2)]
            if draw(st.booleans()) and all(run):
                tiles += [t for t in run if t is not None]
            elif draw(st.booleans()):
                declared.append(
                    Meld(
                        draw(st.sampled_from([MeldKind.KONG, MeldKind.CONCEALED_KONG])),
                        (first,) * 4,
                    )
                    if draw(st.booleans())
                    else Meld(MeldKind.PUNG, (first,) * 3)
                )
            else:
                tiles += [first] * 3
        tiles += [draw(kinds)] * 2
    win = tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    return WinRequest(
        hand=Hand(tuple(tiles), tuple(declared)),
        win_tile=win,
        self_drawn=draw(st.booleans()),
        kong_replacement=draw(st.booleans()),
        robbing_kong=draw(st.booleans()),
        extras=draw(extras),
    )


@settings(max_examples=200, deadline=None)
@given(st.one_of(requests(), winning_requests()), options, st.integers(0, 3), st.integers(0, 3))
def test_scoring_never_crashes(
    request: WinRequest, opts: QujingOptions, winner: int, discarder: int
) -> None:
    rules = QujingRuleSet(opts)
    result = rules.score(request)
    assert result.valid or result.error
    if not result.valid:
        return
    assert result.payments is not None
    assert result.total == sum(f.points * f.count for f in result.fans)
    known = set(HAND_TYPES_BY_ID)
    assert {f.id for f in result.fans} <= known
    paid_by_discarder = result.payments.discarder is not None
    if paid_by_discarder and winner == discarder:
        return
    changes = rules.settle(result, winner=winner, discarder=discarder)
    assert sum(changes) == 0
    assert changes[winner] > 0


@settings(max_examples=150, deadline=None)
@given(st.lists(kinds, min_size=14, max_size=14), st.booleans())
def test_regular_and_seven_pair_shapes_are_found_whenever_they_exist(
    hand: list[Tile], self_drawn: bool
) -> None:
    rules = QujingRuleSet()
    result = rules.score(
        WinRequest(hand=Hand(tuple(hand[:13])), win_tile=hand[13], self_drawn=self_drawn)
    )
    counts = sorted(hand)
    pairs_only = all(counts.count(t) % 2 == 0 for t in set(counts))
    if pairs_only and max(counts.count(t) for t in set(counts)) <= 4:
        assert result.valid
        assert {f.id for f in result.fans} & {"small-seven-pairs", "dragon-seven-pairs"}


def test_random_winning_hands_are_wins_and_only_plain_discard_wins_are_refused() -> None:
    rng = random.Random(5)
    rules = QujingRuleSet()
    refused = 0
    for _ in range(300):
        request = random_winning_request(rng)
        result = rules.score(request)
        if result.valid:
            assert result.payments is not None
            fans = {f.id for f in result.fans}
            assert ("kong-bloom" in fans) == request.kong_replacement
            continue
        refused += 1
        assert not request.self_drawn, result.error
        assert result.error == "a plain win (no fan) may only be self-drawn"
    assert 0 < refused < 300
