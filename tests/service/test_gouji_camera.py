"""``tilesight demo --game gouji --camera-only``: a short seeded game read from rendered frames
by the real card reader, the engine fed only the plays read (passes inferred), compared with
the simulator's truth. The whole default game is a benchmark (docs/benchmarks.md, "Cards")."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from engine.gouji.events import Play
from engine.gouji.notation import card_list
from engine.gouji.options import find_variant
from engine.gouji.simulate import simulate_short_game
from tests.service.conftest import TILESIGHT
from tilesight.outbox import Outbox


def test_camera_only_gouji_reads_a_short_game_as_the_truth_played_it(tmp_path: Path) -> None:
    done = subprocess.run(
        [TILESIGHT, "demo", "--game", "gouji", "--camera-only", "--games", "1",
         "--cards-per-seat", "6", "--seed", "1", "--broker", "embedded", "--pace", "0",
         "--quiet", "--vision-frames-per-action", "4", "--outbox", str(tmp_path / "o.sqlite"),
         "--scores-db", str(tmp_path / "s.sqlite")],
        check=False,
        capture_output=True,
        text=True,
        timeout=170,
    )  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    truth = simulate_short_game(1, 6, find_variant("qingdao"))
    plays = sum(isinstance(a, Play) for a in truth.actions)
    total = re.search(
        r"perception \(the engine used only what the camera read\): (\d+)/(\d+) events seen, "
        r"(\d+) missed, (\d+) wrong tile, (\d+) invented, (\d+) out of order, ([\d.]+) frames/s",
        out,
    )
    assert total, out
    seen, expected, missed, wrong, invented, order = map(int, total.groups()[:6])
    assert expected == plays and seen + missed == expected and wrong <= missed
    assert (invented, order) == (0, 0), out  # the target: nothing invented, nothing reordered
    assert seen == expected, out  # measured: 29/29 (seed 1, 6 cards a seat)
    order_text = str(list(truth.result.finish_order))
    assert f"camera-only game 1: same finish (order {order_text}" in out, out
    assert "camera-only games: 1/1 as the truth finished and scored them" in out
    assert " 0 rule violations" in out and "1 games read back, all as played" in out
    outbox = Outbox(tmp_path / "o.sqlite")
    try:
        rows = [json.loads(r.payload) for r in outbox.between("T01", 1, 1, 10_000)]
    finally:
        outbox.close()
    passes = [r for r in rows if r["type"] == "passed"]
    assert passes and all(r["inferred"] for r in passes)  # no camera saw a pass
    over = next(r for r in rows if r["type"] == "game_over")
    assert over["finish_order"] == list(truth.result.finish_order)
    assert over["scores"] == list(truth.result.scores)
    published = [(r["seat"], sorted(r["cards"])) for r in rows if r["type"] == "cards_played"]
    played = [(a.seat, sorted(card_list(a.cards))) for a in truth.actions if isinstance(a, Play)]
    assert published == played
