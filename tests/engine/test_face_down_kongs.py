"""Concealed kongs laid face down (kind unseen) and shown later: sizes, wall, events, scoring."""

from __future__ import annotations

import json

from engine import actions as act
from engine.events import to_dict
from engine.notation import parse_hand, parse_tile
from engine.table import Table
from tests.engine.test_table import kinds, run

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


def test_a_win_with_a_kong_still_face_down_is_accepted_but_not_scored() -> None:
    table = Table("log", rules="mcr")
    run(
        CAMERA_DEAL + "0 draw ?\n0 ckong ?\n0 draw ?\n0 discard 5m\n1 draw ?\n1 discard 5p\n", table
    )
    events = table.apply(act.Win(seat=0, hand=parse_hand("123m 456s 5p 789p")))
    win = next(e for e in events if e.type == "win_declared")
    assert kinds(events) == [] and win.score is None


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
