"""A Gouji table at the service: real Mosquitto with the example ACL, the real outbox and
TableService on a GoujiTable; ``tilesight demo --game gouji`` on the embedded broker."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import time
from pathlib import Path

import jsonschema

from engine.gouji.match_table import GoujiTable
from engine.gouji.simulate import simulate_match, table_actions
from engine.gouji.table_events import GOUJI_EVENT_SCHEMA, GoujiPlay
from tests.service.conftest import TILESIGHT, Probe, make_service, wait_until
from tests.service.test_acl import ACCOUNTS, _url, secured_broker  # noqa: F401 - fixture
from tilesight.demo.broker import MosquittoBroker
from tilesight.outbox import Outbox
from tilesight.schema import load_schema
from tilesight.score_store import ScoreStore


def test_gouji_events_public_and_referee_only(
    secured_broker: MosquittoBroker,  # noqa: F811 - the fixture
) -> None:
    game = simulate_match(4).games[0]
    service = make_service(_url(secured_broker, "T1"), engine=GoujiTable(table_id="T1", seed=4))
    service.start()
    overlay = Probe(secured_broker.url, "ov", "overlay", ACCOUNTS["overlay"])
    referee = Probe(secured_broker.url, "ref", "referee", ACCOUNTS["referee"])
    try:
        wait_until(service.link.connected.is_set, 10, "table connection")
        for probe in (overlay, referee):
            probe.__enter__()
            probe.subscribe("tilesight/v1/#")
        actions = table_actions(game)
        for n, action in enumerate(actions):
            if n == 3:  # a seat plays out of turn: a violation, for the referee only
                service.apply(GoujiPlay(seat=(action.seat + 2) % 6, cards="3"))  # type: ignore[attr-defined]
            service.apply(action)
        last = service.engine.position[1]
        wait_until(
            lambda: any(json.loads(m.payload)["seq"] == last for m in overlay.on("/state")),
            10,
            "the overlay caught up",
        )
        time.sleep(0.3)
    finally:
        for probe in (overlay, referee):
            probe.__exit__()
        service.stop()
    public = [json.loads(m.payload) for m in overlay.messages if "/events/" in m.topic]
    assert {e["schema"] for e in public} == {GOUJI_EVENT_SCHEMA}
    assert {"game_started", "cards_played", "passed", "trick_won", "player_out", "game_over"} <= {
        e["type"] for e in public
    }
    assert not [m.topic for m in overlay.messages if "/private/" in m.topic]
    assert [e["hands"] for e in public if e["type"] == "game_started"] == [None]
    assert "violation" not in {e["type"] for e in public}
    # the referee reads the violation on private/events/ and the hands in private/state
    (violation,) = [json.loads(m.payload) for m in referee.on("/private/events/violation")]
    assert violation["kind"] == "out_of_turn" and violation["schema"] == GOUJI_EVENT_SCHEMA
    every = [json.loads(m.payload) for m in referee.messages if "/events/" in m.topic]
    assert sorted(e["seq"] for e in every) == list(range(1, last + 1))
    hands = json.loads(referee.on("/private/state")[0].payload)["hands"]
    assert hands is None or len(hands) == 6
    validator = jsonschema.Draft202012Validator(load_schema("gouji"))
    for event in every:
        assert not [e.message for e in validator.iter_errors(event)], event
    state = json.loads(overlay.on("/state")[-1].payload)
    state_schema = {"$defs": load_schema("gouji")["$defs"], "$ref": "#/$defs/state"}
    assert not list(jsonschema.Draft202012Validator(state_schema).iter_errors(state))
    assert state["schema"] == "tilesight.state/1" and state["seq"] == last
    assert state["game"]["rules"] == "gouji" and state["game"]["phase"] == "over"
    assert [s["place"] for s in state["game"]["seats"]] == [
        game.result.place_of(seat) for seat in range(6)
    ]
    assert state["game"]["alliances"] == list(game.result.alliances)


def test_a_restarted_gouji_table_replays_its_journal(
    secured_broker: MosquittoBroker,  # noqa: F811 - the fixture
    tmp_path: Path,
) -> None:
    actions = [dataclasses.replace(a, at=1767225600.0 + n) for n, a in enumerate(
        table_actions(simulate_match(6).games[0]))]  # fmt: skip
    url = _url(secured_broker, "T1")
    outbox = Outbox(tmp_path / "outbox.sqlite")
    first = make_service(url, engine=GoujiTable(table_id="T1"), outbox=outbox, journal=True)
    first.start()
    for action in actions[:40]:
        first.apply(action)
    before = first.engine.position
    first.stop()
    second = make_service(url, engine=GoujiTable(table_id="T1"), outbox=outbox, journal=True)
    assert second.restore() == 40
    assert second.engine.position == before and second.stored == 0
    second.start()
    try:
        for action in actions[40:]:
            second.apply(action)
        assert second.link.wait_drained(10)
    finally:
        second.stop()
    stored = [r.seq for r in outbox.between("T1", 1, 1, 10**6)]
    assert stored == list(range(1, second.engine.position[1] + 1))
    assert second.engine.snapshot()["phase"] == "over"


def test_demo_game_gouji_on_the_embedded_broker(tmp_path: Path) -> None:
    scores = tmp_path / "scores.sqlite"
    done = subprocess.run(
        [TILESIGHT, "demo", "--game", "gouji", "--games", "2", "--broker", "embedded",
         "--pace", "0", "--scores-db", str(scores), "--seed", "3"],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "started the embedded MQTT 5 broker" in out and "Traceback" not in done.stderr
    assert "── summary ── 2 Gouji games" in out
    published = int(re.search(r"events published this run: (\d+)", out).group(1))  # type: ignore[union-attr]
    capture = re.search(r"score capture: (\d+) received, (\d+) duplicates", out)
    assert capture, out
    received, duplicates = int(capture.group(1)), int(capture.group(2))
    assert received - duplicates == published, out  # QoS 1 may deliver twice: none lost
    assert "complete; 2 games read back, all as played" in out
    assert re.search(r"\d+ plays, \d+ passes, \d+ burns \(烧\), 0 rule violations", out)
    match = simulate_match(3, max_games=2)
    assert f"final match score (alliance 0/2/4 : 1/3/5): {match.score.points[0]} : " in out
    assert " leads " in out and " is out: 头科" in out
    store = ScoreStore(scores)
    try:
        assert store.seqs("demo", "T01", 1) == list(range(1, published + 1))
        overs = store.events_of_type("demo", "game_over")
        assert [tuple(e["finish_order"]) for e in overs] == [
            g.result.finish_order for g in match.games
        ]
    finally:
        store.close()
