"""Cards, notation and the four packs (digest §2)."""

from __future__ import annotations

import random

import pytest

from engine.gouji.cards import HAND_SIZE, Card, Rank, Suit, deck_problems, full_deck, rank_counts
from engine.gouji.notation import CardNotationError, format_cards, parse_card, parse_cards
from engine.gouji.opening import deal, shuffled_deck


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("7", Card(Rank.SEVEN)),
        ("7h", Card(Rank.SEVEN, Suit.HEARTS)),
        ("10S", Card(Rank.TEN, Suit.SPADES)),
        ("T", Card(Rank.TEN)),
        ("a", Card(Rank.ACE)),
        ("2c", Card(Rank.TWO, Suit.CLUBS)),
        ("BJ", Card(Rank.SMALL_JOKER)),
        ("rj", Card(Rank.BIG_JOKER)),
    ],
)
def test_parse_card(text: str, card: Card) -> None:
    assert parse_card(text) == card
    assert Card.parse(str(card)) == card


@pytest.mark.parametrize("text", ["1", "11", "X", "BJs", "7x", "", "J7"])
def test_bad_card_is_quoted(text: str) -> None:
    with pytest.raises(CardNotationError, match=repr(text).replace("\\", "\\\\")):
        parse_card(text)


def test_lists_and_strings_read_the_same() -> None:
    assert parse_cards("2, 7 7h") == parse_cards(["2", "7", "7h"])
    assert format_cards(parse_cards(["RJ", "10d", "q"])) == "RJ Td Q"
    with pytest.raises(CardNotationError):
        parse_cards(["7", 7])


def test_rank_order_section_2() -> None:
    """§2: 大王 > 小王 > 2 > A > K > Q > J > 10 > … > 3."""
    order = [card.rank for card in parse_cards("3 4 5 6 7 8 9 T J Q K A 2 BJ RJ")]
    assert order == sorted(order)
    assert len(set(order)) == 15


def test_four_packs_section_2() -> None:
    """§2: 216 cards, 16 of each rank 3..2, 4 big and 4 small jokers; 36 each."""
    deck = full_deck()
    assert len(deck) == 216
    counts = rank_counts(deck)
    assert counts[Rank.BIG_JOKER] == counts[Rank.SMALL_JOKER] == 4
    assert all(counts[r] == 16 for r in Rank if not r.is_joker)
    hands = deal(shuffled_deck(random.Random(5)), first_taker=2)
    assert [len(h) for h in hands] == [HAND_SIZE] * 6
    assert deck_problems(hands) == []


def test_deck_problems_name_the_extra_card() -> None:
    hands = [[*full_deck()[1:], Card(Rank.BIG_JOKER)]]
    assert any("BIG_JOKER" in p for p in deck_problems(hands))
    assert deck_problems([full_deck()[:10]]) == ["10 cards, expected 216"]


def test_deal_takes_one_card_at_a_time_from_the_first_taker() -> None:
    deck = full_deck()
    hands = deal(deck, first_taker=4)
    assert hands[4][0] == deck[0] and hands[5][0] == deck[1] and hands[0][0] == deck[2]
    with pytest.raises(ValueError, match="216"):
        deal(deck[:100], 0)
