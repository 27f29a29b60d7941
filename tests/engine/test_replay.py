"""The 16 real games of the Botzone human sample replay cleanly, with the recorded results.

Fans are checked twice: against the PyMahjongGB reference calculator fed with the table's own
WinRequest (this checks the flags, melds and winds the table derives), and against the project's
MCR rule set.
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.actions import Washout, Win
from engine.botzone import BotzoneGame, parse_botzone
from engine.notation import format_botzone_tile
from engine.rulesets import (
    FanScore,
    Payments,
    ScoreResult,
    WinRequest,
    find_rules,
)
from engine.table import Table
from engine.table.events import TileDrawn, TilesDealt, WinDeclared
from engine.tiles import MeldKind, RelativeSeat

MahjongGB = pytest.importorskip("MahjongGB")

_OFFER = {RelativeSeat.UPPER: 1, RelativeSeat.OPPOSITE: 2, RelativeSeat.LOWER: 3}


class ReferenceRules:
    """A test rule set: PyMahjongGB scores, base-8 settlement (MCR section 16.1)."""

    name = "reference"
    aliases = ()
    allows_chow = True
    max_winners_per_discard = 1

    def __init__(self) -> None:
        self.requests: list[WinRequest] = []

    def score(self, request: WinRequest) -> ScoreResult:
        self.requests.append(request)
        packs = []
        for meld in request.hand.melds:
            kind = {MeldKind.CHOW: "CHI", MeldKind.PUNG: "PENG"}.get(meld.kind, "GANG")
            tile = meld.tiles[1] if meld.kind is MeldKind.CHOW else meld.first
            offer = 0 if meld.is_concealed else _OFFER[meld.source or RelativeSeat.UPPER]
            if meld.kind is MeldKind.CHOW and meld.claimed is not None:
                offer = sorted(meld.tiles).index(meld.claimed) + 1
            packs.append((kind, format_botzone_tile(tile), offer))
        fans = MahjongGB.MahjongFanCalculator(
            pack=tuple(packs),
            hand=tuple(format_botzone_tile(t) for t in request.hand.concealed),
            winTile=format_botzone_tile(request.win_tile),
            flowerCount=request.flowers,
            isSelfDrawn=request.self_drawn,
            is4thTile=request.last_of_kind,
            isAboutKong=request.kong_replacement or request.robbing_kong,
            isWallLast=request.last_tile,
            seatWind=int(request.seat_wind),
            prevalentWind=int(request.prevalent_wind),
            verbose=True,
        )
        scores = tuple(
            FanScore(id=en, name=name, chinese=name, points=point, count=cnt)
            for point, cnt, name, en in fans
        )
        total = sum(f.points * f.count for f in scores)
        payments = Payments(each_other=8 if not request.self_drawn else 8 + total)
        return ScoreResult(total, total >= 8, scores, payments)

    def settle(
        self, result: ScoreResult, *, winner: int, discarder: int | None
    ) -> tuple[int, int, int, int]:
        deltas = [0, 0, 0, 0]
        for seat in range(4):
            if seat != winner:
                pay = 8 + result.total if discarder in (None, seat) else 8
                deltas[seat] -= pay
                deltas[winner] += pay
        return (deltas[0], deltas[1], deltas[2], deltas[3])


@functools.cache
def _parse(path: Path) -> list[BotzoneGame]:
    return parse_botzone(path.read_text(encoding="utf-8"))


@pytest.fixture
def games(shared_dir: Path) -> list[BotzoneGame]:
    return _parse(shared_dir / "data/mcr-logs/human-sample.txt")


def _replay(game: BotzoneGame, rules: Any = None) -> tuple[Table, list[list[Any]]]:
    table = Table("log", rules=rules, table_id=game.match_id)
    return table, [table.apply(action) for action in game.actions]


def test_sample_has_sixteen_games(games: list[BotzoneGame]) -> None:
    assert len(games) == 16
    assert sum(g.expected.washout for g in games) == 2
    assert sum(g.expected.winner is not None for g in games) == 14


def test_every_game_replays_without_violations_and_conserves_tiles(
    games: list[BotzoneGame],
) -> None:
    for game in games:
        table, per_action = _replay(game)
        events = [e for batch in per_action for e in batch]
        assert [e for e in events if e.type == "violation"] == [], game.match_id
        taken = sum(e.count for e in events if isinstance(e, TilesDealt))
        taken += sum(1 for e in events if isinstance(e, TileDrawn))
        assert table.hand is not None
        on_table = sum(
            s.concealed_count + len(s.river) + len(s.flowers) + sum(len(m.tiles) for m in s.melds)
            for s in table.hand.seats
        )
        assert on_table == taken, game.match_id
        seen: Counter[Any] = Counter()
        for seat in table.hand.seats:
            seen.update(seat.known.elements())
            seen.update(seat.river)
            seen.update(t for m in seat.melds for t in m.tiles)
        assert max(seen.values()) <= 4


def test_each_win_and_washout_happens_at_the_recorded_action(games: list[BotzoneGame]) -> None:
    for game in games:
        _table, per_action = _replay(game)
        ends = [
            (i, e.type)
            for i, batch in enumerate(per_action)
            for e in batch
            if e.type in ("win_declared", "washout")
        ]
        final = len(game.actions) - 1
        assert ends == [(final, "washout" if game.expected.washout else "win_declared")]
        last = game.actions[final]
        if game.expected.washout:
            assert isinstance(last, Washout)
        else:
            assert isinstance(last, Win)
            win = next(e for e in per_action[final] if isinstance(e, WinDeclared))
            assert (win.seat, win.win_tile) == (game.expected.winner, game.expected.win_tile)


def test_reference_fans_and_score_changes_equal_the_record(games: list[BotzoneGame]) -> None:
    for game in games:
        if game.expected.washout:
            continue
        table, per_action = _replay(game, ReferenceRules())
        win = next(e for e in per_action[-1] if isinstance(e, WinDeclared))
        assert win.score is not None
        fans = sorted((_plain(f["name"]), f["count"]) for f in win.score["fans"])
        assert fans == sorted(game.expected.fans), game.match_id
        assert win.score["total"] == game.expected.total
        assert win.deltas == game.expected.score, game.match_id
        assert tuple(table.scores) == game.expected.score


def test_project_mcr_rules_reproduce_the_record(games: list[BotzoneGame]) -> None:
    rules = find_rules("mcr")
    for game in games:
        if game.expected.washout:
            continue
        _table, per_action = _replay(game, rules)
        wins = [e for e in per_action[-1] if isinstance(e, WinDeclared)]
        assert len(wins) == 1, (game.match_id, list(per_action[-1]))
        score = wins[0].score
        assert score is not None
        by_id = {f.id: f for f in rules.score(_request(game)).fans}
        names = sorted((_plain(by_id[f["id"]].chinese), f["count"]) for f in score["fans"])
        assert names == sorted(game.expected.fans), game.match_id
        assert wins[0].deltas == game.expected.score, game.match_id


#: The record's names for the wait fans (PyMahjongGB and the scorer say 独听・边张 etc.).
_RECORD_NAMES = {"独听・边张": "边张", "独听・嵌张": "嵌张", "独听・单钓": "单钓将"}


def _plain(chinese: str) -> str:
    return _RECORD_NAMES.get(chinese, chinese)


def _request(game: BotzoneGame) -> WinRequest:
    """Re-derive the request the table scored (replaying with the reference rules records it)."""
    reference = ReferenceRules()
    _replay(game, reference)
    return reference.requests[-1]
