"""Each rule with an example in the digest (shared/rules/gouji.md) or seed 003, by section."""

from __future__ import annotations

import pytest

from engine.gouji.cards import Card, Rank
from engine.gouji.judge import judge_cards
from engine.gouji.opening import leader_by_threes, may_revolt, opening_taker, revolution_outcome
from engine.gouji.options import GoujiOptionError, GoujiOptions, UnknownVariantError, find_variant
from engine.gouji.plays import beat_problem, beats, is_gouji, shape_of
from engine.gouji.responses import alliance, opposite
from engine.gouji.scoring import (
    PLACE_NAMES,
    MatchScore,
    place_revolutionary,
    settle_finish_order,
)
from engine.gouji.violations import GoujiViolation, GoujiViolationKind
from tests.gouji.helpers import DEFAULT, cards, shape


def test_seats_section_1() -> None:
    """§1: alternate alliances 0/2/4 and 1/3/5; the 对头 sits three seats on, an opponent."""
    assert [opposite(s) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    assert all(alliance(s) != alliance(opposite(s)) for s in range(6))
    assert [alliance(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]


@pytest.mark.parametrize(
    ("drawn", "drawer", "taker"),
    [("8", 0, 1), ("A", 2, 2), ("K", 0, 0), ("2", 5, 0), ("J", 1, 5)],
)
def test_opening_draw_counts_from_the_drawer_section_3(drawn: str, drawer: int, taker: int) -> None:
    """§3: the drawer counts the card's value counter-clockwise, himself as 1 (A = 1, K = 13)."""
    assert opening_taker(Card.parse(drawn), drawer, DEFAULT) == taker


def test_a_joker_voids_the_opening_draw_section_3() -> None:
    assert opening_taker(Card.parse("RJ"), 3, DEFAULT) is None
    assert opening_taker(Card.parse("K"), 0, GoujiOptions(court_cards_count_face_value=False)) == 3


def test_two_same_suit_threes_take_the_lead_and_more_take_it_over_section_4() -> None:
    """§4 / Art. 7: 亮3 with two same-suit 3s; 顶 with three or more."""
    hands = [
        cards("4"),
        cards("3s 3s 3h"),
        cards("3h 3h 3h 3c"),
        cards("5"),
        cards("3d 3d 3d 3d"),
        cards("3c 3c 3c"),
    ]
    shown = leader_by_threes(hands, first_taker=0)
    assert [(s.seat, s.count) for s in shown] == [(1, 2), (2, 3), (4, 4)]
    assert leader_by_threes([cards("3s 3h 3d 3c")] * 6, 0) == []


def test_the_seed_example_five_sevens_section_5() -> None:
    """§6 [LC] "27777 = five 7s"; the issue's example: 8 8 8 8 8 beats it; 8s are never 够级."""
    result = judge_cards(cards("2 7 7 7 7"), cards("8 8 8 8 8"))
    assert (result.legal, result.beats, result.gouji, result.error) == (True, True, False, None)
    assert shape("2 7 7 7 7").size == 5


def test_one_rank_only_except_wilds_section_5_1() -> None:
    """§5.1-2: one rank per play; 2s and jokers may accompany any cards."""
    mixed = shape_of(cards("7 8"))
    assert isinstance(mixed, GoujiViolation) and mixed.kind is GoujiViolationKind.MIXED_RANKS
    assert shape("7 7 2 BJ RJ").core is Rank.SEVEN
    assert shape("2 2 BJ").core is Rank.TWO and shape("BJ RJ").core is Rank.SMALL_JOKER


@pytest.mark.parametrize(
    ("new", "current", "kind"),
    [
        ("8 8", "7 7", None),
        ("7 7", "7 7", GoujiViolationKind.NOT_HIGHER),
        ("6 6", "7 7", GoujiViolationKind.NOT_HIGHER),
        ("8 8 8", "7 7", GoujiViolationKind.WRONG_COUNT),
        ("2 2 8", "2 7 7", None),  # attached 2s only fill the count
        ("8 8 BJ", "7 7 RJ", GoujiViolationKind.JOKERS_NOT_COVERED),
        ("8 8 RJ", "7 7 RJ", None),
        ("8 RJ RJ", "7 7 RJ", None),
        ("8 8 BJ", "7 7 BJ", None),
        ("8 8 2", "7 7 BJ", GoujiViolationKind.JOKERS_NOT_COVERED),
        ("2", "A", None),
        ("BJ", "2", None),
        ("RJ", "BJ", None),
        ("RJ RJ RJ", "7 7 RJ", None),  # core jokers cover too [I]
        ("RJ RJ", "BJ RJ", None),
        ("BJ BJ", "BJ RJ", GoujiViolationKind.NOT_HIGHER),
    ],
)
def test_core_and_attachments_section_5(new: str, current: str, kind: object) -> None:
    """§5: same count, strictly higher core, jokers of the current play covered highest first."""
    problem = beat_problem(shape(new), shape(current))
    assert (problem.kind if problem else None) is kind


@pytest.mark.parametrize(
    ("play", "gouji"),
    [
        ("T T T T T", True),
        ("T T T T", False),
        ("T T T T T T", True),  # §6: six tens
        ("J J J J", True),
        ("J J J", False),
        ("Q Q Q", True),
        ("2 2 Q Q Q", True),  # §6: 22+QQQ counts as five Qs
        ("Q Q", False),
        ("Q Q 2", True),
        ("K K", True),
        ("K K K", True),  # §6: three kings
        ("K", False),
        ("A A", True),
        ("A", False),
        ("9 9 9 9 9 9 9 9", False),  # §6: 3-9 never on count alone
        ("RJ", True),
        ("7 7 BJ", True),  # §6 [TCY][LC]: a joker attached is 够级
        ("2 2", True),
        ("2", False),  # seed Art. 9: 钱 needs two (the digest chose one)
        ("BJ", False),  # seed Art. 9: small joker needs two
        ("BJ BJ", True),
    ],
)
def test_gouji_thresholds_section_6(play: str, gouji: bool) -> None:
    assert is_gouji(shape(play), DEFAULT) is gouji


def test_the_digests_reading_of_single_wilds_is_a_variant_section_17_3() -> None:
    tcy = find_variant("tcy")
    assert is_gouji(shape("2"), tcy) and is_gouji(shape("BJ"), tcy)
    assert not is_gouji(shape("7 7 BJ"), GoujiOptions(joker_attached_is_gouji=False))


def test_finishing_names_and_scores_section_9_10() -> None:
    """§9-10 / Art. 20: 头科 +4, 二科 +2, 三科 0, 四科 0, 二落 −2, 大落 −4; alliances opposite."""
    assert PLACE_NAMES == ("头科", "二科", "三科", "四科", "二落", "大落")
    result = settle_finish_order([3, 0, 5, 2, 1, 4])
    assert result.scores == (2, -2, 0, 4, -4, 0)
    assert result.alliances == (-2, 2)
    assert not result.sweep and result.last == 4 and result.place_of(3) == 1


def test_three_in_a_row_section_10() -> None:
    """§10 三家连: one alliance 头科, 二科, 三科: +6 / −6."""
    result = settle_finish_order([1, 5, 3, 0, 2, 4])
    assert result.sweep and result.alliances == (-6, 6)


def test_match_to_twelve_only_winners_record_section_10() -> None:
    """§10 / Art. 20: after offsetting only the positive score is recorded; first to 12."""
    score = MatchScore()
    for order in ([0, 1, 2, 3, 4, 5], [1, 0, 3, 2, 5, 4], [0, 2, 4, 1, 3, 5], [0, 2, 4, 1, 3, 5]):
        score = score.record(settle_finish_order(order))
    assert score.points == (14, 2) and score.winner == 0 and score.games == 4
    with pytest.raises(ValueError, match="over"):
        score.record(settle_finish_order([0, 1, 2, 3, 4, 5]))


def test_revolution_section_13() -> None:
    """§13: no 2s and no jokers qualifies; two declarers re-deal; counted 四科, or 三科 (三家连)
    when his allies are 头科 and 二科."""
    assert (
        may_revolt(cards("3 4 5 A K"))
        and not may_revolt(cards("3 4 2"))
        and not may_revolt(cards("A BJ"))
    )
    assert revolution_outcome([2, 4]) == "redeal"
    assert revolution_outcome([4]) == 4 and revolution_outcome([]) is None
    assert place_revolutionary([1, 0, 3, 5, 2], 4, 4) == [1, 0, 3, 4, 5, 2]
    order = place_revolutionary([0, 2, 1, 3, 5], 4, 4)
    assert order == [0, 2, 4, 1, 3, 5] and settle_finish_order(order).sweep


def test_threes_under_bie_san_section_14() -> None:
    """§14 / Art. 26(3): 3s are not split, take no 2s or jokers, and go out last."""
    bie_san = find_variant("bie-san")
    hand = cards("3 3 7")
    split = judge_cards((), cards("3"), bie_san, hand)
    assert not split.legal and split.violation
    assert split.violation.kind is GoujiViolationKind.THREES_RULE
    assert not judge_cards((), cards("3 3"), bie_san, hand).legal  # 7 still held
    assert judge_cards((), cards("3 3"), bie_san, cards("3 3")).legal
    assert not judge_cards((), cards("3 3 2"), bie_san).legal
    assert judge_cards((), cards("3 2"), DEFAULT).legal  # only under 憋三
    fours = GoujiOptions(bie_san=True, buy_fours=True)
    assert not judge_cards((), cards("4 4 2"), fours).legal
    assert judge_cards((), cards("4 4 2"), bie_san).legal


def test_a_card_not_in_hand_is_illegal() -> None:
    result = judge_cards((), cards("K K"), DEFAULT, cards("K Q"))
    assert not result.legal and result.violation
    assert result.violation.kind is GoujiViolationKind.CARDS_NOT_IN_HAND


def test_beats_is_false_for_a_lead() -> None:
    result = judge_cards((), cards("K K"))
    assert result.legal and not result.beats and result.gouji
    assert beats(shape("K K"), shape("Q Q"))


def test_options_are_checked_and_variants_found() -> None:
    with pytest.raises(GoujiOptionError, match="bie_san"):
        GoujiOptions(bie_san="yes")  # type: ignore[arg-type]
    with pytest.raises(GoujiOptionError, match="unknown Gouji option 'colour'"):
        find_variant("qingdao", colour=1)
    with pytest.raises(UnknownVariantError, match="bie-san"):
        find_variant("mahjong")
    assert find_variant("bie-san", **{"burn-priority": "playing-order"}).kaidian
    assert find_variant("gouji") == GoujiOptions()
