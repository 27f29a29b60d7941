"""``tilesight demo`` as the README runs it: private Mosquitto, emulated table, engine, capture."""

from __future__ import annotations

import subprocess

from tests.service.conftest import TILESIGHT


def test_demo_command_plays_hands_end_to_end():
    done = subprocess.run(
        [
            TILESIGHT,
            "demo",
            "--no-vision",
            "--hands",
            "2",
            "--pace",
            "0",
            "--seed",
            "3",
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "started a private Mosquitto at mqtt://127.0.0.1:" in out
    assert out.count("table built the walls: 34/34/34/34 tiles") == 2  # the emulated table
    assert "WINS on" in out or "washout" in out
    assert "0 unacknowledged), 0 rule violations" in out
    assert "score capture:" in out and "complete" in out and "INCOMPLETE" not in out
    assert "[####################] 2/2 hands" in out
    assert "Traceback" not in done.stderr


def test_demo_rejects_bad_options():
    done = subprocess.run(
        [TILESIGHT, "demo", "--table", "T 1"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "'T 1'" in done.stderr and "Traceback" not in done.stderr


def test_the_live_log_tells_an_unscored_win_and_its_later_score() -> None:
    from engine.actions import ShowKong, Win
    from engine.notation import parse_hand, parse_tile
    from engine.table import Table
    from tests.engine.table_script import script
    from tilesight.demo.play import describe

    table = Table("log", rules="mcr")
    deal = "start\n" + "".join(f"deal {seat} ?13\n" for seat in range(4))
    for action in script(
        deal + "0 draw ?\n0 ckong ?\n0 draw ?\n0 discard 5m\n1 draw ?\n1 discard 5p\n"
    ):
        table.apply(action)
    win = table.apply(Win(seat=0, hand=parse_hand("123m 456s 5p 789p")))[0]
    assert describe(win).endswith("seat 0 WINS on 5p: unscored until its kong is shown")
    scored = table.apply(ShowKong(seat=0, tile=parse_tile("E")))[1]
    line = describe(scored)
    assert "seat 0 win scored: " in line and "Concealed Kong 2" in line
    assert f"{scored.score['total']} points" in line  # type: ignore[attr-defined]


def test_the_live_log_says_when_a_self_drawn_tile_was_not_seen() -> None:
    from engine.actions import Win
    from engine.notation import parse_hand
    from engine.table import Table
    from engine.table.events import WinDeclared
    from tests.engine.table_script import script
    from tilesight.demo.play import describe

    table = Table("log", rules="mcr")
    deal = "start\n" + "".join(f"deal {seat} ?13\n" for seat in range(4))
    play = "".join(f"{s} draw ?\n{s} discard {t}\n" for s, t in enumerate(["9m", "1s", "2s", "3s"]))
    for action in script(deal + play + "0 draw ?\n"):
        table.apply(action)
    win = next(
        e
        for e in table.apply(Win(seat=0, hand=parse_hand("123m456s789pEEE55p")))
        if isinstance(e, WinDeclared)
    )
    line = describe(win)
    assert f"WINS on {win.win_tile} (self-drawn, winning tile not seen): " in line
