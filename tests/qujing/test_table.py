"""Qujing through the shared table: found by name, no chow, several winners on one discard."""

from __future__ import annotations

from engine.actions import Chow, Deal, Discard, Draw, HandStart, Win
from engine.events import Event, to_dict
from engine.notation import parse_tile, parse_tiles
from engine.table import Table


def _deal(table: Table, hands: list[str]) -> None:
    table.apply(HandStart(dealer=0))
    for seat, tiles in enumerate(hands):
        table.apply(Deal(seat=seat, tiles=parse_tiles(tiles)))


def _kinds(events: list[Event]) -> list[str]:
    return [str(to_dict(e).get("kind", e.type)) for e in events]


HANDS = [
    "123m456p789s1239p5m",  # dealer: discards 5m
    "111222333444m5m",  # one colour + all pungs on 5m: 8
    "1133s5577p99sEE5m",  # small seven pairs on 5m: 4
    "123456789p1s2sSW",  # not waiting on 5m
]


def test_two_players_win_on_one_discard_and_the_discarder_pays_both() -> None:
    table = Table("qujing", rules="qujing")
    _deal(table, HANDS)
    assert table.violations == ()
    table.apply(Discard(seat=0, tile=parse_tile("5m")))
    first = table.apply(Win(seat=1))
    second = table.apply(Win(seat=2))
    wins = [to_dict(e) for e in first + second if e.type == "win_declared"]
    assert [w["seat"] for w in wins] == [1, 2]
    assert [w["score"]["payments"] for w in wins] == [
        {"discarder": 8, "each_other": 0},
        {"discarder": 4, "each_other": 0},
    ]
    table.apply(HandStart())  # the hand with several winners ends at the next action
    assert table.scores == [-12, 8, 4, 0]
    assert table.violations == ()


def test_a_plain_hand_on_a_discard_is_a_false_win() -> None:
    table = Table("qujing", rules="qujing")
    _deal(table, [HANDS[0], "123m456p789s1s2sSS", HANDS[2], HANDS[3]])
    table.apply(Discard(seat=0, tile=parse_tile("3s")))
    events = table.apply(Win(seat=1))
    assert "false_win" in _kinds(events)
    assert "self-drawn" in str([to_dict(e).get("detail") for e in events])


def test_qujing_tables_refuse_chow() -> None:
    table = Table("qujing", rules="qujing")
    _deal(table, HANDS)
    table.apply(Discard(seat=0, tile=parse_tile("5m")))
    events = table.apply(Chow(seat=1, tiles=parse_tiles("345m")))
    assert "chow_not_allowed" in _kinds(events)


def test_the_whole_wall_is_live_under_the_qujing_procedure() -> None:
    table = Table("qujing", rules="qujing")
    _deal(table, HANDS)
    table.apply(Discard(seat=0, tile=parse_tile("5m")))
    drawn = [to_dict(e) for e in table.apply(Draw(seat=1)) if e.type == "tile_drawn"]
    assert drawn[0]["live_left"] == 136 - 53 - 1
