"""The example Mosquitto ACL: overlays cannot command a table, referees can, tables stay home;
violations reach referees and score capture, never a viewer's account."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from engine.actions import Washout
from tests.engine.table_script import DEAL, script
from tests.service.conftest import REPO_ROOT, Probe, make_service, wait_until
from tilesight.config import parse_mqtt_url
from tilesight.demo.broker import MosquittoBroker, find_mosquitto, free_port, wait_for_port
from tilesight.score_store import ScoreStore
from tilesight.scores import ScoreConsumer
from tilesight.table_engine import TableEngine

ACCOUNTS = {
    "T1": "t1-pw",
    "T2": "t2-pw",
    "overlay": "ov-pw",
    "referee": "ref-pw",
    "scores": "sc-pw",
    "overlay-delayed": "ovd-pw",
}
ACL = REPO_ROOT / "examples" / "mosquitto" / "acl"


@pytest.fixture
def secured_broker(tmp_path: Path):
    if find_mosquitto() is None:
        pytest.skip("mosquitto is not installed")
    passwords = write_passwords(tmp_path / "passwords", ACCOUNTS)
    with MosquittoBroker(password_file=passwords, acl_file=ACL, workdir=tmp_path) as broker:
        yield broker


def write_passwords(path: Path, accounts: dict[str, str]) -> Path:
    """A Mosquitto password file holding ``accounts`` (user name: password)."""
    path.touch()
    for user, password in accounts.items():
        subprocess.run(
            ["mosquitto_passwd", "-b", str(path), user, password], check=True, capture_output=True
        )
    return path


def _url(broker: MosquittoBroker, user: str) -> str:
    return f"mqtt://{user}:{ACCOUNTS[user]}@127.0.0.1:{broker.port}"


def test_only_referees_may_command_a_table(secured_broker: MosquittoBroker):
    service = make_service(_url(secured_broker, "T1"))
    service.start()
    try:
        wait_until(service.link.connected.is_set, 10, "table connection")
        service.apply(Washout())
        wait_until(lambda: service.outbox.counts()[1] == 0, 10, "event accepted by the ACL")
        body = json.dumps({"alert": "a1"})
        with Probe(secured_broker.url, "ov", "overlay", ACCOUNTS["overlay"]) as overlay:
            refused = overlay.command("tilesight/v1/cup/T1/cmd/ack", body)
            overlay.subscribe("tilesight/v1/cup/T1/#")
            wait_until(lambda: overlay.on("/state"), 5, "public state for the overlay")
        with Probe(secured_broker.url, "tab2", "T2", ACCOUNTS["T2"]) as other_table:
            other = other_table.command("tilesight/v1/cup/T1/cmd/ack", body)
            forged = other_table.command("tilesight/v1/cup/T1/events/win_declared", b"{}")
        with Probe(secured_broker.url, "ref", "referee", ACCOUNTS["referee"]) as referee:
            reply_to = "tilesight/v1/cup/T1/reply/ref"
            referee.subscribe(reply_to)
            accepted = referee.command("tilesight/v1/cup/T1/cmd/ack", body, reply_to=reply_to)
            wait_until(lambda: referee.on("/reply/ref"), 5, "the referee's reply")
    finally:
        service.stop()
    assert refused.value == 0x87 and other.value == 0x87 and forged.value == 0x87
    assert accepted.value == 0
    assert list(service.executed) == ["ack"]  # only the referee's command ran
    assert not overlay.on("/private/state")  # overlays never see concealed information


def test_delayed_overlay_account_sees_only_the_delayed_copies(secured_broker: MosquittoBroker):
    service = make_service(_url(secured_broker, "T1"), broadcast_delay_s=0.6)
    service.start()
    try:
        wait_until(service.link.connected.is_set, 10, "table connection")
        with Probe(secured_broker.url, "ovd", "overlay-delayed", "ovd-pw") as overlay:
            overlay.subscribe("tilesight/v1/cup/T1/#")
            with Probe(secured_broker.url, "ref2", "referee", ACCOUNTS["referee"]) as live:
                live.subscribe("tilesight/v1/cup/T1/events/#")
                applied = time.monotonic()
                for _ in range(3):
                    service.apply(Washout())
                wait_until(lambda: len(live.messages) == 3, 5, "the live events")
                early = [m for m in overlay.messages if "/delayed/events/" in m.topic]
                wait_until(
                    lambda: (
                        len([m for m in overlay.messages if "/delayed/events/" in m.topic]) == 3
                    ),
                    10,
                    "three delayed copies",
                )
                lag = time.monotonic() - applied
                live_seen = [json.loads(m.payload)["seq"] for m in live.messages]
            delayed_seen = [
                json.loads(m.payload)["seq"]
                for m in overlay.messages
                if "/delayed/events/" in m.topic
            ]
            topics = {m.topic.split("/T1/")[1] for m in overlay.messages}
    finally:
        service.stop()
    assert delayed_seen == live_seen == [1, 2, 3]
    assert early == [] and lag >= 0.55
    assert topics == {
        "status",
        "delayed/state",
        "delayed/events/hand_started",
        "delayed/events/tile_discarded",
        "delayed/events/hand_ended",
    }, topics


def test_violations_reach_referees_and_scores_but_no_overlay(secured_broker: MosquittoBroker):
    """A real out-of-turn discard through the real engine: the violation goes to
    private/events/violation, which the referee and score capture read and no overlay can."""
    service = make_service(
        _url(secured_broker, "T1"),
        engine=TableEngine(table_id="T1", procedure="log", rules=None),
        broadcast_delay_s=0.2,
    )
    consumer = ScoreConsumer(
        parse_mqtt_url(_url(secured_broker, "scores")), "cup", ScoreStore(":memory:"), name="sc"
    )
    accounts = [("ov", "overlay"), ("ovd", "overlay-delayed"), ("ref", "referee")]
    probes = {user: Probe(secured_broker.url, cid, user, ACCOUNTS[user]) for cid, user in accounts}
    service.start()
    consumer.start()
    try:
        wait_until(service.link.connected.is_set, 10, "table connection")
        wait_until(consumer.connected.is_set, 10, "score capture connection")
        for probe in probes.values():
            probe.__enter__()
            probe.subscribe("tilesight/v1/#")  # everything the account may read
        for action in script(DEAL + "0 draw 5p\n0 discard 5p\n2 discard N\n"):
            service.apply(action)  # seat 2 discards out of turn
        last = service.engine.position[1]
        referee, overlay, delayed = probes["referee"], probes["overlay"], probes["overlay-delayed"]
        wait_until(lambda: referee.on("/private/events/violation"), 10, "the referee's violation")
        wait_until(lambda: len(overlay.on("/events/tile_discarded")) == 2, 10, "overlay events")
        wait_until(lambda: len(delayed.on("/delayed/events/tile_discarded")) == 2, 10, "copies")
        assert consumer.wait_caught_up(10, "T1", (1, last)), consumer.positions()
        time.sleep(0.5)  # anything still in flight to the overlays arrives
    finally:
        for probe in probes.values():
            probe.__exit__()
        consumer.stop()
        service.stop()
    violation = json.loads(referee.on("/private/events/violation")[0].payload)
    assert violation["type"] == "violation" and violation["kind"] == "out_of_turn"
    for viewer in (overlay, delayed):
        payloads = [m.payload for m in viewer.messages if not m.topic.endswith("/status")]
        assert payloads and not [p for p in payloads if b"violation" in p or b"out_of_turn" in p]
        assert not [m.topic for m in viewer.messages if "/private/" in m.topic]
    assert not referee.on("/T1/events/violation")  # no public copy for anyone
    stored = consumer.store.seqs("cup", "T1", 1)
    assert violation["seq"] in stored and stored == list(range(1, last + 1))
    assert consumer.resyncs == 0  # the violation came by subscription, not by gap repair


def test_example_mosquitto_conf_is_valid(tmp_path: Path):
    """The example broker configuration starts as written (ports and paths moved to tmp)."""
    if find_mosquitto() is None:
        pytest.skip("mosquitto is not installed")
    mqtt_port, ws_port = free_port(), free_port()
    passwords = tmp_path / "passwords"
    subprocess.run(
        ["mosquitto_passwd", "-c", "-b", str(passwords), "T1", "pw"],
        check=True,
        capture_output=True,
    )
    text = (REPO_ROOT / "examples" / "mosquitto" / "mosquitto.conf").read_text()
    text = (
        text.replace("listener 1883", f"listener {mqtt_port} 127.0.0.1")
        .replace("listener 9001", f"listener {ws_port} 127.0.0.1")
        .replace("examples/mosquitto/passwords", str(passwords))
        .replace("examples/mosquitto/acl", str(REPO_ROOT / "examples/mosquitto/acl"))
        .replace("/var/lib/mosquitto/", f"{tmp_path}/")
    )
    conf = tmp_path / "mosquitto.conf"
    conf.write_text(text + ("user root\n" if os.geteuid() == 0 else ""))
    process = subprocess.Popen(
        [find_mosquitto() or "mosquitto", "-c", str(conf)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        ready = wait_for_port("127.0.0.1", mqtt_port, 10) and wait_for_port(
            "127.0.0.1", ws_port, 10
        )
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=10)
    assert ready, output
