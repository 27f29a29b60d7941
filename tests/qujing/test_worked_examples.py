"""The worked examples of seed 002, scored end to end through the registered rule set."""

from __future__ import annotations

from engine.qujing import QujingRuleSet
from engine.qujing.hands import hand_value, payments_for
from tests.qujing.helpers import fan_ids, score

PURE_PUNGS = "111222333444m 5m"  # waits on 5m for one colour + all pungs


def test_one_colour_and_all_pungs_on_a_discard_is_8_from_the_discarder(
    rules: QujingRuleSet,
) -> None:
    result = score(PURE_PUNGS, "5m", rules)
    assert result.valid
    assert fan_ids(result) == ["all-pungs", "one-colour"]
    assert result.total == 2
    assert result.payments is not None
    assert (result.payments.discarder, result.payments.each_other) == (8, 0)
    assert rules.settle(result, winner=0, discarder=2) == (8, 0, -8, 0)


def test_one_colour_and_all_pungs_self_drawn_is_6_from_each(rules: QujingRuleSet) -> None:
    result = score(PURE_PUNGS, "5m", rules, self_drawn=True)
    assert result.payments is not None
    assert (result.payments.discarder, result.payments.each_other) == (None, 6)
    assert rules.settle(result, winner=1, discarder=None) == (-6, 18, -6, -6)


def test_plus_kong_bloom_is_12_from_each(rules: QujingRuleSet) -> None:
    result = score("111222333m 5m {4444m}", "5m", rules, self_drawn=True, kong_replacement=True)
    assert fan_ids(result) == ["all-pungs", "kong-bloom", "one-colour"]
    assert result.total == 3
    assert result.payments is not None
    assert result.payments.each_other == 12
    assert rules.settle(result, winner=3, discarder=None) == (-12, -12, -12, 36)


def test_plus_kong_discard_is_16_from_the_discarder(rules: QujingRuleSet) -> None:
    result = score(PURE_PUNGS, "5m", rules, kong_discard=True)
    assert fan_ids(result) == ["all-pungs", "kong-discard", "one-colour"]
    assert result.payments is not None
    assert (result.payments.discarder, result.payments.each_other) == (16, 0)


def test_the_general_rule_doubles_with_every_fan() -> None:
    assert [hand_value(n, self_drawn=True) for n in range(1, 6)] == [3, 6, 12, 24, 48]
    assert [hand_value(n, self_drawn=False) for n in range(1, 6)] == [4, 8, 16, 32, 64]
    assert payments_for(0, self_drawn=True).each_other == 1
