"""开点, tribute, 买三 and 会三 (digest §11, §12, §14) with their worked examples."""

from __future__ import annotations

from engine.gouji.cards import Rank
from engine.gouji.opening import buy_rank, meet_cards
from engine.gouji.options import GoujiOptions
from engine.gouji.scoring import settle_finish_order
from engine.gouji.tribute import (
    PointDeclaration,
    TributeDue,
    pay_tribute,
    return_tribute,
    tribute_cards,
    tribute_due,
)
from tests.gouji.helpers import cards

ORDER = settle_finish_order([0, 1, 2, 3, 4, 5])
KAIDIAN = GoujiOptions(kaidian=True)


def test_last_places_pay_section_12() -> None:
    """§12(3): 大落 gives the 头科 two cards, 二落 the 二科 one; none without the option."""
    dues = tribute_due(ORDER, GoujiOptions(tribute=True))
    assert dues == [TributeDue(5, 0, 2, "落贡"), TributeDue(4, 1, 1, "落贡")]
    assert tribute_due(ORDER, GoujiOptions()) == []


def test_same_alliance_may_swap_last_two_section_12_6() -> None:
    result = settle_finish_order([0, 1, 2, 4, 5, 3])
    dues = tribute_due(result, GoujiOptions(tribute=True), swap_last_two=True)
    assert [(d.giver, d.receiver) for d in dues] == [(5, 0), (3, 1)]


def test_highest_legal_cards_and_none_without_them_section_12() -> None:
    """§12(1)-(2): tribute cards are jokers and 2s, the highest first; none held, none paid."""
    assert [str(c) for c in tribute_cards(cards("2 A RJ BJ 2"), 2)] == ["RJ", "BJ"]
    hands = [cards("K"), cards("Q"), cards("J"), cards("T"), cards("9 2 2"), cards("A K")]
    paid_hands, given = pay_tribute(hands, tribute_due(ORDER, GoujiOptions(tribute=True)))
    assert [(g.giver, g.receiver, str(g.card)) for g in given] == [(4, 1, "2")]
    back_hands, back = return_tribute(paid_hands, given, GoujiOptions(tribute=True))
    assert [(b.giver, b.receiver, b.kind) for b in back] == [(1, 4, "还贡")]
    assert sorted(map(len, back_hands)) == sorted(map(len, hands))


def test_point_tribute_section_11() -> None:
    """§11: a 不开点 player gives his 对头 one card, never returned; a mutual failure cancels."""
    dues = tribute_due(ORDER, KAIDIAN, point_failures=[1, 2, 5])
    assert dues == [TributeDue(1, 4, 1, "点贡")]
    assert not dues[0].returned


def test_declarations_and_overturned_car_section_11() -> None:
    """§11: correct 明点 eats 2, 预点 4; wrong (翻车): pay 2 / 4, doubled 4 / 8 by agreement."""
    declared = [PointDeclaration(0, "明点"), PointDeclaration(1, "预点")]
    dues = tribute_due(ORDER, KAIDIAN, point_failures=[3], declarations=declared)
    assert dues == [TributeDue(3, 0, 2, "明点"), TributeDue(1, 4, 4, "翻车")]
    doubled = GoujiOptions(kaidian=True, overturn_doubled=True)
    dues = tribute_due(ORDER, doubled, point_failures=[], declarations=declared)
    assert [d.count for d in dues] == [4, 8]


def test_sweep_section_12_7() -> None:
    """§12(7): after a 三家连 the losers each give their 对头 one card; usually none (re-open)."""
    sweep = settle_finish_order([0, 2, 4, 1, 3, 5])
    assert tribute_due(sweep, GoujiOptions(tribute=True)) == []
    options = GoujiOptions(tribute=True, sweep_reopens_without_tribute=False)
    assert [(d.giver, d.receiver) for d in tribute_due(sweep, options)] == [(1, 4), (3, 0), (5, 2)]


def test_buying_threes_section_14() -> None:
    """§14(2): no 3: buy one from the 对头 for a 2 (a joker without 2s); if he has one 3 or
    none, from the other opponents; with no 2 and no joker the 3 comes free."""
    hands = [
        cards("7 2"),
        cards("3 3 5"),
        cards("3 8"),
        cards("3 3 9"),
        cards("3 3 BJ"),
        cards("6"),
    ]
    after, bought = buy_rank(hands, Rank.THREE, start=0)
    assert [(p.buyer, p.seller, str(p.paid)) for p in bought] == [(0, 3, "2"), (5, 4, "None")]
    assert all(any(c.rank is Rank.THREE for c in hand) for hand in after)
    assert sum(map(len, after)) == sum(map(len, hands))
    hands = [cards("7 BJ"), cards("3 3"), cards("3"), cards("3"), cards("3"), cards("3")]
    _, bought = buy_rank(hands, Rank.THREE, start=0)
    assert [(p.buyer, p.seller, str(p.paid)) for p in bought] == [(0, 1, "BJ")]


def test_meeting_threes_section_14() -> None:
    """§14 / Art. 25 会三 / 会四: all 3s (4s) are picked out before play."""
    hands = [cards("3 3 4 5"), cards("3 6"), cards("7"), cards("4"), cards("8"), cards("9")]
    kept, aside = meet_cards(hands, [Rank.THREE], leader=0, options=GoujiOptions())
    assert len(aside) == 3 and all(c.rank is not Rank.THREE for h in kept for c in h)
    kept, aside = meet_cards(hands, [Rank.THREE, Rank.FOUR], 2, GoujiOptions(met_cards="to-leader"))
    assert aside == () and len(kept[2]) == 6
