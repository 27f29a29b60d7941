"""Deliberately broken hands produce the right typed violations, and the table keeps going."""

from __future__ import annotations

import random

import pytest

from engine import actions as act
from engine.events import Event
from engine.notation import parse_tile
from engine.procedures import WSOM
from engine.rulesets import ScoreResult, WinRequest, find_rules
from engine.table import Table
from engine.table.events import TileDrawn
from engine.violations import Severity, Violation, ViolationKind
from engine.wall import procedure_tiles
from tests.engine.table_script import DEAL, kinds, run


def test_fifth_copy_of_a_kind() -> None:
    _, events = run(DEAL + "0 draw 5m\n0 discard 5m\n1 draw 5m\n1 discard 5m\n")
    assert "fifth_copy" in kinds(events)


def test_out_of_turn_discard_is_reported_and_still_lands_in_the_river() -> None:
    table, events = run(DEAL + "0 draw 5p\n0 discard 5p\n2 discard N\n")
    assert "out_of_turn" in kinds(events)
    assert table.snapshot()["hand"]["seats"][2]["river"] == [["N"]]


def test_chow_from_a_seat_other_than_the_upper_seat() -> None:
    _, events = run(DEAL + "0 draw 6m\n0 discard 6m\n3 chow 678m\n")
    assert kinds(events) == ["chow_not_from_upper_seat"]


def test_short_hand_loses_the_right_to_win() -> None:
    _, events = run(DEAL + "0 discard 9s\n1 draw 4p\n1 discard 4p\n2 draw F\n2 discard F\n0 win")
    found = kinds(events)
    assert found[0] == "small_xianggong"
    assert found[-1] == "no_right_to_win"


def test_long_hand_is_big_xianggong_and_may_not_claim() -> None:
    _, events = run(DEAL + "0 draw 5p\n0 draw 6p\n0 discard 6p\n2 draw F\n2 discard 1p\n0 pung")
    found = kinds(events)
    assert "big_xianggong" in found
    assert found.count("big_xianggong") >= 2  # the long hand, then the refused claim


def test_tile_not_in_hand_and_nothing_to_claim() -> None:
    _, events = run(DEAL + "0 draw 5p\n0 discard C\n1 draw 1s\n1 discard 1s\n2 draw 5s\n3 pung\n")
    assert kinds(events) == ["tile_not_in_hand", "claim_after_next_draw", "tile_not_in_hand"]
    _, events = run(DEAL + "1 pung")
    assert kinds(events) == ["nothing_to_claim"]


def test_claim_after_the_next_player_drew_returns_the_drawn_tile() -> None:
    table, events = run(DEAL + "0 draw 5m\n0 discard 5m\n1 draw F\n3 pung\n")
    assert kinds(events) == ["claim_after_next_draw"]
    hand = table.snapshot()["hand"]
    assert hand["seats"][1]["concealed_count"] == 13
    assert hand["seats"][3]["melds"][0]["meld"] == "[555m<1]"  # from its lower seat


def test_no_hand_in_progress_and_not_a_flower() -> None:
    table = Table("log")
    events = table.apply(act.Discard(seat=0, tile=parse_tile("5m")))
    assert kinds(events) == ["no_hand_in_progress"]
    _, events = run(DEAL + "0 flower 5m")
    assert kinds(events) == ["not_a_flower"]


class NoChowRules:
    name = "no-chow"
    aliases = ()
    allows_chow = False
    max_winners_per_discard = 2

    def score(self, request: WinRequest) -> ScoreResult:
        return ScoreResult(total=1, valid=True)

    def settle(
        self, result: ScoreResult, *, winner: int, discarder: int | None
    ) -> tuple[int, int, int, int]:
        deltas = [0, 0, 0, 0]
        deltas[winner] += 1
        deltas[discarder if discarder is not None else (winner + 1) % 4] -= 1
        return (deltas[0], deltas[1], deltas[2], deltas[3])


def test_rule_sets_decide_chow_and_several_winners() -> None:
    table = Table("log", rules=NoChowRules())
    table, events = run(DEAL + "0 draw 5m\n0 discard 5m\n1 chow 456m\n", table)
    assert kinds(events) == ["chow_not_allowed"]
    two_waiting = """
start
deal 0 111999m 123s 456s E
deal 1 234567s 789s 678p 5p
deal 2 EE SSS WWW NNN CC
deal 3 234567m 789m 678p 5p
0 draw 5p
0 discard 5p
1 win
3 win
"""
    table, events = run(two_waiting, Table("log", rules=NoChowRules()))
    assert kinds(events) == []
    wins = [e for e in events if e.type == "win_declared"]
    assert [w.seat for w in wins] == [1, 3]
    ended = [e for e in events if e.type == "hand_ended"]
    assert [(e.winners, e.deltas) for e in ended] == [((1, 3), (-2, 1, 0, 1))]


def test_false_win_is_a_violation_and_play_goes_on() -> None:
    table = Table("log", rules=find_rules("mcr"))
    deal = DEAL.replace("123456789m 123p 5p", "123m 456p 789s 11m 5p 9m")
    _, events = run(deal + "0 draw 5p\n0 discard 5p\n1 win\n", table)
    assert kinds(events) == ["false_win"]
    assert "not a legal win" in next(e for e in events if e.type == "violation").detail
    assert table.snapshot()["hand"]["live_discard"] == {"seat": 0, "tile": "5p"}
    events = table.apply(act.Draw(seat=1, tile=parse_tile("1s")))
    assert kinds(events) == []


def _wsom_to_the_sea_bottom() -> tuple[Table, list[Event], int, act.Tile]:
    """A WSOM hand on a known wall, every seat discarding what it draws, up to the last tile."""
    tiles = list(procedure_tiles(WSOM))
    random.Random(5).shuffle(tiles)
    table = Table(WSOM, rules=None)
    events: list[Event] = []
    events += table.apply(act.HandStart(dealer=0, dice=(7, 11), wall=tuple(tiles)))
    for seat in range(4):
        events += table.apply(act.Deal(seat=seat))
    assert table.hand is not None
    first = table.hand.seats[0].concealed_tiles()[0]
    events += table.apply(act.Discard(seat=0, tile=first))
    seat, drawn = 1, first
    while True:
        batch = table.apply(act.Draw(seat=seat))
        events += batch
        draw = next(e for e in batch if isinstance(e, TileDrawn))
        assert draw.tile is not None
        drawn = draw.tile
        if draw.sea_bottom:
            return table, events, seat, drawn
        events += table.apply(act.Discard(seat=seat, tile=drawn))
        seat = (seat + 1) % 4


def test_wsom_wall_end_kong_on_sea_bottom() -> None:
    table, events, seat, drawn = _wsom_to_the_sea_bottom()
    assert kinds(events) == []
    draws = sum(isinstance(e, TileDrawn) for e in events)
    assert draws == 69
    found = kinds(table.apply(act.ConcealedKong(seat=seat, tile=drawn)))
    assert "kong_on_sea_bottom" in found


def test_wsom_wall_end_claim_on_river_bottom_then_washout() -> None:
    table, _events, seat, drawn = _wsom_to_the_sea_bottom()
    bottom = table.apply(act.Discard(seat=seat, tile=drawn))
    assert [e.river_bottom for e in bottom if e.type == "tile_discarded"] == [True]
    found = kinds(table.apply(act.Pung(seat=(seat + 2) % 4)))
    assert "claim_on_river_bottom" in found
    events = table.apply(act.Draw(seat=(seat + 1) % 4))
    assert "wall_exhausted" in kinds(events)


def test_washout_before_the_wall_end_is_flagged() -> None:
    table = Table(WSOM, rules=None)
    table.apply(act.HandStart(dealer=0, dice=(3, 4)))
    for seat in range(4):
        table.apply(act.Deal(seat=seat))
    events = table.apply(act.Washout())
    assert kinds(events) == ["premature_washout"]
    assert events[-1].type == "hand_ended"


def test_violation_values() -> None:
    violation = Violation.of(ViolationKind.FIFTH_COPY, None, "5 copies of 5m")
    assert violation.severity is Severity.ALERT
    assert str(violation) == "fifth_copy (table): 5 copies of 5m"
    assert Violation.of(ViolationKind.CLAIM_AFTER_NEXT_DRAW, 1, "x").severity is Severity.WARNING


@pytest.mark.parametrize("seat", [-1, 4])
def test_bad_seats_never_crash(seat: int) -> None:
    table = Table("log")
    run(DEAL, table)
    assert kinds(table.apply(act.Discard(seat=seat, tile=parse_tile("5m")))) == ["bad_action"]


def test_wsom_overtime_is_an_event_and_a_penalty_at_hand_end() -> None:
    table = Table(WSOM, rules=None)
    table.apply(act.HandStart(dealer=0, dice=(3, 4), at=0.0))
    for seat in range(4):
        table.apply(act.Deal(seat=seat, at=1.0))
    events = table.apply(
        act.Discard(seat=0, tile=parse_tile("5m"), at=40.0)
    )  # 25 s counted after grace
    overtime = [e for e in events if e.type == "overtime"]
    assert [(e.seat, e.scope, e.seconds, e.penalty) for e in overtime] == [(0, "discard", 10.0, 5)]
    table.apply(act.Draw(seat=1, at=41.0))  # the camera does not see which tile
    assert [e.type for e in table.apply(act.Discard(seat=1, tile=parse_tile("6m"), at=50.0))] == [
        "tile_discarded"
    ]
    ended = table.apply(act.Washout())[-1]
    assert ended.type == "hand_ended"
    assert (ended.penalties, ended.deltas) == ((5, 0, 0, 0), (-5, 0, 0, 0))
    assert [v.kind for v in table.violations] == [
        ViolationKind.OVERTIME,
        ViolationKind.PREMATURE_WASHOUT,
    ]


def test_river_order_seen_by_a_camera() -> None:
    table, events = run(DEAL + "0 draw 5p\n0 discard 5p\n1 draw 1s\n")
    assert kinds(events) == []
    good = table.apply(act.Discard(seat=1, tile=parse_tile("1s"), row=0, col=0))
    assert kinds(good) == []
    table.apply(act.Draw(seat=2, tile=parse_tile("F")))
    bad = table.apply(act.Discard(seat=2, tile=parse_tile("F"), row=1, col=2))
    assert kinds(bad) == ["river_order"]
    assert "row 0, col 0" in next(e for e in bad if e.type == "violation").detail


def test_a_drawn_tile_returned_to_a_known_wall_is_drawn_again() -> None:
    for seed in range(200):  # a shuffle where East can discard a tile North holds a pair of
        tiles = list(procedure_tiles(WSOM))
        random.Random(seed).shuffle(tiles)
        table = Table(WSOM, rules=None)
        table.apply(act.HandStart(dealer=0, dice=(6, 6), wall=tuple(tiles)))
        for seat in range(4):
            table.apply(act.Deal(seat=seat))
        assert table.hand is not None
        east, north = table.hand.seats[0], table.hand.seats[3]
        pairs = [t for t in east.known if north.known[t] >= 2]
        if pairs:
            break
    else:
        pytest.fail("no suitable shuffle")
    table.apply(act.Discard(seat=0, tile=pairs[0]))
    drawn = next(e.tile for e in table.apply(act.Draw(seat=1)) if isinstance(e, TileDrawn))
    live = table.wall.live_left
    assert kinds(table.apply(act.Pung(seat=3))) == ["claim_after_next_draw"]
    assert table.wall.live_left == (live or 0) + 1
    north_tile = table.hand.seats[3].concealed_tiles()[0]
    assert kinds(table.apply(act.Discard(seat=3, tile=north_tile))) == []
    again = next(e.tile for e in table.apply(act.Draw(seat=0)) if isinstance(e, TileDrawn))
    assert again == drawn


def test_a_late_win_claim_that_outranks_the_winner_is_flagged_for_correction() -> None:
    two_waiting = """
start
deal 0 111999m 123s 456s E
deal 1 234567s 789s 678p 5p
deal 2 EE SSS WWW NNN CC
deal 3 234567m 789m 678p 5p
0 draw 5p
0 discard 5p
3 win
1 win
"""
    table, events = run(two_waiting)
    found = [e for e in events if e.type == "violation"]
    assert [e.kind for e in found] == ["claim_precedence"]
    win = next(e for e in events if e.type == "win_declared")
    assert win.seat == 3 and win.event_id in found[0].detail
    fix = act.Correction(supersedes=win.event_id, replacement=act.Win(seat=1))
    table.apply(fix)
    assert table.hand is not None and table.hand.winners == [1]
