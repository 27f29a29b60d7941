"""Scripted hands through engine.table alone: Qujing's table rules reach the shared table through
its generic hooks (both furiten rules, kong payments, the dealer rule, the kong-discard flag)."""

from __future__ import annotations

import pytest

from engine.actions import AddedKong, Deal, Discard, Draw, HandStart, Kong, Pung, Win
from engine.events import Event, to_dict
from engine.notation import parse_tile, parse_tiles
from engine.rulesets import find_rules
from engine.table import Table
from engine.table.rules_api import TableRules, table_rules_of
from engine.violations import IllegalActionError

T = parse_tile


def _table(hands: list[str]) -> Table:
    table = Table("qujing", rules="qujing")
    table.apply(HandStart(dealer=0))
    for seat, tiles in enumerate(hands):
        table.apply(Deal(seat=seat, tiles=parse_tiles(tiles)))
    assert table.violations == ()
    return table


def _kinds(table: Table) -> list[tuple[str, int | None]]:
    return [(v.kind.value, v.seat) for v in table.violations]


def _of_type(events: list[Event], kind: str) -> list[dict[str, object]]:
    return [to_dict(e) for e in events if e.type == kind]


# Seat 2 waits on E / 5s for all pungs; the dealer holds the third E.
HANDS = [
    "123m456m789m19s5p7pE",
    "123456789s234pS",
    "111p222p333s55sEE",
    "4567m678pCCFFPW",
]


def test_the_qujing_rule_set_offers_the_table_hooks() -> None:
    assert isinstance(find_rules("qujing"), TableRules)
    assert table_rules_of(find_rules("qujing")) is not table_rules_of(None)


def test_pung_furiten_is_a_table_violation() -> None:
    table = _table(HANDS)
    table.apply(Discard(seat=0, tile=T("E")))  # seat 2 holds EE and lets it go
    table.apply(Draw(seat=1, tile=T("E")))
    table.apply(Discard(seat=1, tile=T("E")))  # the same tile again before seat 2 discarded
    events = table.apply(Pung(seat=2))
    assert [e.type for e in events] == ["violation", "meld_claimed"]  # flagged, the pung stands
    assert _kinds(table) == [("pung_furiten", 2)]
    assert "passed E" in table.violations[0].detail


def test_discarding_in_between_lifts_pung_furiten() -> None:
    table = _table(HANDS)
    table.apply(Discard(seat=0, tile=T("E")))  # passed by seat 2
    table.apply(Draw(seat=1, tile=T("N")))
    table.apply(Discard(seat=1, tile=T("N")))
    table.apply(Draw(seat=2, tile=T("W")))
    table.apply(Discard(seat=2, tile=T("W")))  # seat 2 discards in between
    table.apply(Draw(seat=3, tile=T("E")))
    table.apply(Discard(seat=3, tile=T("E")))
    table.apply(Pung(seat=2))
    assert table.violations == ()


def test_temporary_furiten_refuses_a_discard_win_until_the_next_draw() -> None:
    table = _table(HANDS)
    table.apply(Discard(seat=0, tile=T("E")))  # seat 2 could win (all pungs) and passes
    table.apply(Draw(seat=1, tile=T("5s")))
    table.apply(Discard(seat=1, tile=T("5s")))
    events = table.apply(Win(seat=2))  # before its own next draw
    assert _kinds(table) == [("win_furiten", 2)]
    assert _of_type(events, "win_declared") == [] and table.hand is not None
    assert table.hand.winners == [] and table.scores == [0, 0, 0, 0]


def test_a_draw_lifts_temporary_furiten_and_the_winner_deals_next() -> None:
    table = _table(HANDS)
    table.apply(Discard(seat=0, tile=T("E")))  # passed
    table.apply(Draw(seat=1, tile=T("N")))
    table.apply(Discard(seat=1, tile=T("N")))
    table.apply(Draw(seat=2, tile=T("W")))  # seat 2 draws ...
    table.apply(Discard(seat=2, tile=T("W")))
    table.apply(Draw(seat=3, tile=T("5s")))
    table.apply(Discard(seat=3, tile=T("5s")))
    events = table.apply(Win(seat=2))  # ... so this win stands
    assert table.violations == ()
    assert _of_type(events, "win_declared")[0]["deltas"] == [0, 0, 4, -4]
    table.apply(HandStart())  # a discard win is final once the next action comes
    assert table.next_dealer == 2
    assert table.scores == [0, 0, 4, -4]
    assert table.hand is not None and table.hand.dealer == 2


def test_several_winners_make_the_discarder_deal() -> None:
    hands = ["123m456p789s1239p5m", "111222333444m5m", "1133s5577p99sEE5m", "123456789p1s2sSW"]
    table = _table(hands)
    table.apply(Discard(seat=0, tile=T("5m")))
    table.apply(Win(seat=1))
    table.apply(Win(seat=2))
    ended = _of_type(table.apply(HandStart()), "hand_ended")
    assert ended[0]["winners"] == [1, 2]
    assert table.next_dealer == 0 and table.hand is not None and table.hand.dealer == 0
    assert table.scores == [-12, 8, 4, 0]
    assert table.violations == ()


def test_one_winner_deals_next_even_when_the_discarder_is_dealer() -> None:
    table = _table(["123m456p789s1239p5m", "111222333444m5m", "1133s5577p99sEEW", HANDS[3]])
    table.apply(Discard(seat=0, tile=T("5m")))
    table.apply(Win(seat=1))
    table.apply(HandStart())
    assert table.next_dealer == 1 and table.hand is not None and table.hand.dealer == 1


def test_kong_payments_are_score_changes_in_the_events() -> None:
    hands = ["123m456m789m19s5p7pE", "123456s234pEESS", "111p222p333s55sCC", "4567m678pNNNFFW"]
    table = _table(hands)
    table.apply(Discard(seat=0, tile=T("E")))
    table.apply(Pung(seat=1))
    table.apply(Discard(seat=1, tile=T("S")))
    table.apply(Draw(seat=2, tile=T("N")))
    table.apply(Discard(seat=2, tile=T("N")))
    kong = _of_type(table.apply(Kong(seat=3)), "kong_declared")  # exposed kong on seat 2's N
    assert kong[0]["deltas"] == [0, 0, -2, 2]
    table.apply(Draw(seat=3, tile=T("3p"), replacement=True))
    table.apply(Discard(seat=3, tile=T("3p")))
    table.apply(Draw(seat=0, tile=T("8m")))
    table.apply(Discard(seat=0, tile=T("8m")))
    table.apply(Draw(seat=1, tile=T("E")))
    added = _of_type(table.apply(AddedKong(seat=1, tile=T("E"))), "kong_declared")
    assert added[0]["deltas"] is None  # added kongs pay nothing by default
    assert table.violations == ()
    ended = _of_type(table.apply(HandStart()), "hand_ended")  # the hand is abandoned
    assert ended[0]["deltas"] == [0, 0, -2, 2] and table.scores == [0, 0, -2, 2]


def test_a_discard_right_after_a_kong_scores_kong_discard() -> None:
    hands = ["123m456m789m19s5p7pN", "123456s234pEESS", "111p222p333s55sCC", "4567m678pNNNFF5s"]
    table = _table(hands)
    table.apply(Discard(seat=0, tile=T("N")))
    table.apply(Kong(seat=3))
    table.apply(Draw(seat=3, tile=T("W"), replacement=True))
    table.apply(Discard(seat=3, tile=T("5s")))  # right after its kong: seat 2 wins on it
    win = _of_type(table.apply(Win(seat=2)), "win_declared")
    fans = {fan["id"] for fan in win[0]["score"]["fans"]}  # type: ignore[index]
    assert "kong-discard" in fans, win
    assert table.violations == ()


def test_robbing_an_added_kong_gives_its_payment_back() -> None:
    table = Table("qujing", rules=find_rules("qujing", added_kong_payment=1))
    table.apply(HandStart(dealer=0))
    # Seat 2 waits on 3m for one colour; seat 1 pungs the dealer's 3m and later adds the fourth.
    hands = ["123456789s19p5p7p3m", "33m678m234pSSNNN", "12m456m789m999m55m", "4567m678pCCFFPW"]
    for seat, tiles in enumerate(hands):
        table.apply(Deal(seat=seat, tiles=parse_tiles(tiles)))
    table.apply(Discard(seat=0, tile=T("3m")))
    table.apply(Pung(seat=1))
    table.apply(Discard(seat=1, tile=T("S")))
    table.apply(Draw(seat=2, tile=T("W")))  # lifts the furiten of passing 3m
    table.apply(Discard(seat=2, tile=T("W")))
    table.apply(Draw(seat=3, tile=T("W")))
    table.apply(Discard(seat=3, tile=T("W")))
    table.apply(Draw(seat=0, tile=T("8m")))
    table.apply(Discard(seat=0, tile=T("8m")))
    table.apply(Draw(seat=1, tile=T("3m")))
    added = _of_type(table.apply(AddedKong(seat=1, tile=T("3m"))), "kong_declared")
    assert added[0]["deltas"] == [-1, 3, -1, -1]
    hand = table.hand
    assert hand is not None and hand.deltas == [-1, 3, -1, -1]
    win = _of_type(table.apply(Win(seat=2)), "win_declared")  # robs the 3m: the kong is void
    paid = win[0]["score"]["payments"]["discarder"]  # type: ignore[index]
    assert win[0]["deltas"] == [1, -3 - paid, 1 + paid, 1]
    table.apply(HandStart())  # the hand ends: the kong's payment is gone, only the win counts
    assert table.scores == [0, -paid, paid, 0]
    assert table.violations == ()


def test_a_strict_table_refuses_a_furiten_pung_and_keeps_its_state() -> None:
    table = Table("qujing", rules="qujing", strict=True)
    table.apply(HandStart(dealer=0))
    for seat, tiles in enumerate(HANDS):
        table.apply(Deal(seat=seat, tiles=parse_tiles(tiles)))
    table.apply(Discard(seat=0, tile=T("E")))
    table.apply(Draw(seat=1, tile=T("E")))
    table.apply(Discard(seat=1, tile=T("E")))
    before = table.snapshot()
    with pytest.raises(IllegalActionError, match="pung_furiten"):
        table.apply(Pung(seat=2))
    assert table.snapshot() == before


def test_unknown_hands_are_never_judged() -> None:
    table = Table("qujing", rules="qujing")
    table.apply(HandStart(dealer=0))
    for seat in range(4):
        table.apply(Deal(seat=seat, count=14 if seat == 0 else 13))  # a camera: tiles unseen
    table.apply(Discard(seat=0, tile=T("E")))
    table.apply(Draw(seat=1, tile=T("E")))
    table.apply(Discard(seat=1, tile=T("E")))
    table.apply(Pung(seat=2))
    assert table.violations == ()


def test_a_win_that_overrides_an_exposed_kong_gives_its_payment_back() -> None:
    hands = ["123m456m789m19s7s5pE", "111222333p46p99p", "2345m6789m77sNNS", "555p678sCCFFWSS"]
    table = _table(hands)
    table.apply(Discard(seat=0, tile=T("5p")))
    kong = _of_type(table.apply(Kong(seat=3)), "kong_declared")
    assert kong[0]["deltas"] == [-2, 0, 0, 2]
    events = table.apply(Win(seat=1))  # seat 1 waits on 5p (one colour): the win outranks
    assert _of_type(events, "claim_overridden")[0]["deltas"] == [2, 0, 0, -2]
    paid = _of_type(events, "win_declared")[0]["score"]["payments"]["discarder"]  # type: ignore[index]
    table.apply(HandStart())
    assert table.scores == [-paid, paid, 0, 0]
    assert table.violations == ()
