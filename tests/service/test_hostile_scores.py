"""Score capture against hostile events (issue 44, findings 1 and 6): a bracket bomb must not
end capture, forged or foreign results must not reach the standings, a forged ``state`` must not
start an endless resync, and a capture with no broker or a wrong password must fail loudly."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from engine.actions import Washout
from tests.service.conftest import TILESIGHT, Probe, make_service, wait_until
from tests.service.test_acl import ACCOUNTS, secured_broker  # noqa: F401 - fixture
from tilesight.config import parse_mqtt_url
from tilesight.demo.broker import MosquittoBroker, free_port
from tilesight.score_store import ScoreStore
from tilesight.scores import ScoreConsumer

ROOT = "tilesight/v1/cup/T1"


def _forged_hand(table: str, seq: int, deltas: list[int]) -> bytes:
    return json.dumps(
        {
            "schema": "tilesight.event/1", "type": "hand_ended", "event_id": f"forged-{seq}",
            "table": table, "epoch": 1, "seq": seq, "timestamp": 1.0, "hand_number": 9,
            "result": "win", "winners": [0], "deltas": deltas, "penalties": [0, 0, 0, 0],
            "scores": deltas,
        }
    ).encode()  # fmt: skip


def test_bombs_and_forgeries_never_reach_the_standings(broker: MosquittoBroker, tmp_path: Path):
    store = ScoreStore(tmp_path / "scores.sqlite")
    consumer = ScoreConsumer(parse_mqtt_url(broker.url), "cup", store, group=None)
    service = make_service(broker.url)
    consumer.start()
    service.start()
    try:
        wait_until(consumer.connected.is_set, 10, "consumer connected")
        wait_until(service.link.connected.is_set, 10, "table connected")
        with Probe(broker.url, "attacker") as attacker:
            attacker.subscribe("tilesight/v1/cup/+/cmd/resync")
            attacker.client.publish(f"{ROOT}/events/x", b"[" * 5000, qos=1)
            attacker.client.publish(
                f"{ROOT}/events/hand_ended", _forged_hand("T1", 50, [10**30, 0, 0, 0]), qos=1
            )
            attacker.client.publish(
                f"{ROOT}/events/hand_ended", _forged_hand("T9", 1, [900, -300, -300, -300]), qos=1
            )
            attacker.client.publish(
                "tilesight/v1/cup/T2/state", json.dumps({"epoch": 1, "seq": 999_999_999}), qos=1
            )
            for _ in range(3):  # one real hand: 24 to seat 1, -8 from the others
                service.apply(Washout())
            wait_until(lambda: consumer.caught_up("T1"), 15, "the real hand stored")
            wait_until(lambda: attacker.on("/T2/cmd/resync"), 10, "a resync for the forged state")
            asked = [json.loads(m.payload) for m in attacker.on("/cmd/resync")]
    finally:
        service.stop()
        consumer.stop()
    standings = {(s.table, s.seat): s.points for s in store.standings("cup")}
    store.close()
    assert standings == {("T1", 0): -8, ("T1", 1): 24, ("T1", 2): -8, ("T1", 3): -8}
    assert consumer.rejected >= 3  # the bomb, the 10**30 delta, the foreign table
    assert all(r["to_seq"] - r["from_seq"] <= 10_000 for r in asked), asked  # answerable


def test_scores_with_no_broker_exits_non_zero(tmp_path: Path):
    started = time.monotonic()
    result = subprocess.run(
        [TILESIGHT, "scores", "--tournament", "cup", "--db", str(tmp_path / "s.sqlite"),
         "--mqtt", f"mqtt://127.0.0.1:{free_port()}", "--connect-timeout", "2"],
        check=False, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2, result
    assert "not reachable within 2 s" in result.stderr
    assert time.monotonic() - started < 30


def test_scores_with_a_wrong_password_says_so_and_stops(
    secured_broker: MosquittoBroker,  # noqa: F811 - the fixture
    tmp_path: Path,
):
    url = f"mqtt://scores:not-the-password@127.0.0.1:{secured_broker.port}"
    result = subprocess.run(
        [TILESIGHT, "scores", "--tournament", "cup", "--db", str(tmp_path / "s.sqlite"),
         "--mqtt", url, "--connect-timeout", "30"],
        check=False, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2, result
    assert "refused score capture: not authorised (a wrong password" in result.stderr
    assert "not-the-password" not in result.stderr + result.stdout
    assert ACCOUNTS["scores"] not in result.stderr
