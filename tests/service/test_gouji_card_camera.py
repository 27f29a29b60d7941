"""``tilesight run`` with a Gouji table's card camera: a real process and a real Mosquitto, the
camera a short rendered video of a simulated game (:mod:`models.cards.gouji_video`); the deal
arrives as ``cmd/action`` (no camera sees the hands), every play is read from the video and
published as the simulator played it, in order, none invented, each flagged ``camera``. An
illegal play read is the same referee alert as one sent by command; the config refuses what is
not built."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from engine.events import Event, to_dict
from engine.gouji.match_table import GoujiTable
from engine.gouji.simulate import simulate_short_game, table_actions
from engine.gouji.table_events import GoujiPlay
from models.cards.gouji_video import GameVideo, write_game_video
from tests.service.conftest import TILESIGHT, Probe, make_service, wait_until
from tilesight.card_feed import CardFeed, apply_seen
from tilesight.config import ServiceConfig
from tilesight.demo.broker import MosquittoBroker
from vision.card_seats import SeenPlay

ROOT = "tilesight/v1/hall/G1"
SEED, CARDS_PER_SEAT = 3, 4  # 22 plays, 143 frames of 1280x720: a few seconds to read


@pytest.fixture(scope="module")
def game_video(tmp_path_factory: pytest.TempPathFactory) -> GameVideo:
    folder = tmp_path_factory.mktemp("gouji-camera")
    return write_game_video(
        folder / "game.avi", seed=SEED, cards_per_seat=CARDS_PER_SEAT, size=(1280, 720)
    )


def _config(tmp_path: Path, video: GameVideo, broker: MosquittoBroker) -> Path:
    config = tmp_path / "gouji.toml"
    config.write_text(
        f'tournament = "hall"\ntable = "G1"\ngame = "gouji"\n'
        f'[[cameras]]\nsource = "{video.video}"\nfps = 100\n'
        f'[calibration]\npath = "{video.calibration}"\n'
        f"[detector]\nstable_frames = 3\n"
        f'[mqtt]\nurl = "{broker.url}"\nwill_delay_s = 0\n'
        f'[outbox]\npath = "{tmp_path / "outbox.sqlite"}"\n'
    )
    return config


def _events(probe: Probe, kind: str) -> list[dict[str, Any]]:
    return [json.loads(m.payload) for m in probe.on(f"/events/{kind}")]


def test_a_gouji_tables_plays_are_read_by_its_camera_in_tilesight_run(
    broker: MosquittoBroker, game_video: GameVideo, tmp_path: Path
) -> None:
    truth = json.loads(game_video.truth.read_text(encoding="utf-8"))
    config = _config(tmp_path, game_video, broker)
    with Probe(broker.url, "ref") as probe:
        probe.subscribe(f"{ROOT}/#")
        process = subprocess.Popen(
            [TILESIGHT, "run", "--config", str(config)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            wait_until(lambda: probe.on(f"{ROOT}/state"), 20, "the first state")
            body = json.dumps({"action": truth["start"]})  # the deal: no camera sees it
            probe.command(f"{ROOT}/cmd/action", body, reply_to=f"{ROOT}/reply/ref")
            wait_until(lambda: _events(probe, "game_over"), 40, "the game read to its end")
            time.sleep(1.0)  # the file ends and is reopened: the game it recorded is over
        finally:
            process.send_signal(signal.SIGTERM)
            out, _ = process.communicate(timeout=30)
    assert process.returncode == 0, out
    assert [json.loads(m.payload)["ok"] for m in probe.on("/reply/ref")] == [True]
    plays = _events(probe, "cards_played")
    read = [[p["seat"], sorted(p["cards"])] for p in plays]
    assert read == [[seat, sorted(cards)] for seat, cards in truth["plays"]], out
    assert all(p["camera"] for p in plays)
    assert not probe.on("/events/violation"), out  # nothing invented, nothing out of order
    game = simulate_short_game(SEED, CARDS_PER_SEAT)
    over = _events(probe, "game_over")
    assert len(over) == 1 and over[0]["finish_order"] == list(game.result.finish_order)
    assert over[0]["scores"] == list(game.result.scores)
    passes = _events(probe, "passed")
    assert passes and all(p["inferred"] for p in passes)  # a camera sees no pass
    links = [json.loads(m.payload)["links"].get("camera") for m in probe.on(f"{ROOT}/state")]
    assert "online" in links, links
    assert out.count("reading") == 1, out  # the file was read once, for the game it recorded


def test_an_illegal_play_read_is_the_same_alert_as_one_sent(broker: MosquittoBroker) -> None:
    game = simulate_short_game(SEED, CARDS_PER_SEAT)
    start = table_actions(game)[0]
    seen: list[Event] = []
    service = make_service(broker.url, "G1", engine=GoujiTable(table_id="G1"))
    service.on_events = seen.extend
    service.apply(start)
    sent = GoujiTable(table_id="G1")
    sent.apply(start)
    leader = game.leader
    # the leader lays five big jokers: not in its hand (four cards a seat)
    assert apply_seen(service, SeenPlay(leader, ("RJ",) * 5, 1)) == 1
    by_command = sent.apply(GoujiPlay(seat=leader, cards="RJ RJ RJ RJ RJ"))
    camera = [to_dict(e) for e in seen if e.type == "violation"]
    command = [to_dict(e) for e in by_command if e.type == "violation"]
    assert len(camera) == len(command) == 1
    for key in ("kind", "seat", "detail", "severity"):
        assert camera[0][key] == command[0][key]
    as_read = {k: v for k, v in camera[0]["action"].items() if k != "at"}  # the service's time
    assert as_read == command[0]["action"] | {"camera": True}


def test_a_reopened_camera_starts_from_the_trick_on_the_table(broker: MosquittoBroker) -> None:
    game = simulate_short_game(SEED, CARDS_PER_SEAT)
    actions = table_actions(game)
    service = make_service(broker.url, "G1", engine=GoujiTable(table_id="G1"))
    config = ServiceConfig.model_validate(
        {"tournament": "hall", "table": "G1", "game": "gouji", "cameras": [{"source": "0"}]}
    )
    feed = CardFeed(config, service)
    assert feed.in_play() is None and feed.on_table() == [[]] * 6
    for action in actions[:3]:  # the deal, a lead and an answer
        service.apply(action)
    assert feed.in_play() == 1
    plays = [a for a in actions[1:3] if isinstance(a, GoujiPlay)]
    expected: list[list[str]] = [[] for _ in range(6)]
    for play in plays:
        expected[play.seat] = play.cards.split()
    assert plays and feed.on_table() == expected


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('[table_port]\nurl = "loop://"\n', "no shuffling table"),
        ('[[cameras]]\nsource = "0"\n[[cameras]]\nsource = "1"\n', "one overhead card camera"),
        ('[[cameras]]\nsource = "0"\nrole = "hand"\n', "standing hand is not built"),
    ],
)
def test_a_gouji_config_refuses_what_is_not_built(extra: str, message: str) -> None:
    import tomllib

    from pydantic import ValidationError

    base = 'tournament = "hall"\ntable = "G1"\ngame = "gouji"\n'
    with pytest.raises(ValidationError, match=message):
        ServiceConfig.model_validate(tomllib.loads(base + extra))
    one = ServiceConfig.model_validate(tomllib.loads(base + '[[cameras]]\nsource = "0"\n'))
    assert one.cameras[0].role == "overhead"
