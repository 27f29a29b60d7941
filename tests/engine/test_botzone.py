"""The Botzone importer: actions, recorded results, clear errors, and no crash on any input."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import actions as act
from engine.botzone import BotzoneFormatError, parse_botzone
from engine.tiles import Tile, Wind

GAME = """Match abc
Wind 1
Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4
Player 1 Deal B1 B2 B3 B4 B5 B6 B7 B8 B9 T5 T6 T7 T8
Player 2 Deal F1 F1 F2 F2 F3 F3 F4 F4 J1 J1 J2 J2 J3
Player 3 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 T9 T9 T9 J3
Player 0 Draw T5
Player 0 Play T5
Player 2 Peng T5 Ignore Player 1 Chi T6
Player 2 Play J3
Player 3 Draw B1
Player 3 AnGang T9
Player 3 Draw B2
Player 3 Hu B2
Fan 8 自摸*1+四暗刻*1
Score -16 -16 -16 48

Match def
Wind 0
Player 0 Deal W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4
Huang
Score 0 0 0 0
"""


def test_actions_and_expected_results() -> None:
    first, second = parse_botzone(GAME)
    assert (first.match_id, first.prevalent_wind, first.line) == ("abc", Wind.SOUTH, 1)
    kinds = [type(a).__name__ for a in first.actions]
    assert kinds[:5] == ["HandStart", "Deal", "Deal", "Deal", "Deal"]
    assert kinds[5:] == [
        "Draw",
        "Discard",
        "Chow",  # the claim that lost on precedence comes first
        "Pung",
        "Discard",
        "Draw",
        "ConcealedKong",
        "Draw",
        "Win",
    ]
    chow = first.actions[7]
    assert isinstance(chow, act.Chow)
    assert [str(t) for t in chow.tiles] == ["5s", "6s", "7s"]
    assert first.expected.fans == (("自摸", 1), ("四暗刻", 1))
    assert (first.expected.total, first.expected.score) == (8, (-16, -16, -16, 48))
    assert (first.expected.winner, first.expected.win_tile) == (3, Tile.parse("2p"))
    assert second.expected.washout and isinstance(second.actions[-1], act.Washout)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("Player 0 Deal W1 W2", "a deal has 13 tiles"),
        ("Player 5 Draw W1", "seat 5 is out of range"),
        ("Player 0 Draw X9", "not a Botzone tile code"),
        ("Player 0 Dance W1", "unknown verb"),
        ("Player 0 Chi W9", "cannot be the middle tile"),
        ("Fan 8 自摸", "a fan is"),
        ("Score 1 2 3", "needs 4 value"),
        ("Bogus", "unknown line type"),
    ],
)
def test_malformed_lines_name_the_line(line: str, why: str) -> None:
    text = f"Match x\nWind 0\n{line}\n"
    with pytest.raises(BotzoneFormatError) as info:
        parse_botzone(text)
    assert str(info.value).startswith("line 3: ")
    assert why in str(info.value)
    assert repr(line) in str(info.value)


def test_structure_errors() -> None:
    with pytest.raises(BotzoneFormatError, match="does not start with a 'Match' line"):
        parse_botzone("Wind 0\n")
    with pytest.raises(BotzoneFormatError, match="no Wind line"):
        parse_botzone("Match x\n")
    with pytest.raises(BotzoneFormatError, match="before the Wind line"):
        parse_botzone("Match x\nPlayer 0 Draw W1\n")


_WORDS = st.sampled_from(
    ["Match", "Wind", "Player", "Deal", "Draw", "Play", "Chi", "Peng", "Gang", "AnGang",
     "BuGang", "Hu", "Ignore", "Fan", "Score", "Huang", "0", "1", "3", "4", "-2", "W1", "T9",
     "B5", "F4", "J3", "H8", "W0", "*", "自摸*1+平和*2", "x"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_WORDS, max_size=16).map(" ".join), max_size=30))
def test_fuzzed_records_never_crash(lines: list[str]) -> None:
    try:
        parse_botzone("\n".join(lines))
    except BotzoneFormatError as exc:
        assert str(exc).startswith(("line ", "game at line "))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_never_crashes(text: str) -> None:
    with contextlib.suppress(BotzoneFormatError):
        parse_botzone(text)


def test_the_real_sample_parses(shared_dir: object) -> None:
    from pathlib import Path

    path = Path(str(shared_dir)) / "data/mcr-logs/human-sample.txt"
    games = parse_botzone(path.read_text(encoding="utf-8"))
    assert len(games) == 16
    assert all(isinstance(g.actions[0], act.HandStart) for g in games)
