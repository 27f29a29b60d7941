"""``tilesight scores``: live capture from a broker, then standings exported as CSV and JSON."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

from tests.service.conftest import TILESIGHT, wait_until
from tilesight.demo.broker import MosquittoBroker
from tilesight.demo.play import DemoOptions, run_demo
from tilesight.score_store import ScoreStore


def test_scores_command_captures_and_exports(broker: MosquittoBroker, tmp_path: Path):
    db = tmp_path / "scores.sqlite"
    live = subprocess.Popen(
        [
            TILESIGHT,
            "scores",
            "--tournament",
            "cup",
            "--mqtt",
            broker.url,
            "--db",
            str(db),
            "--name",
            "cli-test",
            "--duration",
            "60",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_until(db.exists, 10, "the consumer's database")
        summary = run_demo(
            DemoOptions(
                mqtt=broker.url,
                tournament="cup",
                hands=2,
                seed=9,
                pace_s=0,
                quiet=True,
                consumer=False,
                outbox=tmp_path / "o.sqlite",
            ),
            io.StringIO(),
        )
        store = ScoreStore(db)
        wait_until(
            lambda: store.seqs("cup", "T01", 1) == list(range(1, summary.events + 1)),
            20,
            "every event stored",
        )
        expected = store.standings("cup")
        store.close()
    finally:
        live.terminate()
        output, _ = live.communicate(timeout=20)
    assert live.returncode == 0, output
    assert "T01 hand 2:" in output
    csv_path, json_path = tmp_path / "s.csv", tmp_path / "s.json"
    offline = subprocess.run(
        [
            TILESIGHT,
            "scores",
            "--tournament",
            "cup",
            "--db",
            str(db),
            "--offline",
            "--csv",
            str(csv_path),
            "--json",
            str(json_path),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    rows = list(csv.DictReader(csv_path.open()))
    assert [(r["table"], int(r["seat"]), int(r["points"])) for r in rows] == [
        (s.table, s.seat, s.points) for s in expected
    ]
    assert sum(int(r["points"]) for r in rows) == 0  # mahjong scores are zero-sum
    exported = json.loads(json_path.read_text())
    assert exported["tournament"] == "cup" and len(exported["standings"]) == 4
    assert f"{expected[0].points:+d}" in offline.stdout
