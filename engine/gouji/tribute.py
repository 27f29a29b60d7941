"""Tribute between games (digest §11, §12): 点贡, 明点 / 预点 and 翻车, 落贡, 三家连.

:func:`tribute_due` says who owes whom how many cards after a game, in the order they are paid
(点贡 first, 落贡 last; the seed's 清贡 and 烧贡 have no amounts and are not modelled).
:func:`pay_tribute` moves the cards: legal tribute cards are jokers and 2s, highest first; a
player with none pays nothing (Art. 21(1)-(2)). :func:`return_tribute` gives back as many cards
for the last-place tribute (还贡); point tribute is never returned (只贡不还).

>>> from engine.gouji.scoring import settle_finish_order
>>> result = settle_finish_order([0, 1, 2, 3, 4, 5])
>>> [(d.giver, d.receiver, d.count) for d in tribute_due(result, GoujiOptions(tribute=True))]
[(5, 0, 2), (4, 1, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.gouji.cards import Card, sort_cards
from engine.gouji.options import GoujiOptions
from engine.gouji.responses import opposite
from engine.gouji.scoring import GameResult

TributeKind = Literal["点贡", "明点", "预点", "翻车", "三家连", "落贡"]
Declaration = Literal["明点", "预点"]
Hands = tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class PointDeclaration:
    """``declarer`` said his 对头 would not open: 明点 after the deal, 预点 before it."""

    declarer: int
    kind: Declaration


@dataclass(frozen=True, slots=True)
class TributeDue:
    giver: int
    receiver: int
    count: int
    kind: TributeKind

    @property
    def returned(self) -> bool:
        """Only the last-place tribute is answered with 还贡."""
        return self.kind == "落贡"


@dataclass(frozen=True, slots=True)
class CardGiven:
    giver: int
    receiver: int
    card: Card
    kind: TributeKind | Literal["还贡"]


def tribute_due(
    result: GameResult,
    options: GoujiOptions,
    *,
    point_failures: Sequence[int] = (),
    declarations: Sequence[PointDeclaration] = (),
    swap_last_two: bool = False,
) -> list[TributeDue]:
    """What is owed after ``result``. ``swap_last_two``: 大落 and 二落 of one alliance chose,
    before the opening, that the 二落 counts as 大落 for tribute (Art. 21(6))."""
    if result.sweep:
        if options.sweep_reopens_without_tribute or not options.tribute:
            return []
        return [TributeDue(seat, opposite(seat), 1, "三家连") for seat in result.finish_order[3:]]
    dues: list[TributeDue] = []
    if options.kaidian:
        dues += _point_tribute(point_failures, declarations, options)
    if options.tribute:
        order = result.finish_order
        last, second_last = order[5], order[4]
        if swap_last_two and last % 2 == second_last % 2:
            last, second_last = second_last, last
        for giver, receiver, count in (
            (last, order[0], options.last_place_tribute),
            (second_last, order[1], options.second_last_tribute),
        ):
            if count:
                dues.append(TributeDue(giver, receiver, count, "落贡"))
    return dues


def _point_tribute(
    failures: Sequence[int], declarations: Sequence[PointDeclaration], options: GoujiOptions
) -> list[TributeDue]:
    failed = set(failures)
    declared = {d.declarer: d.kind for d in declarations}
    dues: list[TributeDue] = []
    for seat in sorted(failed):
        if opposite(seat) in failed or opposite(seat) in declared:
            continue  # a mutual failure cancels (§11 [I]); a declaration replaces it
        dues.append(TributeDue(seat, opposite(seat), 1, "点贡"))
    for declarer, kind in sorted(declared.items()):
        target = opposite(declarer)
        if target in failed:
            dues.append(TributeDue(target, declarer, 2 if kind == "明点" else 4, kind))
        else:
            count = (2 if kind == "明点" else 4) * (2 if options.overturn_doubled else 1)
            dues.append(TributeDue(declarer, target, count, "翻车"))
    return dues


def tribute_cards(hand: Sequence[Card], count: int) -> tuple[Card, ...]:
    """The giver's highest legal tribute cards (jokers, then 2s), at most ``count``."""
    legal = [card for card in hand if card.rank.is_wild]
    return tuple(reversed(sort_cards(legal)))[:count]


def pay_tribute(
    hands: Sequence[Sequence[Card]], dues: Sequence[TributeDue]
) -> tuple[Hands, list[CardGiven]]:
    """Hands after every tribute is paid, in order, and the cards that moved."""
    work = [list(hand) for hand in hands]
    given: list[CardGiven] = []
    for due in dues:
        for card in tribute_cards(work[due.giver], due.count):
            work[due.giver].remove(card)
            work[due.receiver].append(card)
            given.append(CardGiven(due.giver, due.receiver, card, due.kind))
    return tuple(tuple(hand) for hand in work), given


def return_tribute(
    hands: Sequence[Sequence[Card]], given: Sequence[CardGiven], options: GoujiOptions
) -> tuple[Hands, list[CardGiven]]:
    """还贡 [I]: each receiver of last-place tribute gives the giver as many of his lowest cards
    (a player's choice at the table; the lowest is what the simulator chooses)."""
    work = [list(hand) for hand in hands]
    returned: list[CardGiven] = []
    if not options.return_tribute:
        return tuple(tuple(hand) for hand in work), returned
    for item in given:
        if item.kind != "落贡":
            continue
        card = sort_cards(work[item.receiver])[0]
        work[item.receiver].remove(card)
        work[item.giver].append(card)
        returned.append(CardGiven(item.receiver, item.giver, card, "还贡"))
    return tuple(tuple(hand) for hand in work), returned
