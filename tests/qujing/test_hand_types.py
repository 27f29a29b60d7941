"""Golden hands for every Qujing hand type, the payment rules and the option readings."""

from __future__ import annotations

import pytest

from engine.qujing import QujingOptions, QujingRuleSet
from engine.qujing.hands import HAND_TYPES
from tests.qujing.helpers import fan_ids, score

HONOUR_HAND = "1m5m9m2p6p1s4s8s3m7p2s9p4m"  # no shape at all; the discards make the win


@pytest.mark.parametrize(
    ("hand", "win", "flags", "fans", "total"),
    [
        ("123m456p789s123s5p", "5p", {"self_drawn": True}, ["plain-win"], 0),
        ("111m222p333sEEE5p", "5p", {}, ["all-pungs"], 1),
        ("111m222p333s5p[EEE<2]", "5p", {}, ["all-pungs"], 1),
        ("1234567892349m", "9m", {}, ["one-colour"], 1),
        ("EEESSSWWWNNNC", "C", {}, ["all-pungs", "one-colour"], 2),
        ("1133m5577p99sEEC", "C", {}, ["small-seven-pairs"], 1),
        ("111m222p5p{3333s}[EEE]", "5p", {"self_drawn": True}, ["all-pungs"], 1),
        ("1111m3355p77sEEC", "C", {}, ["dragon-seven-pairs"], 2),
        ("1111m33557799mC", "C", {}, ["dragon-seven-pairs"], 2),
        (
            "123m456p789s5p[1111s]",
            "5p",
            {"self_drawn": True, "kong_replacement": True},
            ["kong-bloom"],
            1,
        ),
        ("123m456p789s123s5p", "5p", {"kong_discard": True}, ["kong-discard"], 1),
        ("123m456p789s12sEE", "3s", {"robbing_kong": True}, ["robbing-the-kong"], 1),
        (HONOUR_HAND, "5s", {"own_discards": "ESWNCFPEES"}, ["ten-winds"], 1),
        (HONOUR_HAND, "5s", {"own_discards": "ESWNCFP1m"}, ["seven-winds"], 1),
    ],
)
def test_golden_hands(
    hand: str, win: str, flags: dict[str, object], fans: list[str], total: int
) -> None:
    result = score(hand, win, **flags)
    assert result.valid, result.error
    assert fan_ids(result) == fans
    assert result.total == total


def test_every_hand_type_is_covered_by_a_golden_hand() -> None:
    covered = {
        "plain-win",
        "all-pungs",
        "one-colour",
        "small-seven-pairs",
        "dragon-seven-pairs",
        "kong-bloom",
        "kong-discard",
        "robbing-the-kong",
        "ten-winds",
        "seven-winds",
    }
    assert {h.id for h in HAND_TYPES} == covered


def test_one_colour_seven_pairs_stack_to_two_fans() -> None:
    result = score("1133557799m22mC", "C", self_drawn=True)
    assert fan_ids(result) == ["small-seven-pairs"]
    pure = score("11335577992244m", "4m")
    assert not pure.valid  # 15 tiles
    pure = score("1133557799m224m", "4m", self_drawn=True)
    assert fan_ids(pure) == ["one-colour", "small-seven-pairs"]
    assert pure.payments is not None and pure.payments.each_other == 6


def test_the_best_arrangement_wins_all_pungs_over_chows() -> None:
    # 111 222 333 m can be three pungs or three chows; the pung reading is worth more.
    result = score("111222333mEEE5p", "5p")
    assert fan_ids(result) == ["all-pungs"]


def test_plain_hand_cannot_win_on_a_discard() -> None:
    result = score("123m456p789s123s5p", "5p")
    assert not result.valid
    assert result.error == "a plain win (no fan) may only be self-drawn"
    assert fan_ids(result) == ["plain-win"]


def test_plain_self_draw_pays_one_from_each(rules: QujingRuleSet) -> None:
    result = score("123m456p789s123s5p", "5p", rules, self_drawn=True)
    assert rules.settle(result, winner=2, discarder=None) == (-1, -1, 3, -1)


def test_winds_hands_are_paid_as_self_drawn_and_do_not_stack() -> None:
    result = score(HONOUR_HAND, "5s", own_discards="ESWNCFPEES")
    assert result.payments is not None
    assert (result.payments.discarder, result.payments.each_other) == (None, 3)
    as_declared = QujingRuleSet(QujingOptions(winds_payment="as-declared"))
    paid = score(HONOUR_HAND, "5s", as_declared, own_discards="ESWNCFPEES")
    assert paid.payments is not None and paid.payments.discarder == 4


def test_winds_hands_need_an_unbroken_streak_and_no_melds() -> None:
    broken = score(HONOUR_HAND, "5s", own_discards="ESWN5mCFPEE")
    assert not broken.valid and broken.error is not None
    assert "not a winning hand" in broken.error
    repeat = score(HONOUR_HAND, "5s", own_discards="ESWNCFE")  # seven, but not all different
    assert not repeat.valid
    melded = score("1m5m9m2p6p1s4s8s3m7p[EEE]", "5s", own_discards="ESWNCFPSSW")
    assert not melded.valid
    no_green = QujingRuleSet(QujingOptions(winds_include_green_dragon=False))
    assert not score(HONOUR_HAND, "5s", no_green, own_discards="ESWNCFP").valid
    assert score(HONOUR_HAND, "5s", no_green, own_discards="ESWNCPPEES").valid


def test_kong_fans_make_a_plain_hand_discard_winnable_only_under_the_default_reading() -> None:
    strict = QujingRuleSet(QujingOptions(kong_fans_allow_discard_win=False))
    result = score("123m456p789s12sEE", "3s", strict, robbing_kong=True)
    assert not result.valid
    assert result.error == "kong fans alone do not allow a win on a discard"
    big = score("111456789m99m12m", "3m", strict, robbing_kong=True)
    assert big.valid and big.total == 2


def test_honours_only_one_colour_follows_the_option() -> None:
    suits_only = QujingRuleSet(QujingOptions(honours_are_a_colour=False))
    assert fan_ids(score("EEESSSWWWNNNC", "C", suits_only)) == ["all-pungs"]
    assert fan_ids(score("123456789m234mE", "E", suits_only, self_drawn=True)) == ["plain-win"]


def test_seven_different_pairs_reading_forbids_dragon_seven_pairs() -> None:
    different = QujingRuleSet(QujingOptions(seven_pairs_all_different=True))
    assert not score("1111m3355p77sEEC", "C", different).valid
    assert fan_ids(score("1133m5577p99sEEC", "C", different)) == ["small-seven-pairs"]


def test_dragon_seven_pairs_value_is_configurable() -> None:
    three = QujingRuleSet(QujingOptions(dragon_seven_pairs_fans=3))
    result = score("1111m3355p77sEEC", "C", three)
    assert result.total == 3
    assert result.payments is not None and result.payments.discarder == 16


@pytest.mark.parametrize(
    ("hand", "win", "error"),
    [
        ("123m456p789s5p[123s]", "5p", "Qujing has no chow"),
        ("123m456p789s123s1f", "5p", "without flowers"),
        ("11111m456p789s12s", "3s", "impossible hand: 5 copies of 1m"),
        ("123m456p789s123s", "5p", "a winning hand needs 14 tiles"),
        ("123m456p789s124s5p", "5p", "not a winning hand"),
    ],
)
def test_impossible_hands_are_invalid_with_a_reason(hand: str, win: str, error: str) -> None:
    result = score(hand, win, self_drawn=True)
    assert not result.valid
    assert result.error is not None and error in result.error
    assert hand[:6] in result.error or error == "not a winning hand" or "copies" in error


def test_bad_extras_are_reported_not_raised() -> None:
    result = score("123m456p789s123s5p", "5p", own_discards="ESX")
    assert not result.valid and result.error is not None and "'ESX'" in result.error
    result = score("123m456p789s123s5p", "5p", kong_discard="yes")
    assert not result.valid and result.error is not None and "'yes'" in result.error
