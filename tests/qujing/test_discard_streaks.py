"""Ten winds / seven winds declared at the shared table: the discards come from the table."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.actions import Deal, Discard, Draw, HandStart, Win
from engine.events import to_dict
from engine.notation import parse_tiles
from engine.table import Table
from engine.tiles import KINDS, Tile

HANDS = [
    "123m456p789s1239p5m",  # dealer, 14
    "2345m6789m45789s",  # seat 1: no winning shape with any tile it draws here
    "111p222p333s55sWW",
    "4488m55p66s8sSSPF",
]


def _play(honours: str, turns: int) -> tuple[Table, list[dict[str, object]]]:
    """Seat 1 draws and discards ``honours`` in order; the others draw and discard numbered
    tiles nobody holds more than twice; then seat 1 draws once more and declares a win."""
    table = Table("qujing", rules="qujing")
    table.apply(HandStart(dealer=0))
    for seat, tiles in enumerate(HANDS):
        table.apply(Deal(seat=seat, tiles=parse_tiles(tiles)))
    pool = Counter(dict.fromkeys(KINDS, 4)) - Counter(t for h in HANDS for t in parse_tiles(h))
    numbered = [k for k in KINDS if k.is_numbered for _ in range(min(pool[k], 2))]
    streak = list(parse_tiles(honours))
    pool.subtract(Counter(streak))
    assert all(n >= 0 for n in pool.values())
    table.apply(Discard(seat=0, tile=Tile.parse("5m")))
    for turn in range(turns):
        for seat in (1, 2, 3, 0):
            tile = streak[turn] if seat == 1 else numbered.pop()
            table.apply(Draw(seat=seat, tile=tile))
            table.apply(Discard(seat=seat, tile=tile))
    table.apply(Draw(seat=1, tile=numbered.pop()))
    events = [to_dict(e) for e in table.apply(Win(seat=1))]
    return table, events


def test_ten_winds_is_declared_after_ten_honour_discards() -> None:
    table, events = _play("ESWNCFPEEN", 10)
    win = next(e for e in events if e["type"] == "win_declared")
    assert [f["id"] for f in win["score"]["fans"]] == ["ten-winds"]  # type: ignore[index]
    assert win["score"]["payments"] == {"each_other": 3}  # type: ignore[index]
    table.apply(HandStart())
    assert table.scores == [-3, 9, -3, -3]
    assert table.violations == ()


def test_seven_winds_needs_seven_different_honours() -> None:
    _, events = _play("ESWNCFP", 7)
    win = next(e for e in events if e["type"] == "win_declared")
    assert [f["id"] for f in win["score"]["fans"]] == ["seven-winds"]  # type: ignore[index]


@pytest.mark.parametrize("honours", ["ESWNCFE", "ESWNC"])
def test_a_broken_or_short_streak_is_a_false_win(honours: str) -> None:
    _, events = _play(honours, len(honours))
    kinds = [e.get("kind") for e in events]
    assert "false_win" in kinds
