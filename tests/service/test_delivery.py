"""Acceptance: nothing lost, nothing doubled, when the broker or the table process dies mid-run.

Each test runs the real demo pipeline (simulated hands -> engine -> outbox -> MQTT) against a real
Mosquitto on a free port, with a score-capture consumer reading it back, and compares the result
with an undisturbed run of the same seed.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from engine.simulate.actions import demo_hands
from tests.service.conftest import TILESIGHT, wait_until
from tilesight.config import parse_mqtt_url
from tilesight.demo.broker import MosquittoBroker
from tilesight.demo.play import DemoOptions, DemoSummary, run_demo
from tilesight.outbox import Outbox
from tilesight.score_store import ScoreStore, Standing
from tilesight.scores import ScoreConsumer
from tilesight.service import TableService
from tilesight.table_engine import TableEngine
from tilesight.topics import TableTopics

HANDS, SEED = 3, 11


def _consumer(broker: MosquittoBroker, tournament: str, db: Path) -> ScoreConsumer:
    consumer = ScoreConsumer(
        parse_mqtt_url(broker.url),
        tournament,
        ScoreStore(db),
        name=f"test-{tournament}",
        gap_grace_s=0.3,
        retry_s=1.0,
    )
    consumer.start()
    wait_until(consumer.connected.is_set, 10, "consumer connection")
    return consumer


def _check_stream(store: ScoreStore, tournament: str, last_seq: int) -> None:
    assert store.streams(tournament) == [("T01", 1)]
    assert store.seqs(tournament, "T01", 1) == list(range(1, last_seq + 1))
    assert store.event_count(tournament) == last_seq


def _undisturbed(broker: MosquittoBroker, tmp_path: Path) -> tuple[list[Standing], int]:
    consumer = _consumer(broker, "calm", tmp_path / "calm.sqlite")
    try:
        summary = run_demo(
            DemoOptions(
                mqtt=broker.url,
                tournament="calm",
                hands=HANDS,
                seed=SEED,
                pace_s=0,
                quiet=True,
                consumer=False,
                outbox=tmp_path / "calm-outbox.sqlite",
            ),
            io.StringIO(),
        )
        assert consumer.wait_caught_up(30, "T01", (1, summary.events))
        assert summary.violations == 0
    finally:
        consumer.stop()
    _check_stream(consumer.store, "calm", summary.events)
    return consumer.store.standings("calm"), summary.events


@pytest.mark.slow
def test_broker_sigkill_mid_run_loses_and_doubles_nothing(broker: MosquittoBroker, tmp_path: Path):
    expected, last_seq = _undisturbed(broker, tmp_path)
    assert len(expected) == 4 and any(s.points for s in expected)

    consumer = _consumer(broker, "storm", tmp_path / "storm.sqlite")
    result: list[DemoSummary] = []
    options = DemoOptions(
        mqtt=broker.url,
        tournament="storm",
        hands=HANDS,
        seed=SEED,
        pace_s=0.01,
        quiet=True,
        consumer=False,
        outbox=tmp_path / "storm-outbox.sqlite",
    )
    runner = threading.Thread(target=lambda: result.append(run_demo(options, io.StringIO())))
    runner.start()
    try:
        wait_until(lambda: consumer.received >= last_seq // 3, 30, "a third of the events")
        broker.kill()  # SIGKILL: no goodbye, nothing persisted
        killed_at = consumer.received
        broker.restart()
        runner.join(timeout=90)
        assert not runner.is_alive()
        assert consumer.wait_caught_up(30, "T01", (1, last_seq))
    finally:
        runner.join(timeout=30)
        consumer.stop()
    assert killed_at < last_seq  # the broker really died mid-run
    assert result and result[0].unsent == 0
    _check_stream(consumer.store, "storm", last_seq)
    assert consumer.store.standings("storm") == expected


@pytest.mark.slow
def test_table_process_sigkill_and_restart_loses_and_doubles_nothing(
    broker: MosquittoBroker, tmp_path: Path
):
    expected, last_seq = _undisturbed(broker, tmp_path)
    consumer = _consumer(broker, "crash", tmp_path / "crash.sqlite")
    outbox = tmp_path / "crash-outbox.sqlite"
    command = [
        TILESIGHT,
        "demo",
        "--no-vision",
        "--mqtt",
        broker.url,
        "--tournament",
        "crash",
        "--hands",
        str(HANDS),
        "--seed",
        str(SEED),
        "--pace",
        "0.02",
        "--no-consumer",
        "--quiet",
        "--outbox",
        str(outbox),
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    try:
        first = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
        )
        try:
            wait_until(lambda: consumer.received >= last_seq // 3, 60, "a third of the events")
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait()
            assert first.stderr is not None
            first.stderr.close()
        assert consumer.received < last_seq
        second = subprocess.run(
            command, check=False, capture_output=True, text=True, env=env, timeout=90
        )
        assert second.returncode == 0, second.stdout + second.stderr
        assert "resuming" in second.stdout
        assert consumer.wait_caught_up(30, "T01", (1, last_seq))
    finally:
        consumer.stop()
    _check_stream(consumer.store, "crash", last_seq)
    assert consumer.store.standings("crash") == expected


def test_consumer_that_missed_events_recovers_them_with_resync(
    broker: MosquittoBroker, tmp_path: Path
):
    """A consumer that was not there while events flowed (QoS 1 events are not retained) learns
    from the retained state how far the table got and asks ``cmd/resync`` for the rest."""
    engine = TableEngine(table_id="T01", procedure="wsom", rules="mcr", seed=SEED)
    service = TableService(
        topics=TableTopics("late", "T01"),
        engine=engine,
        outbox=Outbox(tmp_path / "o.sqlite"),
        endpoint=parse_mqtt_url(broker.url),
        will_delay_s=0,
    )
    service.start()
    try:
        for hand in demo_hands("wsom", SEED, 2):
            for action in hand.actions:
                service.apply(action)
        assert service.link.wait_drained(10)
        last = engine.position[1]
        consumer = _consumer(broker, "late", tmp_path / "late.sqlite")
        try:
            assert consumer.wait_caught_up(30, "T01", (1, last))
        finally:
            consumer.stop()
    finally:
        service.stop()
    assert consumer.resyncs >= 1
    _check_stream(consumer.store, "late", last)
    assert len(consumer.store.hands("late")) == 2
