"""A win on a discard no camera read: the seat due discarded an unseen tile, a whole hand is
declared on it, and the engine tells the tile from the hand (the legal reading that scores the
least); the discarder pays, as for any discard win."""

from __future__ import annotations

from engine import actions as act
from engine.events import to_dict
from engine.notation import format_tiles, parse_hand
from engine.table import Table
from tests.engine.table_script import run

CAMERA_DEAL = "start\ndeal 0 ?13\ndeal 1 ?13\ndeal 2 ?13\ndeal 3 ?13\n"
PLAY = "".join(
    f"{seat} draw ?\n{seat} discard {tile}\n" for seat, tile in enumerate(["9m", "1s", "2s", "3s"])
)
WHOLE = "123m 456s 789p EEE 55p"


def _won_on_unseen(winner: int, hand: str = WHOLE) -> tuple[Table, list[dict[str, object]]]:
    """Seat 0 draws and discards a tile no one saw; ``winner`` declares ``hand`` on it."""
    table, _ = run(CAMERA_DEAL + PLAY + "0 draw ?\n", Table("log", rules="mcr"))
    table.apply(act.Discard(seat=0, tile=None, inferred=True))
    return table, [to_dict(e) for e in table.apply(act.Win(seat=winner, hand=parse_hand(hand)))]


def _known_discard_total(rest: str, tile: str) -> int:
    """The same win on a discard that was read: what each reading scores (-1: no win)."""
    table, _ = run(CAMERA_DEAL + PLAY + f"0 draw ?\n0 discard {tile}\n", Table("log", rules="mcr"))
    events = [to_dict(e) for e in table.apply(act.Win(seat=2, hand=parse_hand(rest)))]
    win = next((e for e in events if e["type"] == "win_declared"), None)
    return -1 if win is None or not win["score"]["valid"] else int(win["score"]["total"])  # type: ignore[index]


def test_a_win_on_an_unseen_discard_takes_the_least_scoring_legal_reading() -> None:
    table, events = _won_on_unseen(2)
    assert not table.violations, table.violations
    win = next(e for e in events if e["type"] == "win_declared")
    assert not win["self_drawn"] and win["discarder"] == 0 and win["win_tile_inferred"]
    whole = parse_hand(WHOLE).concealed
    readings = {}
    for tile in dict.fromkeys(whole):
        rest = list(whole)
        rest.remove(tile)
        readings[str(tile)] = _known_discard_total(format_tiles(tuple(rest)), str(tile))
    legal = [total for total in readings.values() if total >= 0]
    assert len(set(legal)) > 1, readings  # the choice matters for this hand
    assert win["score"]["total"] == min(legal)  # type: ignore[index]
    assert readings[str(win["win_tile"])] == min(legal)
    total = int(win["score"]["total"])  # type: ignore[index]
    assert win["deltas"] == [-(total + 8), -8, 3 * 8 + total, -8]  # the discarder pays
    assert table.scores == win["deltas"]


def test_a_river_keeps_its_read_tiles_when_an_unseen_discard_is_won() -> None:
    """The discard won on never joined the river, so the 9m read there earlier stays (seven
    pairs: every reading scores the same, the first kind is taken)."""
    table, events = _won_on_unseen(1, "99m 11s 22s 33s 44s 55s 66s")
    win = next(e for e in events if e["type"] == "win_declared")
    assert win["win_tile"] == "9m" and win["discarder"] == 0
    rivers = [seat["river"] for seat in table.snapshot()["hand"]["seats"]]
    assert rivers[0] == [["9m"]], rivers


def test_no_win_on_an_unseen_discard_once_the_next_seat_drew() -> None:
    table, _ = run(CAMERA_DEAL + PLAY + "0 draw ?\n", Table("log", rules="mcr"))
    table.apply(act.Discard(seat=0, tile=None, inferred=True))
    table.apply(act.Draw(seat=1))
    events = [to_dict(e) for e in table.apply(act.Win(seat=2, hand=parse_hand(WHOLE)))]
    assert not [e for e in events if e["type"] == "win_declared"]
    assert table.violations


def test_a_seat_cannot_win_on_its_own_unseen_discard() -> None:
    table, events = _won_on_unseen(0)
    assert not [e for e in events if e["type"] == "win_declared"]
    assert [v.kind.value for v in table.violations] == ["nothing_to_claim"]
