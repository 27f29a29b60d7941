"""Hypothesis properties of beating, judging, dealing and the simulator (small budgets)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.gouji.cards import NATURAL_RANKS, Card, Rank, Suit, deck_problems, full_deck
from engine.gouji.judge import judge_cards
from engine.gouji.opening import deal, shuffled_deck
from engine.gouji.options import find_variant
from engine.gouji.plays import PlayShape, beats, shape_of
from engine.gouji.scoring import PLACE_SCORES
from engine.gouji.simulate import simulate_game

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=8, deadline=None)
suits = st.sampled_from([None, *Suit])


@st.composite
def plays(draw: st.DrawFn, size: int | None = None) -> tuple[Card, ...]:
    """A well-formed play: a core (natural, 2s or jokers) with wild cards attached."""
    total = size if size is not None else draw(st.integers(1, 6))
    core = draw(st.sampled_from([*NATURAL_RANKS, Rank.TWO, Rank.SMALL_JOKER, Rank.BIG_JOKER]))
    core_count = draw(st.integers(1, total))
    wild_pool = {
        Rank.TWO: [Rank.SMALL_JOKER, Rank.BIG_JOKER],
        Rank.SMALL_JOKER: [Rank.BIG_JOKER],
        Rank.BIG_JOKER: [Rank.BIG_JOKER],
    }.get(core, [Rank.TWO, Rank.SMALL_JOKER, Rank.BIG_JOKER])
    attached = draw(
        st.lists(
            st.sampled_from(wild_pool), min_size=total - core_count, max_size=total - core_count
        )
    )
    ranks = [core] * core_count + attached
    return tuple(Card(r, None if r.is_joker else draw(suits)) for r in ranks)


def _shape(cards: tuple[Card, ...]) -> PlayShape:
    shape = shape_of(cards)
    assert isinstance(shape, PlayShape)
    return shape


@FAST
@given(plays())
def test_a_play_never_beats_itself(play: tuple[Card, ...]) -> None:
    assert not beats(_shape(play), _shape(play))


@FAST
@given(st.integers(1, 4).flatmap(lambda n: st.tuples(plays(n), plays(n), plays(n))))
def test_beating_is_a_strict_order(triple: tuple[tuple[Card, ...], ...]) -> None:
    a, b, c = (_shape(p) for p in triple)
    assert not (beats(a, b) and beats(b, a))
    if beats(a, b) and beats(b, c):
        assert beats(a, c)


@FAST
@given(plays(), st.data())
def test_a_legal_lead_stays_legal_with_other_suits(
    play: tuple[Card, ...], data: st.DataObject
) -> None:
    resuited = tuple(
        card if card.rank.is_joker else Card(card.rank, data.draw(suits)) for card in play
    )
    for variant in ("qingdao", "bie-san"):
        options = find_variant(variant)
        first, second = judge_cards((), play, options), judge_cards((), resuited, options)
        assert (first.legal, first.gouji) == (second.legal, second.gouji)
    assert judge_cards((), play).legal


@FAST
@given(st.integers(0, 2**32), st.integers(0, 5))
def test_the_deck_always_holds_216_cards(seed: int, taker: int) -> None:
    hands = deal(shuffled_deck(random.Random(seed)), taker)
    assert len(full_deck()) == 216 and sum(map(len, hands)) == 216
    assert deck_problems(hands) == []


@SLOW
@given(st.integers(0, 2**32), st.sampled_from(["qingdao", "bie-san", "tribute", "tcy"]))
def test_simulated_games_end_in_a_full_finishing_order(seed: int, variant: str) -> None:
    game = simulate_game(seed, find_variant(variant))
    result = game.result
    assert sorted(result.finish_order) == list(range(6))
    assert sorted(result.scores) == sorted(PLACE_SCORES) and sum(result.scores) == 0
    assert result.alliances[0] == -result.alliances[1]
    assert deck_problems(game.dealt) == []
    assert deck_problems(game.hands, game.set_aside) == []
