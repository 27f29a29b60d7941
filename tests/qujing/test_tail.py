"""The two face-up tail tiles: the readings, the shared wall and a scripted tail-tile kong."""

from __future__ import annotations

import random

from engine.actions import ConcealedKong, Deal, Discard, Draw, HandStart, Win
from engine.events import to_dict
from engine.notation import parse_tiles
from engine.procedures import find_procedure
from engine.qujing import QujingOptions, QujingRuleSet
from engine.qujing.tail import replacement_picks, replacement_problem
from engine.table import Table
from engine.tiles import Tile
from engine.wall import Wall, procedure_tiles
from tests.qujing.helpers import fan_ids, score, wall_with

DEFAULT = QujingOptions()
BLOOM_ONLY = QujingOptions(tail_reading="bloom-only")


def test_any_kong_takes_either_face_up_tile_never_a_face_down_one() -> None:
    assert replacement_picks(30, completes_hand=False, options=DEFAULT) == (0, 1)
    assert replacement_picks(30, completes_hand=True, options=DEFAULT) == (0, 1)
    problem = replacement_problem(2, 30, completes_hand=False, options=DEFAULT)
    assert problem is not None and "'any-kong'" in problem and "pick 2" in problem


def test_bloom_only_keeps_the_face_up_tiles_for_a_winning_kong() -> None:
    assert replacement_picks(30, completes_hand=False, options=BLOOM_ONLY) == (2,)
    assert replacement_picks(30, completes_hand=True, options=BLOOM_ONLY) == (0, 1, 2)
    assert replacement_problem(0, 30, completes_hand=False, options=BLOOM_ONLY) is not None
    # At the very end only face-up tiles remain, so they are taken.
    assert replacement_picks(2, completes_hand=False, options=BLOOM_ONLY) == (0, 1)
    assert replacement_picks(0, completes_hand=False, options=BLOOM_ONLY) == ()
    assert replacement_problem(0, 0, completes_hand=True, options=BLOOM_ONLY) == (
        "no tile is left in the wall for a kong replacement"
    )


def test_taking_a_face_up_tile_turns_the_next_tail_tile_face_up() -> None:
    wall = Wall(find_procedure("qujing"), tiles=procedure_tiles(find_procedure("qujing")))
    wall.deal()
    before = wall.revealed_tail()
    upcoming = wall.peek_replacement(0)
    assert upcoming == before[0]
    wall.draw_replacement(before[0], pick=0)
    after = wall.revealed_tail()
    assert len(after) == 2
    assert after[0] == before[1]  # the other face-up tile stays; the next one turns up
    assert wall.live == 83 - 1


def test_normal_draws_reach_the_face_up_tiles_at_the_end() -> None:
    wall = Wall(find_procedure("qujing"), tiles=procedure_tiles(find_procedure("qujing")))
    wall.deal()
    face_up = set(wall.revealed_tail())
    drawn = [wall.draw() for _ in range(83)]
    assert face_up <= set(drawn)
    assert wall.exhausted


def test_the_qujing_procedure_drives_the_shared_wall() -> None:
    procedure = find_procedure("qujing")
    assert (procedure.tile_count, procedure.reserved_tiles) == (136, 0)
    assert procedure.revealed_tail_tiles == 2
    assert len(procedure_tiles(procedure)) == 136
    wall = Wall.shuffled(procedure, random.Random(8))
    wall.deal()
    assert wall.live == 83  # the whole wall is drawn
    before = wall.revealed_tail()
    assert len(before) == 2 and all(t is not None for t in before)
    taken = wall.draw_replacement(pick=1)
    assert taken == before[1]
    after = wall.revealed_tail()
    assert after[0] == before[0] and len(after) == 2


def test_a_player_waiting_on_a_face_up_tail_tile_takes_it_with_a_kong() -> None:
    """Scripted: seat 0 holds 444p and waits on 7s; 7s lies face up in the tail."""
    rules = QujingRuleSet()
    procedure = find_procedure("qujing")
    order = list(procedure_tiles(procedure))
    rng = random.Random(3)
    rng.shuffle(order)
    wall = Wall(procedure, tiles=order)
    wall.deal()
    revealed = wall.revealed_tail()
    target = revealed[1]
    assert target is not None
    # Seat 0 declares a concealed kong and chooses the face-up tile it is waiting on.
    offset = next(
        i
        for i in replacement_picks(wall.live, completes_hand=True, options=rules.options)
        if revealed[i] == target
    )
    assert wall.draw_replacement(target, pick=offset) == target
    # Its hand: 123m 456m 789m {4444p} + a single target tile: the replacement completes the pair.
    result = score(
        f"123456789m{target}{{4444p}}",
        str(target),
        rules,
        self_drawn=True,
        kong_replacement=True,
    )
    assert result.valid, result.error
    assert "kong-bloom" in fan_ids(result)
    assert result.payments is not None and result.payments.each_other >= 3


def test_the_table_lets_a_kong_take_either_face_up_tail_tile() -> None:
    """Scripted through engine.table: the dealer kongs and takes the *second* face-up tile."""
    dealt = ["123m456m789m4444pE", "2345m6789m77sNNS", "111p222p333s55sCC", "4488m55p66s8sWWPF"]
    table = Table("qujing", rules="qujing")
    table.apply(HandStart(dealer=0, wall=wall_with(dealt, "9sE")))
    for seat in range(4):
        table.apply(Deal(seat=seat))
    assert table.wall.wall is not None
    assert table.wall.wall.revealed_tail() == parse_tiles("9sE")
    table.apply(ConcealedKong(seat=0, tile=Tile.parse("4p")))
    drawn = table.apply(Draw(seat=0, tile=Tile.parse("E"), replacement=True))
    assert [e.type for e in drawn] == ["tile_drawn"]  # no wall mismatch: E was face up
    assert table.wall.wall.revealed_tail()[0] == Tile.parse("9s")  # the other stays face up
    wins = [to_dict(e) for e in table.apply(Win(seat=0)) if e.type == "win_declared"]
    assert wins[0]["score"]["fans"] == [
        {"id": "kong-bloom", "name": "Kong Bloom", "points": 1, "count": 1}
    ]
    assert table.scores == [9, -3, -3, -3]
    assert table.violations == ()


def _kong_then_draw(rules: QujingRuleSet, pick: str) -> Table:
    """Seat 0 kongs 4p and names its replacement: 9s or E lie face up, 8p face down in front."""
    dealt = ["123m456m789m4444pE", "2345m6789m77sNNS", "111p222p333s55sCC", "4488m55p66s8sWWPF"]
    table = Table("qujing", rules=rules)
    table.apply(HandStart(dealer=0, wall=wall_with(dealt, "8pS9sE")))
    for seat in range(4):
        table.apply(Deal(seat=seat))
    table.apply(ConcealedKong(seat=0, tile=Tile.parse("4p")))
    drawn = table.apply(Draw(seat=0, tile=Tile.parse(pick), replacement=True))
    assert [e.type for e in drawn] == ["tile_drawn"], drawn  # the wall allows every pick
    return table


def _tail_rule(table: Table) -> list[int | None]:
    return [v.seat for v in table.violations if v.kind.value == "tail_rule"]


def test_bloom_only_reading_flags_a_face_up_tile_taken_without_winning() -> None:
    table = _kong_then_draw(QujingRuleSet(BLOOM_ONLY), "9s")
    table.apply(Discard(seat=0, tile=Tile.parse("9s")))
    assert _tail_rule(table) == [0]
    assert "'bloom-only'" in table.violations[0].detail
    winner = _kong_then_draw(QujingRuleSet(BLOOM_ONLY), "E")
    assert [e.type for e in winner.apply(Win(seat=0))][:1] == ["win_declared"]
    assert winner.violations == ()
    default = _kong_then_draw(QujingRuleSet(), "9s")
    default.apply(Discard(seat=0, tile=Tile.parse("9s")))
    assert default.violations == ()


def test_bloom_only_kong_without_a_win_takes_the_face_down_tile_in_front() -> None:
    table = _kong_then_draw(QujingRuleSet(BLOOM_ONLY), "8p")
    assert table.wall.wall is not None
    assert table.wall.wall.revealed_tail() == parse_tiles("9sE")  # both stay face up
    table.apply(Discard(seat=0, tile=Tile.parse("8p")))
    assert table.violations == ()


def test_any_kong_reading_flags_the_face_down_tile() -> None:
    table = _kong_then_draw(QujingRuleSet(), "8p")
    table.apply(Discard(seat=0, tile=Tile.parse("8p")))
    assert _tail_rule(table) == [0]
    assert "'any-kong'" in table.violations[0].detail and "pick 2" in table.violations[0].detail
