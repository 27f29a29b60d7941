"""``tilesight demo --vision``: rendered frames through the real detector, checked against truth."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from engine import actions as act
from engine.tiles import Tile
from models.drawn.visible_table import VisibleTable
from models.evaluation.perception_check import PerceptionCheck, compare
from tests.service.conftest import TILESIGHT
from tilesight.outbox import Outbox


def _demo(tmp: Path, *extra: str) -> tuple[str, list[tuple[int, str, str, str]]]:
    tmp.mkdir()
    done = subprocess.run(
        [TILESIGHT, "demo", "--broker", "embedded", "--hands", "1", "--pace", "0", "--quiet",
         "--outbox", str(tmp / "outbox.sqlite"), "--scores-db", str(tmp / "scores.sqlite"),
         *extra],
        check=False,
        capture_output=True,
        text=True,
        timeout=170,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    outbox = Outbox(tmp / "outbox.sqlite")
    try:
        rows = outbox.between("T01", 1, 1, 10_000)
    finally:
        outbox.close()
    timeless = []
    for row in rows:  # ids and timestamps come from the clock; everything else must agree
        payload = {
            k: v for k, v in json.loads(row.payload).items() if k not in ("event_id", "timestamp")
        }
        timeless.append((row.seq, row.type, row.topic, json.dumps(payload, sort_keys=True)))
    return done.stdout, timeless


def _standings(out: str) -> str:
    return out.split("standings:")[1].split("perception (", maxsplit=1)[0].strip()


@pytest.mark.slow
def test_vision_demo_reports_perception_and_leaves_the_engine_path_unchanged(
    tmp_path: Path,
) -> None:
    seen_out, seen_rows = _demo(tmp_path / "vision", "--vision")
    plain_out, plain_rows = _demo(tmp_path / "plain", "--no-vision")
    assert seen_rows == plain_rows and len(seen_rows) > 30
    assert _standings(seen_out) == _standings(plain_out) and "+" in _standings(plain_out)
    assert "perception" not in plain_out
    hand = re.search(
        r"perception hand 1: (\d+)/(\d+) events seen, (\d+) missed \((\d+) as a wrong tile\), "
        r"(\d+) invented, (\d+) out of order; (\d+) frames read at ([\d.]+) frames/s",
        seen_out,
    )
    assert hand, seen_out
    seen, expected, missed, wrong, invented, order, frames = map(int, hand.groups()[:7])
    assert seen + missed == expected and wrong <= missed and order <= seen
    assert expected > 20 and frames == 4 * expected + 10  # every change, then the final table
    assert seen >= 0.8 * expected, seen_out  # measured 30/32 (seed 1)
    assert invented <= 3 and float(hand.group(8)) > 1.0
    warnings = seen_out.count("PERCEPTION WARNING (not a rule violation)")
    assert warnings >= missed + invented - wrong  # every disagreement is reported
    assert "0 rule violations" in seen_out and f"{seen}/{expected} events seen" in seen_out


def test_compare_counts_misses_wrong_tiles_inventions_and_order() -> None:
    truth = [("discard", 0, "1m", ""), ("discard", 1, "E", ""), ("meld", 2, "pung", "E"),
             ("discard", 2, "5p", ""), ("discard", 3, "9s", "")]  # fmt: skip
    read = [("discard", 1, "E", ""), ("discard", 0, "1m", ""), ("meld", 2, "pung", "E"),
            ("discard", 2, "3p", ""), ("discard", 0, "C", "")]  # fmt: skip
    result = compare(7, truth, read)
    assert (result.expected, result.seen, result.missed) == (5, 3, 2)
    assert (result.wrong_tile, result.invented, result.wrong_order) == (1, 1, 1)
    assert "seat 2 discard 5p read as seat 2 discard 3p" in result.warnings
    assert "seat 3 discard 9s missed" in result.warnings
    assert "seat 0 discard C invented" in result.warnings


def test_claims_move_the_discard_into_a_meld_turned_toward_its_source() -> None:
    table = VisibleTable()  # the table model only: no detector loaded
    t = Tile.parse
    assert table.apply(act.Discard(seat=3, tile=t("4s")))
    assert table.apply(act.Chow(seat=0, tiles=(t("3s"), t("4s"), t("5s")), tile=t("4s")))
    assert table.apply(act.Discard(seat=0, tile=t("E")))
    assert table.apply(act.Pung(seat=3, tile=t("E")))  # from the lower seat: turned on the right
    assert table.apply(act.AddedKong(seat=3, tile=t("E")))
    assert not table.apply(act.Draw(seat=1))
    assert table.apply(act.ConcealedKong(seat=1, tile=t("9p")))  # end tiles face down
    hidden = table.spec.melds[1][0]
    assert (hidden.names, hidden.sideways_index) == (["back", "9p", "9p", "back"], -1)
    assert table.truth[-1] == ("concealed_kong", 1, "9p", "")
    table.truth.pop()
    table.face_down_kongs = True  # national rules: all four face down, the kind unseen
    assert table.apply(act.ConcealedKong(seat=2, tile=t("C")))
    assert table.spec.melds[2][0].names == ["back"] * 4
    assert table.truth.pop() == ("face_down_kong", 2, "?", "")
    assert table.spec.rivers == [[], [], [], []]
    chow, kong = table.spec.melds[0][0], table.spec.melds[3][0]
    assert (chow.names, chow.sideways_index) == (["4s", "3s", "5s"], 0)
    assert (kong.names, kong.sideways_index) == (["E"] * 4, 3)
    assert table.truth[-1] == ("meld", 3, "kong", "E")
    assert table.truth[1] == ("meld", 0, "chow", "4s")


def test_a_win_is_laid_face_up_and_its_discard_leaves_the_river() -> None:
    table = VisibleTable()
    assert table.apply(act.Discard(seat=1, tile=Tile.parse("5p")))
    assert not table.apply(act.Win(seat=0, tile=Tile.parse("5p")))  # laid by reveal_win
    table.reveal_win(0, ["1m", "2m", "3m", "5p"], discarder=1)
    assert table.spec.rivers[1] == [] and table.spec.revealed[0] == ["1m", "2m", "3m", "5p"]
    assert table.spec.concealed[0] == 0
    table.reveal_win(2, ["E"] * 2, discarder=None)  # self-drawn: every river stays
    assert table.spec.revealed[2] == ["E", "E"] and table.truth == [("discard", 1, "5p", "")]


def test_vision_frames_must_be_positive() -> None:
    done = subprocess.run(
        [TILESIGHT, "demo", "--vision", "--vision-frames-per-action", "0"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "--vision-frames-per-action must be >= 1, got 0" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("frames", "arms"), [(0, 0), (3, 3), (3, -1)])
def test_arm_frames_must_leave_a_clear_frame(frames: int, arms: int) -> None:
    with pytest.raises(ValueError, match="frames per action"):
        PerceptionCheck(frames, arm_frames=arms)


def test_the_final_table_stays_in_view_for_the_final_frames() -> None:
    check = PerceptionCheck(2, seed=5, frame_size=(960, 540), final_frames=3)
    check.start_hand(1)
    assert check.finish_hand().frames == 0  # nothing was ever seen: no camera frames at all
    check.start_hand(2)
    check.observe(act.Discard(seat=0, tile=Tile.parse("5m")))
    assert check.frames == 2
    assert check.finish_hand().frames == 2 + 3


@pytest.mark.slow
def test_camera_only_demo_feeds_the_engine_from_the_frames_alone(tmp_path: Path) -> None:
    """``--camera-only`` under national rules (144 tiles, flowers, the dealer dealt 14): the
    engine gets only what the reader read, raises no alert, and scores the truth's win."""
    out, rows = _demo(tmp_path / "camera", "--camera-only", "--procedure", "national")
    assert "0 rule violations" in out, out
    assert "camera-only wins: 1/1 hands as the truth scored them" in out, out
    read = re.search(r"perception \(the engine used only what the camera read\): (\d+)/(\d+) "
                     r"events seen, (\d+) missed, \d+ wrong tile, (\d+) invented", out)  # fmt: skip
    assert read and read.group(1) == read.group(2) and read.group(3) == read.group(4) == "0", out
    events = [json.loads(payload) for *_, payload in rows]
    dealt = sorted(e["count"] for e in events if e["type"] == "tiles_dealt")
    assert dealt == [13, 13, 13, 14]  # the dealer's fourteenth tile: no draw before its discard
    assert not [e for e in events if e["type"] == "violation"]
    assert [e["type"] for e in events].count("win_declared") == 1
