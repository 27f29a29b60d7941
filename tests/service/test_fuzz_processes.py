"""Fuzzed traffic against the real service and score capture over a real Mosquitto (issue 44):
whatever arrives, every command is answered, the table stays connected, its journal replays at
the next start, and score capture keeps storing the real results. Small budgets for CI."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.actions import Washout
from tests.service.conftest import Probe, make_service, wait_until
from tests.service.hostile_helpers import REPLY, replies, send
from tests.test_fuzz_inputs import JSON, _action_dicts
from tilesight.config import parse_mqtt_url
from tilesight.demo.broker import MosquittoBroker
from tilesight.outbox import Outbox
from tilesight.remote_commands import PAYLOADS
from tilesight.score_store import ScoreStore
from tilesight.scores import ScoreConsumer
from tilesight.table_engine import TableEngine

PROCESS = settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
VERBS = st.sampled_from([v for v in sorted(PAYLOADS) if v not in ("shuffle", "raise")])
PAYLOAD = (
    st.binary(max_size=200)
    | JSON.map(lambda v: json.dumps(v).encode())
    | _action_dicts().map(lambda a: json.dumps({"action": a}).encode())
)


def _service(broker: MosquittoBroker, outbox: Outbox) -> Any:
    engine = TableEngine(table_id="T05", procedure="log", rules=None)
    return make_service(broker.url, "T05", tournament="hall", engine=engine, outbox=outbox,
                        journal=True)  # fmt: skip


@PROCESS
@given(commands=st.lists(st.tuples(VERBS, PAYLOAD), min_size=1, max_size=10))
def test_fuzzed_commands_are_all_answered_and_the_journal_replays(
    broker: MosquittoBroker, commands: list[tuple[str, bytes]]
):
    with tempfile.TemporaryDirectory() as folder:
        outbox = Outbox(Path(folder) / "outbox.sqlite")
        service = _service(broker, outbox)
        service.start()
        try:
            wait_until(service.link.connected.is_set, 10, "service connection")
            with Probe(broker.url, "ref") as probe:
                probe.subscribe(REPLY)
                for n, (verb, payload) in enumerate(commands):
                    send(probe, verb, payload, b"%d" % n)
                send(probe, "ack", b'{"alert": "sentinel"}', b"sentinel")
                wait_until(lambda: len(replies(probe)) == len(commands) + 1, 20, "every answer")
        finally:
            service.stop()
        assert service.link.connects == 1 and service.supervisor.failure is None
        restarted = _service(broker, outbox)
        restarted.restore()  # never raises: what cannot be applied is quarantined
        assert restarted.engine.position == service.engine.position
        outbox.close()


EVENT_TOPICS = st.sampled_from(
    ["events/hand_ended", "events/x", "private/events/violation", "state", "reply/tilesight-scores"]
)


@PROCESS
@given(noise=st.lists(st.tuples(EVENT_TOPICS, PAYLOAD), max_size=12))
def test_score_capture_survives_fuzzed_events(broker: MosquittoBroker, noise: list[Any]):
    store = ScoreStore(":memory:")
    consumer = ScoreConsumer(parse_mqtt_url(broker.url), "hall", store, group=None)
    service = make_service(broker.url, "T05", tournament="hall")
    consumer.start()
    service.start()
    try:
        wait_until(consumer.connected.is_set, 10, "consumer connected")
        wait_until(service.link.connected.is_set, 10, "table connected")
        with Probe(broker.url, "noise") as probe:
            for leaf, payload in noise:
                probe.client.publish(f"tilesight/v1/hall/T99/{leaf}", payload, qos=1)
        for _ in range(3):
            service.apply(Washout())
        wait_until(lambda: consumer.caught_up("T05"), 15, "the real hand stored")
    finally:
        service.stop()
        consumer.stop()
    standings = {(s.table, s.seat): s.points for s in store.standings("hall")}
    store.close()
    assert standings[("T05", 1)] == 24
    assert all(abs(points) <= 10**6 for points in standings.values())
