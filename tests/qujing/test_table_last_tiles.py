"""The last-four-tiles rule through engine.table alone: a legal winning discard or draw among the
last four tiles must be taken; before them, passing only makes the seat furiten."""

from __future__ import annotations

from engine.actions import Deal, Discard, Draw, HandStart, Win
from engine.notation import parse_tiles
from engine.table import Table
from engine.table.events import TileDrawn
from tests.qujing.helpers import wall_with

DEALT = [
    "123m456p789s1239pC",
    "2345m6789m77sNNS",
    "111p222p333s55sEE",  # waits on E / 5s: all pungs
    "4488m55p66s8sWWPF",
]


def _table(last_live: str) -> Table:
    table = Table("qujing", rules="qujing")
    table.apply(HandStart(dealer=0, wall=wall_with(DEALT, last_live)))
    for seat in range(4):
        table.apply(Deal(seat=seat))
    hand = table.hand
    assert hand is not None
    assert hand.seats[2].concealed_tiles() == tuple(sorted(parse_tiles(DEALT[2])))
    return table


def _play(table: Table, draws: int) -> list[int]:
    """Every seat discards what it draws (the dealer first discards its 14th tile)."""
    hand = table.hand
    assert hand is not None
    table.apply(Discard(seat=0, tile=hand.seats[0].concealed_tiles()[-1]))
    lefts = []
    for k in range(1, draws + 1):
        seat = k % 4
        drawn = next(e for e in table.apply(Draw(seat=seat)) if isinstance(e, TileDrawn))
        assert drawn.tile is not None and drawn.live_left is not None
        lefts.append(drawn.live_left)
        table.apply(Discard(seat=seat, tile=drawn.tile))
    return lefts


def _must_win(table: Table) -> list[tuple[int | None, str]]:
    return [(v.seat, v.detail) for v in table.violations if v.kind.value == "must_win"]


def test_a_winning_discard_among_the_last_four_tiles_must_be_taken() -> None:
    # Seat 1 draws E (2 left) and discards it; seat 2 waits on E and lets it go.
    table = _table("8pE9m9m")
    lefts = _play(table, 82)
    assert lefts[-3:] == [3, 2, 1]
    found = _must_win(table)
    assert [seat for seat, _ in found] == [2], table.violations
    assert "let E go" in found[0][1]


def test_a_winning_draw_among_the_last_four_tiles_must_be_declared() -> None:
    table = _table("8p9m5s9m")  # seat 2 draws 5s (1 left) and discards it
    _play(table, 82)
    assert _must_win(table) == [
        (2, "drew a winning tile among the last tiles and did not declare the win")
    ]


def test_declaring_the_winning_draw_is_no_violation() -> None:
    table = _table("8p9m5s9m")
    _play(table, 81)  # up to seat 1's draw and discard
    drawn = [e for e in table.apply(Draw(seat=2)) if isinstance(e, TileDrawn)]
    assert drawn[0].live_left == 1 and str(drawn[0].tile) == "5s"
    assert [e.type for e in table.apply(Win(seat=2))][:1] == ["win_declared"]
    assert _must_win(table) == []


def test_before_the_last_four_tiles_passing_is_allowed() -> None:
    # Seat 3 draws E with 4 tiles still in the wall (not one of the last four) and discards it.
    table = _table("E8p9mC9m")
    lefts = _play(table, 80)
    assert lefts[-2:] == [4, 3]
    assert _must_win(table) == []
    hand = table.hand
    assert hand is not None  # the pass was seen: furiten follows, not a must-win violation
    assert hand.rules_memory.win_problem(2, on_discard=True) is not None
