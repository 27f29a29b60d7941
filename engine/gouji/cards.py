"""Gouji cards: thirteen ranks and two jokers, four 54-card packs (digest §2).

Suits decide nothing but 上班 by showing 3s (§4), so a card may carry no suit at all (a camera
that saw only the index, a referee typing ``7``). Ranks are ordered: 3 lowest, then 4 … K, A,
2 (钱), the small joker and the big joker highest. 2s and both jokers are the wild cards (§5).
Text is parsed and printed only in :mod:`engine.gouji.notation`.

>>> len(full_deck())
216
>>> Rank.TWO > Rank.ACE and Rank.BIG_JOKER > Rank.SMALL_JOKER > Rank.TWO
True
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

SEATS = 6
HAND_SIZE = 36
PACKS = 4
CARDS_PER_PACK = 54


class Rank(enum.IntEnum):
    """Card ranks in beating order; the value is only an order, not a count."""

    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    TWO = 15
    SMALL_JOKER = 16
    BIG_JOKER = 17

    @property
    def is_joker(self) -> bool:
        return self >= Rank.SMALL_JOKER

    @property
    def is_wild(self) -> bool:
        """2s (钱) and jokers may accompany any cards and stand for their rank (§5.2)."""
        return self >= Rank.TWO

    @property
    def is_natural(self) -> bool:
        return self < Rank.TWO

    @property
    def face_value(self) -> int:
        """Natural value for the opening draw (§3): A = 1, 2 = 2, J/Q/K = 11/12/13; jokers 0."""
        if self.is_joker:
            return 0
        if self is Rank.ACE:
            return 1
        if self is Rank.TWO:
            return 2
        return int(self)


NATURAL_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r.is_natural)
SUITED_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if not r.is_joker)


class Suit(enum.Enum):
    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"


@dataclass(frozen=True, slots=True)
class Card:
    """One card; ``suit`` is None when unknown or for a joker."""

    rank: Rank
    suit: Suit | None = None

    def __post_init__(self) -> None:
        if self.rank.is_joker and self.suit is not None:
            from engine.gouji.notation import CardNotationError  # noqa: PLC0415 (cycle)

            raise CardNotationError(f"a joker has no suit: {self.rank.name} {self.suit.name}")

    @classmethod
    def parse(cls, text: str) -> Card:
        from engine.gouji.notation import parse_card  # noqa: PLC0415 (notation imports cards)

        return parse_card(text)

    def without_suit(self) -> Card:
        return Card(self.rank)

    def __str__(self) -> str:
        from engine.gouji.notation import format_card  # noqa: PLC0415 (notation imports cards)

        return format_card(self)


def one_pack() -> tuple[Card, ...]:
    """A standard 54-card pack: 13 ranks in four suits and the two jokers."""
    suited = tuple(Card(rank, suit) for suit in Suit for rank in SUITED_RANKS)
    return (*suited, Card(Rank.SMALL_JOKER), Card(Rank.BIG_JOKER))


def full_deck() -> tuple[Card, ...]:
    """The four packs Gouji is played with: 216 cards, 36 for each of the six players."""
    return one_pack() * PACKS


def rank_counts(cards: Iterable[Card]) -> Counter[Rank]:
    return Counter(card.rank for card in cards)


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Low to high by rank; suits only break ties so that the order is deterministic."""
    suit_order = {None: 0} | {suit: i + 1 for i, suit in enumerate(Suit)}
    return tuple(sorted(cards, key=lambda c: (c.rank, suit_order[c.suit])))


def deck_problems(hands: Iterable[Iterable[Card]], out_of_play: Iterable[Card] = ()) -> list[str]:
    """Where the cards of some hands (and cards set aside) differ from the four packs.

    Unsuited cards are checked by rank only. An empty list means every card is accounted for.
    """
    seen = [card for hand in hands for card in hand] + list(out_of_play)
    problems: list[str] = []
    if len(seen) != PACKS * CARDS_PER_PACK:
        problems.append(f"{len(seen)} cards, expected {PACKS * CARDS_PER_PACK}")
    expected = rank_counts(full_deck())
    for rank, count in sorted(rank_counts(seen).items()):
        if count > expected[rank]:
            problems.append(f"{count} cards of rank {rank.name}, at most {expected[rank]}")
    suited = Counter(card for card in seen if card.suit is not None)
    for card, count in sorted(suited.items(), key=lambda kv: kv[0].rank):
        if count > PACKS:
            problems.append(f"{count} copies of {card}, at most {PACKS}")
    return problems
