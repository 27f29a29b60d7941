"""The one Gouji card notation, parsed and printed here and nowhere else.

A card is a rank ``3 4 5 6 7 8 9 T J Q K A 2`` (``10`` is read as ``T``) with an optional suit
letter ``s h d c`` (upper case accepted), or a joker: ``BJ`` small (black) and ``RJ`` big (red).
Several cards are written with spaces or commas between them, or as a list of strings.

>>> [str(c) for c in parse_cards("2 7h 7 10 BJ")]
['2', '7h', '7', 'T', 'BJ']
>>> format_cards(parse_cards(["RJ", "Qs", "Q"]))
'RJ Qs Q'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from engine.gouji.cards import Card, Rank, Suit

RANK_SYMBOLS: dict[Rank, str] = {
    Rank.THREE: "3",
    Rank.FOUR: "4",
    Rank.FIVE: "5",
    Rank.SIX: "6",
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "T",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
    Rank.TWO: "2",
    Rank.SMALL_JOKER: "BJ",
    Rank.BIG_JOKER: "RJ",
}
_RANK_OF = {symbol: rank for rank, symbol in RANK_SYMBOLS.items()} | {"10": Rank.TEN}
_CARD = re.compile(r"^(10|[2-9TJQKA]|BJ|RJ)([shdc])?$", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,]+")


class CardNotationError(ValueError):
    """Text that is not Gouji card notation; the message quotes the offending text."""


def parse_card(text: str) -> Card:
    """One card: ``7``, ``7h``, ``T``, ``10s``, ``BJ``, ``RJ``."""
    if not isinstance(text, str):
        raise CardNotationError(f"a card is written as text such as '7h' or 'BJ', got {text!r}")
    match = _CARD.match(text.strip())
    if match is None:
        raise CardNotationError(f"not a card: {text!r} (ranks 3-9 T J Q K A 2, jokers BJ RJ)")
    rank = _RANK_OF[match.group(1).upper()]
    letter = match.group(2)
    if letter is None:
        return Card(rank)
    if rank.is_joker:
        raise CardNotationError(f"a joker has no suit: {text!r}")
    return Card(rank, Suit(letter.lower()))


def parse_cards(cards: str | Sequence[object]) -> tuple[Card, ...]:
    """Cards from ``"2 7 7 7 7"`` or ``["2", "7", "7", "7", "7"]``; the order is kept."""
    if isinstance(cards, str):
        return tuple(parse_card(token) for token in _SEPARATORS.split(cards.strip()) if token)
    if not isinstance(cards, Sequence):
        raise CardNotationError(f"expected a list of cards, got {cards!r}")
    out: list[Card] = []
    for item in cards:
        if not isinstance(item, str):
            raise CardNotationError(f"a card is written as text such as '7h', got {item!r}")
        out.append(parse_card(item))
    return tuple(out)


def format_card(card: Card) -> str:
    suit = card.suit.value if card.suit is not None else ""
    return RANK_SYMBOLS[card.rank] + suit


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(format_card(card) for card in cards)


def card_list(cards: Iterable[Card]) -> list[str]:
    """The JSON form: one string per card."""
    return [format_card(card) for card in cards]
