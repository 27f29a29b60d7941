"""The example Mosquitto ACL: overlays cannot command a table, referees can, tables stay home."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from engine.actions import Washout
from tests.service.conftest import REPO_ROOT, Probe, make_service, wait_until
from tilesight.broker import MosquittoBroker, find_mosquitto, free_port, wait_for_port

ACCOUNTS = {
    "T1": "t1-pw",
    "T2": "t2-pw",
    "overlay": "ov-pw",
    "referee": "ref-pw",
    "scores": "sc-pw",
    "overlay-delayed": "ovd-pw",
}


@pytest.fixture
def secured_broker(tmp_path: Path):
    if find_mosquitto() is None:
        pytest.skip("mosquitto is not installed")
    passwords = tmp_path / "passwords"
    passwords.touch()
    for user, password in ACCOUNTS.items():
        subprocess.run(
            ["mosquitto_passwd", "-b", str(passwords), user, password],
            check=True,
            capture_output=True,
        )
    acl = REPO_ROOT / "examples" / "mosquitto" / "acl"
    with MosquittoBroker(password_file=passwords, acl_file=acl, workdir=tmp_path) as broker:
        yield broker


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
