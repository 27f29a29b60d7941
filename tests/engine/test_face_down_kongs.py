"""Concealed kongs laid face down (kind unseen) and shown later: sizes, wall, events, scoring."""

from __future__ import annotations

import json

from engine import actions as act
from engine.events import Event, to_dict
from engine.notation import parse_hand, parse_tile
from engine.table import Table
from tests.engine.table_script import kinds, run

CAMERA_DEAL = "start\ndeal 0 ?13\ndeal 1 ?13\ndeal 2 ?13\ndeal 3 ?13\n"


def test_a_face_down_kong_takes_four_unseen_tiles_and_a_replacement() -> None:
    table, events = run(CAMERA_DEAL + "0 draw ?\n0 ckong ?\n0 draw ?\n0 discard 5m\n")
    assert kinds(events) == []
    kong = next(e for e in events if e.type == "kong_declared")
    assert (kong.seat, kong.meld, kong.kind) == (0, None, "concealed")
    assert to_dict(kong)["meld"] is None
    draws = [e for e in events if e.type == "tile_drawn"]
    assert [e.replacement for e in draws] == [False, True]  # the draw after it is from the back
    seat = table.snapshot()["hand"]["seats"][0]
    assert (seat["face_down_kongs"], seat["concealed_count"], seat["melds"]) == (1, 10, [])
    json.dumps(table.snapshot())
    # the kong counts as a set: the seat's next draw is not a long or short hand
    _, more = run("1 draw ?\n1 discard 6m\n2 draw ?\n2 discard 7m\n3 draw ?\n3 discard 8m\n", table)
    _, again = run("0 draw ?\n0 discard 9m\n", table)
    assert kinds(more + again) == []


def test_a_shown_kong_becomes_a_concealed_kong_of_its_kind() -> None:
    table, _ = run(CAMERA_DEAL + "0 draw ?\n0 ckong ?\n0 draw ?\n0 discard 5m\n")
    events = table.apply(act.ShowKong(seat=0, tile=parse_tile("9p")))
    shown = next(e for e in events if e.type == "kong_shown")
    assert (shown.seat, to_dict(shown)["meld"]) == (0, "{9999p}")
    seat = table.snapshot()["hand"]["seats"][0]
    assert seat["face_down_kongs"] == 0
    assert [m["meld"] for m in seat["melds"]] == ["{9999p}"]


def test_showing_a_kong_that_is_not_there_or_a_fifth_copy_is_a_violation() -> None:
    table, _ = run(CAMERA_DEAL + "0 draw ?\n0 discard 5m\n")
    assert kinds(table.apply(act.ShowKong(seat=0, tile=parse_tile("9p")))) == ["illegal_meld"]
    run("1 draw ?\n1 ckong ?\n1 draw ?\n1 discard 6m\n", table)
    assert kinds(table.apply(act.ShowKong(seat=1, tile=parse_tile("5m")))) == ["fifth_copy"]


def test_a_face_down_kong_in_its_own_turn_only() -> None:
    _, events = run(CAMERA_DEAL + "0 draw ?\n0 discard 5m\n1 ckong ?\n")
    assert kinds(events) == ["out_of_turn"]


def _won_beside_a_face_down_kong(hand: str = "123m 456s 5p 789p") -> tuple[Table, Event]:
    """Seat 0 lays a kong face down, seat 1 discards 5p, seat 0 wins on it with ``hand``."""
    table = Table("log", rules="mcr")
    run(
        CAMERA_DEAL + "0 draw ?\n0 ckong ?\n0 draw ?\n0 discard 5m\n1 draw ?\n1 discard 5p\n", table
    )
    events = table.apply(act.Win(seat=0, hand=parse_hand(hand)))
    assert kinds(events) == []
    return table, next(e for e in events if e.type == "win_declared")


def test_a_win_with_a_kong_still_face_down_is_accepted_but_not_scored() -> None:
    table, win = _won_beside_a_face_down_kong()
    assert win.score is None and win.deltas is None
    assert to_dict(win)["hand"] is None  # not the hand without its kong
    assert table.scores == [0, 0, 0, 0]


def test_showing_the_kong_after_the_win_scores_it_and_restates_the_hand_end() -> None:
    table, win = _won_beside_a_face_down_kong()
    events = [to_dict(e) for e in table.apply(act.ShowKong(seat=0, tile=parse_tile("E")))]
    assert [e["type"] for e in events] == ["kong_shown", "win_scored", "hand_ended"]
    scored, ended = events[1], events[2]
    assert scored["win_event"] == win.event_id and scored["seat"] == 0
    assert scored["hand"] == "123m456s5789p {EEEE}"
    fans = {f["name"]: f["points"] for f in scored["score"]["fans"]}
    assert fans["Concealed Kong"] == 2 and fans["Mixed Straight"] == 8
    deltas, total = scored["deltas"], scored["score"]["total"]
    assert deltas == [total + 24, -(total + 8), -8, -8]  # MCR: the discarder pays 8 more
    assert ended["hand_number"] == 1 and ended["winners"] == [0]
    assert ended["deltas"] == deltas and ended["scores"] == table.scores == deltas
    assert table.snapshot()["scores"] == deltas
    # shown once: showing again is no second score
    assert kinds(table.apply(act.ShowKong(seat=0, tile=parse_tile("N")))) == ["illegal_meld"]
    assert table.scores == deltas


def test_a_win_its_shown_kong_leaves_under_the_minimum_is_a_false_win() -> None:
    table, _ = _won_beside_a_face_down_kong("123m 345s 5p 789p")
    events = table.apply(act.ShowKong(seat=0, tile=parse_tile("9s")))
    assert kinds(events) == ["false_win"]
    detail = next(e for e in events if e.type == "violation").detail
    assert "kongs shown" in detail and "8 needed" in detail
    assert not [e for e in events if e.type in ("win_scored", "hand_ended")]
    assert table.scores == [0, 0, 0, 0]


def test_a_win_after_the_kong_is_shown_is_scored_with_it() -> None:
    table = Table("log", rules="mcr")
    run(
        CAMERA_DEAL + "0 draw ?\n0 ckong ?\n0 draw ?\n0 discard 5m\n1 draw ?\n1 discard 5p\n", table
    )
    table.apply(act.ShowKong(seat=0, tile=parse_tile("E")))
    events = table.apply(act.Win(seat=0, hand=parse_hand("123m 456s 5p 789p")))
    win = next(e for e in events if e.type == "win_declared")
    assert kinds(events) == []
    assert win.score is not None and win.score["total"] > 0
    names = {f["name"] for f in win.score["fans"]}
    assert "Concealed Kong" in names


def test_a_wrong_sized_hand_beside_a_face_down_kong_is_a_false_win() -> None:
    table = Table("log", rules="mcr")
    run(
        CAMERA_DEAL + "0 draw ?\n0 ckong ?\n0 draw ?\n0 discard 5m\n1 draw ?\n1 discard 5p\n", table
    )
    events = table.apply(act.Win(seat=0, hand=parse_hand("123m 456s 5p 789p 11s")))
    assert kinds(events) == ["false_win"]


def test_a_tileless_kong_in_a_record_is_the_seats_four_of_a_kind() -> None:
    _, events = run("start\ndeal 0 9999p 123456789m\n0 draw 1s\n0 ckong ?\n")
    kong = next(e for e in events if e.type == "kong_declared")
    assert kinds(events) == [] and to_dict(kong)["meld"] == "{9999p}"
    _, none = run("start\ndeal 0 999p 123456789m 1s\n0 draw 2s\n0 ckong ?\n", Table("log"))
    assert kinds(none) == ["tile_not_in_hand"]


def test_a_kong_may_be_shown_once_the_hand_has_ended() -> None:
    table, _ = run(CAMERA_DEAL + "0 draw ?\n0 ckong ?\n0 draw ?\n0 discard 5m\nwashout\n")
    events = table.apply(act.ShowKong(seat=0, tile=parse_tile("C")))
    assert kinds(events) == [] and [e.type for e in events] == ["kong_shown"]
    assert kinds(Table("log").apply(act.ShowKong(seat=0, tile=parse_tile("C")))) == [
        "no_hand_in_progress"
    ]


def test_a_next_hand_before_the_kong_is_shown_alerts_the_referee() -> None:
    table, _ = _won_beside_a_face_down_kong()
    events = table.apply(act.HandStart())
    alert = next(e for e in events if e.type == "violation")
    assert (alert.kind, alert.seat, alert.severity) == ("kong_not_shown", 0, "alert")
    assert "hand 1's win was never scored" in alert.detail
    assert [e.type for e in events][-1] == "hand_started"
    assert table.scores == [0, 0, 0, 0]
    assert kinds(table.apply(act.HandStart())) == []  # said once, for that hand only
