"""A subscriber that joins late gets the full current state from retained topics alone."""

from __future__ import annotations

import io
import json
from pathlib import Path

from engine.simulate.actions import demo_hands
from tests.service.conftest import Probe, wait_until
from tilesight.config import parse_mqtt_url
from tilesight.demo.broker import MosquittoBroker
from tilesight.demo.play import DemoOptions, run_demo
from tilesight.outbox import Outbox
from tilesight.service import TableService
from tilesight.table_engine import TableEngine, discard_limit
from tilesight.topics import TableTopics


def test_late_subscriber_sees_the_engine_state_mid_hand(broker: MosquittoBroker):
    engine = TableEngine(table_id="T07", procedure="wsom", rules="mcr", seed=3)
    service = TableService(
        topics=TableTopics("cup", "T07"),
        engine=engine,
        outbox=Outbox(":memory:"),
        endpoint=parse_mqtt_url(broker.url),
        will_delay_s=0,
        discard_limit_s=discard_limit("wsom"),
    )
    service.start()
    try:
        hand = next(iter(demo_hands("wsom", seed=3, hands=1)))
        for action in hand.actions[:60]:  # stop mid-hand: rivers and walls partly used
            service.apply(action)
        wait_until(lambda: service.outbox.counts()[1] == 0, 10, "events acknowledged")
        with Probe(broker.url, "late-overlay") as late:
            late.subscribe("tilesight/v1/cup/T07/+")
            wait_until(lambda: late.on("/state") and late.on("/status"), 5, "retained messages")
            state = json.loads(late.on("/state")[-1].payload)
            status = late.on("/status")[-1].payload
            with Probe(broker.url, "late-referee") as referee:
                referee.subscribe("tilesight/v1/cup/T07/private/state")
                wait_until(lambda: referee.on("/private/state"), 5, "retained private state")
                private = json.loads(referee.on("/private/state")[-1].payload)
    finally:
        service.stop()
    assert status == b"online"
    assert all(m.retain for m in late.on("/state") + late.on("/status"))
    assert state["seq"] == engine.position[1]
    assert state["game"] == json.loads(json.dumps(engine.snapshot()))  # rivers, melds, wall, turn
    game = state["game"]["hand"]
    assert sum(len(row) for seat in game["seats"] for row in seat["river"]) > 0
    assert game["wall"]["reserved"] == 14 and game["wall"]["live_left"] < 136 - 14
    assert state["timer"]["turn"] == game["turn"] and state["timer"]["discard_limit_s"] == 15
    assert private["hands"] == engine.private_snapshot()["hands"]


def test_clean_stop_leaves_offline_and_last_state(broker: MosquittoBroker, tmp_path: Path):
    run_demo(
        DemoOptions(
            mqtt=broker.url,
            tournament="cup",
            hands=1,
            seed=2,
            pace_s=0,
            quiet=True,
            consumer=False,
            outbox=tmp_path / "o.sqlite",
        ),
        io.StringIO(),
    )
    with Probe(broker.url, "after") as late:
        late.subscribe("tilesight/v1/cup/T01/+")
        wait_until(lambda: late.on("/state") and late.on("/status"), 5, "retained messages")
        state = json.loads(late.on("/state")[-1].payload)
    assert late.on("/status")[-1].payload == b"offline"
    assert state["game"]["hands_played"] == 1
    assert late.on("/events/hand_ended") == []  # events are never retained


def test_retained_state_is_the_newest_after_a_broker_crash(broker: MosquittoBroker):
    """Kill the broker right after a publish, play on during the outage, restart it: without any
    further action the retained state is the engine's newest (never an older resent copy)."""
    engine = TableEngine(table_id="T08", procedure="wsom", rules="mcr", seed=4)
    service = TableService(
        topics=TableTopics("cup", "T08"),
        engine=engine,
        outbox=Outbox(":memory:"),
        endpoint=parse_mqtt_url(broker.url),
        will_delay_s=0,
    )
    service.start()
    try:
        actions = next(iter(demo_hands("wsom", seed=4, hands=1))).actions
        wait_until(service.link.connected.is_set, 10, "connection")
        for action in actions[:40]:
            service.apply(action)
        broker.kill()
        for action in actions[40:50]:
            service.apply(action)
        broker.restart()
        wait_until(
            lambda: service.link.connects >= 2 and service.outbox.counts()[1] == 0,
            20,
            "reconnected and drained",
        )
        with Probe(broker.url, "after-crash") as late:
            late.subscribe("tilesight/v1/cup/T08/state")
            wait_until(lambda: late.on("/state"), 5, "the retained state")
            state = json.loads(late.on("/state")[-1].payload)
    finally:
        service.stop()
    assert state["seq"] == engine.position[1]
    assert state["game"] == json.loads(json.dumps(engine.snapshot()))
