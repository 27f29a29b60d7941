"""Qujing table rules: both furiten rules, the last-four-tiles rule, claims and the dealer."""

from __future__ import annotations

import pytest

from engine.qujing import QujingOptions, QujingRuleSet
from engine.qujing.table_rules import Claim, ClaimKind, QujingHandRules, next_dealer
from engine.tiles import Tile
from tests.qujing.helpers import score

FIVE_M = Tile.parse("5m")
EAST = Tile.parse("E")


def test_pung_furiten_lasts_until_the_passer_discards() -> None:
    table = QujingHandRules()
    # A (seat 0) discards 5m; B (seat 1) holds a pair of 5m and lets it go.
    table.on_discard(0, FIVE_M)
    table.on_pass(1, FIVE_M, could_pung=True, could_win=False)
    # C (seat 2) discards 5m before B has discarded: B may not pung it.
    problem = table.pung_problem(1, FIVE_M)
    assert problem is not None and "pung furiten" in problem and "5m" in problem
    assert table.pung_problem(1, EAST) is None  # only the passed tile
    assert table.pung_problem(3, FIVE_M) is None  # only the passer
    table.on_discard(1, EAST)  # B discards in between
    assert table.pung_problem(1, FIVE_M) is None


def test_passing_without_a_pair_is_no_pung_furiten() -> None:
    table = QujingHandRules()
    table.on_pass(1, FIVE_M, could_pung=False, could_win=False)
    assert table.pung_problem(1, FIVE_M) is None


def test_temporary_win_furiten_blocks_discard_wins_until_the_next_draw() -> None:
    table = QujingHandRules()
    table.on_pass(2, FIVE_M, could_pung=False, could_win=True)
    problem = table.win_problem(2, on_discard=True)
    assert problem is not None and "temporary furiten" in problem
    assert table.win_problem(2, on_discard=False) is None  # a self-draw is never furiten
    assert table.win_problem(3, on_discard=True) is None
    table.on_discard(2, EAST)  # discarding does not lift it (only a draw does)
    assert table.is_win_furiten(2)
    table.on_draw(2)
    assert table.win_problem(2, on_discard=True) is None


def test_furiten_rules_can_be_switched_off() -> None:
    lax = QujingHandRules(QujingOptions(pung_furiten=False, win_furiten=False))
    lax.on_pass(1, FIVE_M, could_pung=True, could_win=True)
    assert lax.pung_problem(1, FIVE_M) is None
    assert lax.win_problem(1, on_discard=True) is None


@pytest.mark.parametrize(
    ("tiles_left", "legal", "expected"),
    [(5, True, False), (4, True, False), (3, True, True), (0, True, True), (2, False, False)],
)
def test_last_four_tiles_make_a_legal_win_mandatory(
    tiles_left: int, legal: bool, expected: bool
) -> None:
    table = QujingHandRules()
    assert table.must_win(1, tiles_left=tiles_left, legal_win=legal, on_discard=True) is expected
    assert table.must_win(1, tiles_left=tiles_left, legal_win=legal, on_discard=False) is expected


def test_last_four_tiles_rule_does_not_override_furiten() -> None:
    table = QujingHandRules()
    table.on_pass(1, FIVE_M, could_pung=False, could_win=True)
    assert not table.must_win(1, tiles_left=2, legal_win=True, on_discard=True)
    assert table.must_win(1, tiles_left=2, legal_win=True, on_discard=False)  # own draw


def test_last_four_tiles_still_needs_a_legal_win() -> None:
    # A plain hand cannot win on a discard, so the rule does not force it (digest §5.5 [I]).
    plain = score("123m456p789s123s5p", "5p")
    table = QujingHandRules()
    assert not table.must_win(0, tiles_left=2, legal_win=plain.valid, on_discard=True)
    with pytest.raises(ValueError, match="-1"):
        table.in_last_tiles(-1)


def test_several_players_win_on_one_discard() -> None:
    table = QujingHandRules()
    claims = [
        Claim(3, ClaimKind.WIN),
        Claim(2, ClaimKind.PUNG),
        Claim(1, ClaimKind.WIN),
    ]
    assert table.resolve_claims(0, claims) == (Claim(1, ClaimKind.WIN), Claim(3, ClaimKind.WIN))


def test_kong_and_pung_rank_equal_and_the_lower_seat_goes_first() -> None:
    table = QujingHandRules()
    claims = [Claim(1, ClaimKind.PUNG), Claim(3, ClaimKind.KONG), Claim(2, ClaimKind.PUNG)]
    assert table.resolve_claims(2, claims) == (Claim(3, ClaimKind.KONG),)
    assert table.resolve_claims(0, claims) == (Claim(1, ClaimKind.PUNG),)
    assert table.resolve_claims(0, [Claim(0, ClaimKind.WIN)]) == ()  # own discard


def test_several_winners_are_each_paid_by_the_discarder_and_the_discarder_deals(
    rules: QujingRuleSet,
) -> None:
    big = score("111222333444m5m", "5m", rules)  # 2 fans: 8
    small = score("1133m5577p99sEE5m", "5m", rules)  # seven pairs: 4
    assert big.valid and small.valid
    assert rules.settle_many([(1, big), (3, small)], discarder=0) == (-12, 8, 0, 4)
    assert rules.next_dealer(2, [1, 3], discarder=0) == 0


def test_dealer_rule() -> None:
    options = QujingOptions()
    assert next_dealer(0, [2], discarder=1, options=options) == 2
    assert next_dealer(0, [], discarder=None, options=options) == 0
    passing = QujingOptions(washout_dealer_repeats=False)
    assert next_dealer(3, [], discarder=None, options=passing) == 0
    with pytest.raises(ValueError, match="discarder"):
        next_dealer(0, [1, 2], discarder=None, options=options)


def test_exposed_kong_is_paid_by_the_discarder(rules: QujingRuleSet) -> None:
    assert rules.kong_changes("exposed", konger=1, discarder=3) == (0, 2, 0, -2)
    assert rules.kong_changes("concealed", konger=1) == (0, 0, 0, 0)
    yunnan = QujingRuleSet(QujingOptions(concealed_kong_payment=2, added_kong_payment=1))
    assert yunnan.kong_changes("concealed", konger=0) == (6, -2, -2, -2)
    assert yunnan.kong_changes("added", konger=2) == (-1, -1, 3, -1)


def test_rule_set_answers_what_the_table_asks(rules: QujingRuleSet) -> None:
    assert rules.allows_chow is False
    assert rules.max_winners_per_discard == 3
    assert isinstance(rules.hand_rules(), QujingHandRules)
