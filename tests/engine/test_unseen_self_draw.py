"""A self-drawn win on a camera-only table: the draw was not seen, the whole hand is declared,
and the engine takes the winning tile that scores the most."""

from __future__ import annotations

from engine import actions as act
from engine.events import to_dict
from engine.notation import format_tiles, parse_hand
from engine.table import Table
from tests.engine.table_script import kinds, run

CAMERA_DEAL = "start\ndeal 0 ?13\ndeal 1 ?13\ndeal 2 ?13\ndeal 3 ?13\n"
PLAY = "".join(
    f"{seat} draw ?\n{seat} discard {tile}\n" for seat, tile in enumerate(["9m", "1s", "2s", "3s"])
)


def _self_drawn(whole: str) -> tuple[Table, dict[str, object]]:
    table, _ = run(CAMERA_DEAL + PLAY + "0 draw ?\n", Table("log", rules="mcr"))
    events = [to_dict(e) for e in table.apply(act.Win(seat=0, hand=parse_hand(whole)))]
    assert kinds(table.apply(act.HandStart())) == []
    return table, next(e for e in events if e["type"] == "win_declared")


def _known_draw_total(hand: str, tile: str) -> int:
    """The same win, its drawn tile known: what each reading scores."""
    table, _ = run(CAMERA_DEAL + PLAY + f"0 draw {tile}\n", Table("log", rules="mcr"))
    events = [to_dict(e) for e in table.apply(act.Win(seat=0, hand=parse_hand(hand)))]
    win = next((e for e in events if e["type"] == "win_declared"), None)
    return -1 if win is None else int(win["score"]["total"])  # type: ignore[index]


def test_the_winning_tile_of_an_unseen_draw_is_the_best_scoring_one() -> None:
    table, win = _self_drawn("123m 456s 789p EEE 55p")
    assert win["self_drawn"] and win["win_tile_inferred"] and win["discarder"] is None
    assert win["score"] is not None and win["score"]["valid"]  # type: ignore[index]
    whole = parse_hand("123m 456s 789p EEE 55p").concealed
    readings = {}
    for tile in dict.fromkeys(whole):
        rest = list(whole)
        rest.remove(tile)
        readings[str(tile)] = _known_draw_total(format_tiles(tuple(rest)), str(tile))
    assert win["score"]["total"] == max(readings.values())  # type: ignore[index]
    assert readings[str(win["win_tile"])] == max(readings.values())
    total = int(win["score"]["total"])  # type: ignore[index]
    assert win["deltas"] == [3 * (total + 8), -(total + 8), -(total + 8), -(total + 8)]
    assert table.scores == win["deltas"]


def test_a_drawn_tile_that_was_seen_is_never_replaced() -> None:
    table, _ = run(CAMERA_DEAL + PLAY + "0 draw 5p\n", Table("log", rules="mcr"))
    events = [
        to_dict(e) for e in table.apply(act.Win(seat=0, hand=parse_hand("123m 456s 789p EEE 5p")))
    ]
    win = next(e for e in events if e["type"] == "win_declared")
    assert win["win_tile"] == "5p" and not win["win_tile_inferred"]


def test_an_unseen_draw_with_a_hand_that_is_no_win_is_a_false_win() -> None:
    table, _ = run(CAMERA_DEAL + PLAY + "0 draw ?\n", Table("log", rules="mcr"))
    events = table.apply(act.Win(seat=0, hand=parse_hand("123m 456s 789p EEN 55p")))
    assert kinds(events) == ["false_win"] and table.scores == [0, 0, 0, 0]
    assert table.snapshot()["hand"]["phase"] != "ended"  # the hand plays on
