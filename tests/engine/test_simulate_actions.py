"""Simulated hands replay through the table state machine without a single violation."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.procedures import NATIONAL, WSOM, Procedure
from engine.simulate import simulate_game
from engine.simulate.actions import game_to_actions, to_actions
from engine.table import Table
from engine.tiles import Tile


def replay(
    procedure: Procedure, seed: int, rules: str | None = "mcr", **options: bool
) -> tuple[Table, Counter[str]]:
    game = simulate_game(procedure, seed, 5)
    table = Table(procedure, rules=rules)
    types: Counter[str] = Counter()
    for action in game_to_actions(game, **options):
        types.update(e.type for e in table.apply(action))
    return table, types


@pytest.mark.parametrize("seed", range(4))
def test_wsom_games_replay_with_zero_violations(seed: int) -> None:
    game = simulate_game(WSOM, seed, 5)
    table, types = replay(WSOM, seed)
    assert [str(v) for v in table.violations] == []
    assert types["win_declared"] == sum(1 for h in game.hands if h.win)
    assert types["washout"] == sum(1 for h in game.hands if h.washout)


@pytest.mark.parametrize("seed", range(4, 8))
def test_wsom_games_also_win_under_the_procedures_default_rule_set(seed: int) -> None:
    table, types = replay(WSOM, seed, rules=None)
    assert table.rules is not None and table.rules.name == WSOM.default_rules
    assert [str(v) for v in table.violations] == []
    assert types["win_declared"] == 4


def test_camera_style_replay_without_the_wall_order_but_with_revealed_hands() -> None:
    table, types = replay(WSOM, 5, with_wall=False, reveal=True)
    assert [str(v) for v in table.violations] == []
    assert types["win_declared"] == 4


def test_a_tampered_draw_is_caught_against_the_wall_order() -> None:
    hand = simulate_game(WSOM, 3, 1).hands[0]
    actions = to_actions(hand)
    index = next(i for i, a in enumerate(actions) if a.name == "draw")
    draw = actions[index]
    wrong = (
        Tile.parse("1m") if getattr(draw, "tile", None) != Tile.parse("1m") else Tile.parse("2m")
    )
    actions[index] = type(draw)(at=draw.at, seat=draw.seat, tile=wrong)  # type: ignore[call-arg,attr-defined]
    table = Table(WSOM, rules="mcr")
    for action in actions[: index + 1]:
        table.apply(action)
    assert any(v.kind.value == "wall_mismatch" for v in table.violations)


def test_national_games_replay_with_zero_violations() -> None:
    table, _ = replay(NATIONAL, 0)
    assert [str(v) for v in table.violations] == []
