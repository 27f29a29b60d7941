"""Several score-capture consumers share the work (MQTT 5 shared subscription) and one database."""

from __future__ import annotations

import io
from pathlib import Path

from tests.service.conftest import wait_until
from tilesight.config import parse_mqtt_url
from tilesight.demo.broker import MosquittoBroker
from tilesight.demo.play import DemoOptions, run_demo
from tilesight.score_store import ScoreStore
from tilesight.scores import ScoreConsumer


def test_two_consumers_split_the_stream_and_store_it_once(broker: MosquittoBroker, tmp_path: Path):
    db = tmp_path / "hall.sqlite"
    consumers = [
        ScoreConsumer(parse_mqtt_url(broker.url), "cup", ScoreStore(db), name=name)
        for name in ("scores-a", "scores-b")
    ]
    for consumer in consumers:
        consumer.start()
    try:
        for consumer in consumers:
            wait_until(consumer.connected.is_set, 10, "consumer connection")
        summary = run_demo(
            DemoOptions(
                mqtt=broker.url,
                tournament="cup",
                hands=2,
                seed=6,
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
            30,
            "the whole stream in the shared database",
        )
    finally:
        for consumer in consumers:
            consumer.stop()
    received = [c.received for c in consumers]
    assert all(received), received  # the broker gave each consumer a share
    assert store.event_count("cup") == summary.events
    assert len(store.hands("cup")) == 2
