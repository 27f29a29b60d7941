"""The table state machine on scripted hands: turns, claims, kongs, wins, snapshots, ids."""

from __future__ import annotations

import json

import pytest

from engine import actions as act
from engine.events import to_dict
from engine.notation import parse_hand, parse_tile
from engine.table import Table
from engine.table.events import public_form
from engine.violations import IllegalActionError
from tests.engine.table_script import DEAL, kinds, run, script


def test_a_clean_hand_emits_ordered_events_and_no_violations() -> None:
    table, events = run(DEAL + "0 draw 5p\n0 discard 5p\n1 win")
    assert kinds(events) == []
    types = [e.type for e in events]
    assert types[:5] == ["hand_started", *["tiles_dealt"] * 4]
    assert types[-2:] == ["win_declared", "hand_ended"]
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    win = events[-2]
    assert (win.seat, win.discarder, str(win.win_tile), win.self_drawn) == (1, 0, "5p", False)
    assert table.hand is not None and table.hand.phase.value == "ended"
    assert table.next_dealer == 1


def test_river_rows_of_six_and_snapshot_is_json() -> None:
    table, events = run(
        DEAL
        + "0 draw F\n0 discard F\n1 draw F\n1 discard F\n2 draw F\n2 discard F\n"
        + "3 draw 1s\n3 discard 1s\n0 draw 2s\n0 discard 2s\n"
        + "1 draw 3s\n1 discard 3s\n2 draw 4s\n2 discard 4s\n3 draw 5s\n3 discard 5s\n"
        + "0 draw 6s\n0 discard 6s\n1 draw 7s\n1 discard 7s\n2 draw 8s\n2 discard 8s\n"
        + "3 draw 9s\n3 discard 9s\n0 draw 1m\n0 discard 1m\n1 draw 2m\n1 discard 2m\n"
    )
    snap = table.snapshot()
    json.dumps(snap)
    assert snap["hand"]["seats"][0]["river"] == [["F", "2s", "6s", "1m"]]
    discards = [e for e in events if e.type == "tile_discarded" and e.seat == 1]
    assert [(e.row, e.col) for e in discards] == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert snap["hand"]["turn"] == 2 and snap["hand"]["phase"] == "draw"
    assert snap["hand"]["seats"][2]["concealed_count"] == 13
    private = table.private_snapshot()
    assert private["hands"][1]["concealed"] == [
        "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5p"
    ]  # fmt: skip
    assert private["hands"][3]["unknown"] == 0


def test_pung_exposed_kong_and_replacement() -> None:
    table, events = run(
        DEAL
        + """
0 draw 4m
0 discard 4m
1 draw 9p
1 discard 9p
2 draw 5m
2 discard 5m
3 pung
3 discard C
0 draw 4p
0 discard 4p
2 kong
2 replace N
2 discard 1p
"""
    )
    assert kinds(events) == []
    claimed = [e for e in events if e.type in ("meld_claimed", "kong_declared")]
    assert [(e.seat, str(e.meld), e.from_seat) for e in claimed] == [
        (3, "[555m<3]", 2),
        (2, "[4444p<2]", 0),
    ]
    snap = table.snapshot()["hand"]
    assert snap["seats"][2]["melds"][0]["from_seat"] == 0
    assert snap["wall"]["replacements_taken"] == 1
    assert snap["seats"][0]["river"] == [["4m"]]  # the claimed 4p left seat 0's river
    assert snap["live_discard"] == {"seat": 2, "tile": "1p"}


def test_pung_overrides_a_chow_and_a_chow_cannot_override_a_pung() -> None:
    base = DEAL + "0 draw 6m\n0 discard 6m\n"
    table, events = run(base + "1 chow 456m\n3 pung\n")
    assert kinds(events) == []
    overridden = [e for e in events if e.type == "claim_overridden"]
    assert [(e.seat, e.by_seat) for e in overridden] == [(1, 3)]
    assert table.snapshot()["hand"]["seats"][1]["melds"] == []
    assert table.snapshot()["hand"]["turn"] == 3
    _table, events = run(base + "3 pung\n1 chow 456m\n")
    assert kinds(events) == ["claim_precedence"]


def test_win_intercepts_a_pung_and_lower_seat_beats_upper_seat() -> None:
    deal = DEAL.replace("111222333444p N", "111222333p 55p NN")
    _, events = run(deal + "0 draw 5p\n0 discard 5p\n2 pung\n1 win\n")
    assert kinds(events) == []
    assert [e.type for e in events][-4:] == [
        "meld_claimed",
        "claim_overridden",
        "win_declared",
        "hand_ended",
    ]


def test_robbing_the_kong() -> None:
    table, events = run(
        """
start
deal 0 123456789s EESS
deal 1 123456789m 12p SS
deal 2 33p 111222444p NN
deal 3 55667788m 99s WWC
0 draw N
0 discard N
1 draw F
1 discard F
2 draw C
2 discard C
3 draw 3p
3 discard 3p
2 pung
2 discard N
3 draw W
3 discard W
0 draw 9m
0 discard 9m
1 draw 1s
1 discard 1s
2 draw 3p
2 akong 3p
1 win 3p
"""
    )
    assert kinds(events) == []
    win = next(e for e in events if e.type == "win_declared")
    assert (win.robbing_kong, win.discarder, str(win.win_tile)) == (True, 2, "3p")
    melds = table.snapshot()["hand"]["seats"][2]["melds"]
    assert [m["meld"] for m in melds] == ["[333p<1]"]


def test_partial_information_is_accepted() -> None:
    table, events = run(
        """
start
deal 0 ?13
deal 1 ?13
deal 2 ?13
deal 3 ?13
0 draw ?
0 discard 6m
1 draw ?
1 discard 5m
2 pung
2 discard E
3 draw ?
3 discard 5m
"""
    )
    assert kinds(events) == []
    public = [public_form(e) for e in events if e.type == "tile_drawn"]
    assert all(to_dict(e)["tile"] is None for e in public)
    _, events2 = run("0 draw ?\n0 discard 5m\n", table)
    assert kinds(events2) == ["fifth_copy"]


def test_a_declared_hand_makes_an_unseen_win_scorable() -> None:
    table = Table("log")
    run("start\ndeal 0 ?13\ndeal 1 ?13\ndeal 2 ?13\ndeal 3 ?13\n0 draw ?\n0 discard 5p\n", table)
    events = table.apply(act.Win(seat=1, hand=parse_hand("123456789m123p5p")))
    win = next(e for e in events if e.type == "win_declared")
    assert win.hand == "123456789m1235p"


def test_strict_mode_raises_and_keeps_the_state() -> None:
    table = Table("log", strict=True)
    for action in script(DEAL):
        table.apply(action)
    before = table.snapshot()
    bad = act.Discard(seat=2, tile=parse_tile("E"))
    with pytest.raises(IllegalActionError, match=r"out_of_turn.*Discard\(") as info:
        table.apply(bad)
    assert info.value.action == bad
    assert table.snapshot() == before


def test_event_ids_are_reproducible_and_epoch_is_kept() -> None:
    _, first = run(DEAL + "0 draw 5p\n0 discard 5p\n1 win", Table("log", epoch=3))
    _, second = run(DEAL + "0 draw 5p\n0 discard 5p\n1 win", Table("log", epoch=3))
    assert [e.event_id for e in first] == [e.event_id for e in second]
    assert len({e.event_id for e in first}) == len(first)
    assert {e.epoch for e in first} == {3}


def test_timestamps_come_from_actions() -> None:
    table = Table("log")
    events = table.apply(act.HandStart(dealer=0, at=1000.5))
    assert events[0].timestamp == 1000.5


def test_correction_replaces_a_discard() -> None:
    table, events = run(DEAL + "0 draw 5p\n0 discard 9s\n")
    discard = next(e for e in events if e.type == "tile_discarded")
    fix = act.Correction(
        supersedes=discard.event_id, replacement=act.Discard(seat=0, tile=parse_tile("5p"))
    )
    out = table.apply(fix)
    assert [e.type for e in out] == ["correction_applied"]
    assert table.snapshot()["hand"]["seats"][0]["river"] == [["5p"]]
    assert [e.type for e in table.apply(act.Win(seat=1))][-2:] == ["win_declared", "hand_ended"]
    unknown = table.apply(act.Correction(supersedes="nope"))
    assert kinds(unknown) == ["unknown_event"]


def test_table_fault_becomes_an_event() -> None:
    table = Table("log")
    events = table.apply(act.TableFault(code="jam", detail="lift 2 stuck"))
    assert [(e.type, e.code) for e in events] == [("table_fault", "jam")]


def test_wsom_wall_counts_down_to_the_reserved_tiles() -> None:
    table = Table("wsom", rules=None)
    table.apply(act.HandStart(dealer=0, dice=(7, 11)))
    for seat in range(4):
        table.apply(act.Deal(seat=seat))
    wall = table.snapshot()["hand"]["wall"]
    assert (wall["dealt"], wall["live_left"], wall["reserved"]) == (53, 69, 14)
    assert table.snapshot()["hand"]["seats"][0]["concealed_count"] == 14


def test_national_flowers_are_replaced_from_the_tail() -> None:
    import random

    from engine.procedures import NATIONAL
    from engine.wall import procedure_tiles

    tiles = list(procedure_tiles(NATIONAL))
    random.Random(3).shuffle(tiles)
    table = Table(NATIONAL, rules=None)
    events = table.apply(act.HandStart(dealer=0, dice=(5,), wall=tuple(tiles)))
    for seat in range(4):
        events += table.apply(act.Deal(seat=seat))
    assert table.hand is not None
    replaced = 0
    for seat in range(4):  # dealer first, then in turn, until no flower is left
        while flowers := [t for t in table.hand.seats[seat].concealed_tiles() if t.is_flower]:
            events += table.apply(act.Flower(seat=seat, tile=flowers[0]))
            events += table.apply(act.Draw(seat=seat))
            replaced += 1
    assert kinds(events) == []
    assert replaced > 0
    snap = table.snapshot()["hand"]
    assert sum(len(s["flowers"]) for s in snap["seats"]) == replaced
    assert snap["wall"]["replacements_taken"] == replaced
    assert snap["wall"]["live_left"] == 144 - 53 - replaced
    assert [s["concealed_count"] for s in snap["seats"]] == [14, 13, 13, 13]
    assert snap["turn"] == 0
    dealer_tile = table.hand.seats[0].concealed_tiles()[0]
    assert kinds(table.apply(act.Discard(seat=0, tile=dealer_tile))) == []


def test_self_drawn_win_on_a_kong_replacement_is_flagged() -> None:
    _table, events = run(
        """
start
deal 0 1111m 234s 567p 9s NN
deal 1 123456789s 123p 5p
deal 2 111222333444p E
deal 3 55667788p 99p WWC
0 draw N
0 ckong 1m
0 replace 9s
0 win
"""
    )
    assert kinds(events) == []
    win = next(e for e in events if e.type == "win_declared")
    assert (win.self_drawn, win.kong_replacement, str(win.win_tile)) == (True, True, "9s")
    kong = next(e for e in events if e.type == "kong_declared")
    assert (kong.kind, str(kong.meld)) == ("concealed", "{1111m}")
