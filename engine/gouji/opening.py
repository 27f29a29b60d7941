"""Before the first lead: dealing, the opening draw, 上班 by 3s, 会三, 买三 and revolution.

Randomness comes in as a seeded :class:`random.Random`, so the same seed gives the same game.
Cards are taken one at a time, counter-clockwise, from the first taker (§3 [I]); a dealt 36-card
hand is the same thing to the engine (§17.12).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.gouji.cards import HAND_SIZE, SEATS, Card, Rank, full_deck
from engine.gouji.options import GoujiOptions
from engine.gouji.responses import alliance, opposite, playing_order_after

Hands = tuple[tuple[Card, ...], ...]


def shuffled_deck(rng: random.Random) -> list[Card]:
    deck = list(full_deck())
    rng.shuffle(deck)
    return deck


def deal(deck: Sequence[Card], first_taker: int) -> Hands:
    """Six hands of 36: the first taker takes the first card, then seat + 1, one at a time."""
    if len(deck) != SEATS * HAND_SIZE:
        raise ValueError(f"a Gouji deal needs {SEATS * HAND_SIZE} cards, got {len(deck)}")
    hands: list[list[Card]] = [[] for _ in range(SEATS)]
    for index, card in enumerate(deck):
        hands[(first_taker + index) % SEATS].append(card)
    return tuple(tuple(hand) for hand in hands)


def opening_taker(drawn: Card, drawer: int, options: GoujiOptions) -> int | None:
    """首次开牌 (§3): count the drawn card's value from the drawer (1) onwards; the seat reached
    takes the first card. A joker voids the draw (None): the drawer's 下家 draws next.

    >>> opening_taker(Card(Rank.EIGHT), 0, GoujiOptions())
    1
    """
    if drawn.rank.is_joker:
        return None
    value = drawn.rank.face_value
    if not options.court_cards_count_face_value and drawn.rank in (
        Rank.JACK,
        Rank.QUEEN,
        Rank.KING,
    ):
        value = 10
    return (drawer + value - 1) % SEATS


def first_opening(rng: random.Random, drawer: int, options: GoujiOptions) -> int:
    """Draw until a non-joker decides the first taker; each joker moves the draw on a seat."""
    deck = full_deck()
    while True:
        taker = opening_taker(rng.choice(deck), drawer, options)
        if taker is not None:
            return taker
        drawer = (drawer + 1) % SEATS


@dataclass(frozen=True, slots=True)
class ThreesShown:
    """亮3 / 顶 (§4): ``seat`` showed ``count`` 3s of one suit and took the lead."""

    seat: int
    count: int


def leader_by_threes(hands: Sequence[Sequence[Card]], first_taker: int) -> list[ThreesShown]:
    """Who took the lead by showing 3s, in order: two same-suit 3s take it (亮3), a larger
    group of three or more takes it over (顶). Players show in turn from the first taker [I];
    the last entry leads. Empty when nobody holds two 3s of one suit (the first taker leads)."""
    shown: list[ThreesShown] = []
    for seat in playing_order_after(first_taker - 1, range(SEATS)):
        suits = [card.suit for card in hands[seat] if card.rank is Rank.THREE and card.suit]
        best = max((suits.count(suit) for suit in set(suits)), default=0)
        takes_over = bool(shown) and best >= 3 and best > shown[-1].count
        if (best >= 2 and not shown) or takes_over:
            shown.append(ThreesShown(seat, best))
    return shown


def meet_cards(
    hands: Sequence[Sequence[Card]], ranks: Sequence[Rank], leader: int, options: GoujiOptions
) -> tuple[Hands, tuple[Card, ...]]:
    """会三 / 会四 (§14): every 3 (4) is picked out of every hand before play; the cards go out
    of play or, with ``met_cards="to-leader"``, to the 上班 player. Returns hands and set-aside."""
    picked = tuple(card for hand in hands for card in hand if card.rank in ranks)
    kept = [[card for card in hand if card.rank not in ranks] for hand in hands]
    if options.met_cards == "to-leader":
        kept[leader].extend(picked)
        picked = ()
    return tuple(tuple(hand) for hand in kept), picked


@dataclass(frozen=True, slots=True)
class Purchase:
    """买三 / 买四 (§14): ``buyer`` got one card of ``rank`` from ``seller`` for ``paid``."""

    buyer: int
    seller: int
    rank: Rank
    paid: Card | None


def _payment(hand: list[Card]) -> Card | None:
    for rank in (Rank.TWO, Rank.SMALL_JOKER, Rank.BIG_JOKER):
        for card in hand:
            if card.rank is rank:
                return card
    return None


def buy_rank(
    hands: Sequence[Sequence[Card]], rank: Rank, start: int
) -> tuple[Hands, list[Purchase]]:
    """Every player without a card of ``rank`` buys one: from his 对头 if he holds two or more,
    else from the other opponents, else (free) from an ally [WD]; he pays a 2, else a joker, and
    gets it free with neither [96U]. Buyers go in turn from ``start``."""
    work = [list(hand) for hand in hands]
    purchases: list[Purchase] = []
    for buyer in playing_order_after(start - 1, range(SEATS)):
        if any(card.rank is rank for card in work[buyer]):
            continue
        opponents = [
            s for s in playing_order_after(buyer, range(SEATS)) if alliance(s) != alliance(buyer)
        ]
        allies = [
            s
            for s in playing_order_after(buyer, range(SEATS))
            if alliance(s) == alliance(buyer) and s != buyer
        ]
        sellers = [opposite(buyer)] + [s for s in opponents if s != opposite(buyer)] + allies
        seller = next((s for s in sellers if sum(c.rank is rank for c in work[s]) >= 2), None)
        if seller is None:
            continue
        card = next(c for c in work[seller] if c.rank is rank)
        work[seller].remove(card)
        work[buyer].append(card)
        paid = _payment(work[buyer]) if alliance(seller) != alliance(buyer) else None
        if paid is not None:
            work[buyer].remove(paid)
            work[seller].append(paid)
        purchases.append(Purchase(buyer, seller, rank, paid))
    return tuple(tuple(hand) for hand in work), purchases


def may_revolt(hand: Sequence[Card]) -> bool:
    """革命 condition (§13, not in the seed): a hand with no 2s and no jokers."""
    return bool(hand) and not any(card.rank.is_wild for card in hand)


def revolution_outcome(declarers: Sequence[int]) -> int | str | None:
    """The revolutionary seat, None for no revolution, or ``"redeal"`` when two or more
    declared at once (the game is re-opened, Art. 6)."""
    unique = sorted(set(declarers))
    if len(unique) >= 2:
        return "redeal"
    return unique[0] if unique else None
