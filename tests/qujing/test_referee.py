"""Scripted hands through the shared table plus the Qujing referee: both furiten rules, the
last-four-tiles rule, kong payments and the dealer rule."""

from __future__ import annotations

from engine.actions import AddedKong, Deal, Discard, Draw, HandStart, Kong, Pung, Win
from engine.notation import parse_tile, parse_tiles
from engine.qujing.referee import Finding, QujingReferee
from engine.table import Table
from engine.table_events import TileDrawn
from tests.qujing.helpers import wall_with

T = parse_tile


def _referee(hands: list[str]) -> QujingReferee:
    referee = QujingReferee(Table("qujing", rules="qujing"))
    referee.apply(HandStart(dealer=0))
    for seat, tiles in enumerate(hands):
        referee.apply(Deal(seat=seat, tiles=parse_tiles(tiles)))
    assert referee.table.violations == ()
    return referee


# Seat 2 waits on E / 5s for all pungs; the dealer holds the third E.
HANDS = [
    "123m456m789m19s5p7pE",
    "123456789s234pS",
    "111p222p333s55sEE",
    "4567m678pCCFFPW",
]


def test_pung_furiten_through_the_table() -> None:
    referee = _referee(HANDS)
    referee.apply(Discard(seat=0, tile=T("E")))  # seat 2 holds EE and lets it go
    referee.apply(Draw(seat=1, tile=T("E")))
    referee.apply(Discard(seat=1, tile=T("E")))  # the same tile again before seat 2 discarded
    events = referee.apply(Pung(seat=2))
    assert [e.type for e in events] == ["meld_claimed"]  # the shared table accepts the pung
    assert [(f.kind, f.seat) for f in referee.findings] == [("pung_furiten", 2)]
    assert "passed E" in referee.findings[0].detail


def test_discarding_in_between_lifts_pung_furiten() -> None:
    referee = _referee(HANDS)
    referee.apply(Discard(seat=0, tile=T("E")))  # passed by seat 2
    referee.apply(Draw(seat=1, tile=T("N")))
    referee.apply(Discard(seat=1, tile=T("N")))
    referee.apply(Draw(seat=2, tile=T("W")))
    referee.apply(Discard(seat=2, tile=T("W")))  # seat 2 discards in between
    referee.apply(Draw(seat=3, tile=T("E")))
    referee.apply(Discard(seat=3, tile=T("E")))
    referee.apply(Pung(seat=2))
    assert referee.findings == []
    assert referee.table.violations == ()


def test_temporary_furiten_after_passing_a_winning_discard() -> None:
    referee = _referee(HANDS)
    referee.apply(Discard(seat=0, tile=T("E")))  # seat 2 could win (all pungs) and passes
    referee.apply(Draw(seat=1, tile=T("5s")))
    referee.apply(Discard(seat=1, tile=T("5s")))
    referee.apply(Win(seat=2))  # before its own next draw
    assert [(f.kind, f.seat) for f in referee.findings] == [("win_furiten", 2)]


def test_a_draw_lifts_temporary_furiten_and_the_winner_deals_next() -> None:
    referee = _referee(HANDS)
    referee.apply(Discard(seat=0, tile=T("E")))  # passed
    referee.apply(Draw(seat=1, tile=T("N")))
    referee.apply(Discard(seat=1, tile=T("N")))
    referee.apply(Draw(seat=2, tile=T("W")))  # seat 2 draws ...
    referee.apply(Discard(seat=2, tile=T("W")))
    referee.apply(Draw(seat=3, tile=T("5s")))
    referee.apply(Discard(seat=3, tile=T("5s")))
    events = referee.apply(Win(seat=2))  # ... so this win stands
    assert referee.findings == []
    assert any(e.type == "win_declared" for e in events)
    referee.apply(HandStart())  # a discard win is final once the next action comes
    assert referee.next_dealer == 2
    assert referee.table.scores == [0, 0, 4, -4]


def test_several_winners_make_the_discarder_deal() -> None:
    hands = ["123m456p789s1239p5m", "111222333444m5m", "1133s5577p99sEE5m", "123456789p1s2sSW"]
    referee = _referee(hands)
    referee.apply(Discard(seat=0, tile=T("5m")))
    referee.apply(Win(seat=1))
    referee.apply(Win(seat=2))
    referee.apply(HandStart())
    assert referee.next_dealer == 0
    assert referee.table.scores == [-12, 8, 4, 0]


def test_kong_payments() -> None:
    hands = ["123m456m789m19s5p7pE", "123456s234pEESS", "111p222p333s55sCC", "4567m678pNNNFFW"]
    referee = _referee(hands)
    referee.apply(Discard(seat=0, tile=T("E")))
    referee.apply(Pung(seat=1))
    referee.apply(Discard(seat=1, tile=T("S")))
    referee.apply(Draw(seat=2, tile=T("N")))
    referee.apply(Discard(seat=2, tile=T("N")))
    referee.apply(Kong(seat=3))  # seat 3 holds NNN: exposed kong on seat 2's discard
    assert referee.kong_deltas == [0, 0, -2, 2]
    referee.apply(Draw(seat=3, tile=T("3p"), replacement=True))
    referee.apply(Discard(seat=3, tile=T("3p")))
    referee.apply(Draw(seat=0, tile=T("8m")))
    referee.apply(Discard(seat=0, tile=T("8m")))
    referee.apply(Draw(seat=1, tile=T("E")))
    referee.apply(AddedKong(seat=1, tile=T("E")))  # added kongs pay nothing by default
    assert referee.kong_deltas == [0, 0, -2, 2]
    assert referee.findings == []
    assert referee.table.violations == ()


def _play_to_the_end(referee: QujingReferee, stop_after_draws: int) -> list[int]:
    """Every seat discards what it draws (the dealer first discards its 14th tile)."""
    dealer_hand = referee.table.hand
    assert dealer_hand is not None
    referee.apply(Discard(seat=0, tile=dealer_hand.seats[0].concealed_tiles()[-1]))
    lefts = []
    for k in range(1, stop_after_draws + 1):
        seat = k % 4
        drawn = next(e for e in referee.apply(Draw(seat=seat)) if isinstance(e, TileDrawn))
        assert drawn.tile is not None and drawn.live_left is not None
        lefts.append(drawn.live_left)
        referee.apply(Discard(seat=seat, tile=drawn.tile))
    return lefts


def _last_tiles_referee(last_live: str) -> QujingReferee:
    dealt = [
        "123m456p789s1239pC",
        "2345m6789m77sNNS",
        "111p222p333s55sEE",  # waits on E / 5s: all pungs
        "4488m55p66s8sWWPF",
    ]
    referee = QujingReferee(Table("qujing", rules="qujing"))
    referee.apply(HandStart(dealer=0, wall=wall_with(dealt, last_live)))
    for seat in range(4):
        referee.apply(Deal(seat=seat))
    hand = referee.table.hand
    assert hand is not None
    assert hand.seats[2].concealed_tiles() == tuple(sorted(parse_tiles(dealt[2])))
    return referee


def test_a_winning_discard_among_the_last_four_tiles_must_be_taken() -> None:
    # Draws 80-83 go to seats 0, 1, 2, 3; seat 1 draws E (2 left) and discards it; seat 2
    # waits on E and lets it go: its next draw shows the pass.
    referee = _last_tiles_referee("8pE9m9m")
    lefts = _play_to_the_end(referee, 82)
    assert lefts[-3:] == [3, 2, 1]
    kinds = [(f.kind, f.seat) for f in referee.findings]
    assert ("must_win", 2) in kinds, referee.findings
    assert all(f.kind != "must_win" or f.seat == 2 for f in referee.findings)


def test_a_winning_draw_among_the_last_four_tiles_must_be_declared() -> None:
    referee = _last_tiles_referee("8p9m5s9m")  # seat 2 draws 5s (1 left) and discards it
    _play_to_the_end(referee, 82)
    assert (
        Finding("must_win", 2, "seat 2 drew a winning tile among the last tiles and did not win")
        in referee.findings
    )


def test_before_the_last_four_tiles_passing_is_allowed() -> None:
    # Seat 3 draws E with 4 tiles still in the wall (not one of the last four) and discards it.
    referee = _last_tiles_referee("E8p9mC9m")
    lefts = _play_to_the_end(referee, 80)
    assert lefts[-2:] == [4, 3]
    assert [f for f in referee.findings if f.kind == "must_win"] == []
    assert referee.hand_rules.is_win_furiten(2)  # the pass was seen: only furiten follows
