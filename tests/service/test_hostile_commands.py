"""Hostile commands (issue 44, findings 1 and 5) against a real ``tilesight run`` and Mosquitto:
one message must not silence a table, nor be redelivered into a crash after a restart; commands
are journaled before they are acknowledged, run once per id, only for this table, and answered
only inside this table's ``reply/``."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest

from tests.service.conftest import Probe, make_service, wait_until
from tests.service.hostile_helpers import (
    REPLY,
    ROOT,
    all_replies,
    finish,
    replies,
    send,
    table_process,
    wait_online,
    write_config,
)
from tilesight.demo.broker import MosquittoBroker

NESTED = b'{"epoch": ' + b"[" * 5000 + b"]" * 5000 + b', "from_seq": 1, "to_seq": 2}'


@pytest.mark.slow
def test_a_deeply_nested_command_is_answered_and_not_redelivered_after_a_restart(
    broker: MosquittoBroker, tmp_path: Path
):
    config = write_config(tmp_path, broker.url)
    with Probe(broker.url, "ref") as probe:
        probe.subscribe(f"{ROOT}/#")
        with table_process(config) as first:
            wait_online(probe)
            send(probe, "resync", NESTED, b"nested")
            send(probe, "ack", b'{"alert": "a1"}', b"after")
            wait_until(lambda: b"after" in replies(probe), 15, "the command after the bomb")
            still_online = probe.on("T05/status")[-1].payload
            output = finish(first)
        probe.messages.clear()
        with table_process(config) as second:
            wait_online(probe)
            send(probe, "ack", b'{"alert": "a2"}', b"second")
            wait_until(lambda: b"second" in replies(probe), 15, "the restarted table answering")
            output += finish(second)
    nested = [body for corr, body in all_replies(probe) if corr == b"nested"]
    assert still_online == b"online"
    assert replies(probe)[b"second"]["ok"] is True
    assert nested == []  # acknowledged the first time: never delivered again
    assert "nested 5001 deep" in output  # the first run answered it with the reason
    assert "Traceback" not in output and first.returncode == 0 and second.returncode == 0


def test_an_8_mb_command_never_reaches_the_table_and_it_stays_connected(broker: MosquittoBroker):
    service = make_service(broker.url, table="T05", tournament="hall")
    service.start()
    try:
        wait_until(service.link.connected.is_set, 10, "service connection")
        with Probe(broker.url, "ref") as probe:
            probe.subscribe(REPLY)
            send(probe, "ack", b'{"alert": "x", "note": "' + b"x" * 8_000_000 + b'"}', b"big")
            send(probe, "ack", b'{"alert": "small"}', b"small")
            wait_until(lambda: b"small" in replies(probe), 10, "the next command")
            time.sleep(1.0)
            answered = replies(probe)
    finally:
        service.stop()
    assert b"big" not in answered  # dropped by the broker (Maximum Packet Size), not parsed
    assert service.link.connects == 1  # no keepalive missed, no reconnect loop


def test_a_command_id_runs_once_and_a_repeat_gets_the_first_answer(broker: MosquittoBroker):
    service = make_service(broker.url, table="T05", tournament="hall")
    service.start()
    try:
        wait_until(service.link.connected.is_set, 10, "service connection")
        with Probe(broker.url, "ref") as probe:
            probe.subscribe(REPLY)
            for corr in (b"one", b"two"):
                send(probe, "ack", b'{"alert": "a1"}', corr, command_id="cmd-42")
            wait_until(lambda: len(replies(probe)) == 2, 10, "both answers")
            answers = replies(probe)
    finally:
        service.stop()
    assert list(service.executed) == ["ack"]
    assert answers[b"one"]["event"] == answers[b"two"]["event"]
    assert service.outbox.counts()[0] == 1  # one command_handled, not two


def test_a_repeat_arriving_while_the_first_copy_runs_is_answered_too(broker: MosquittoBroker):
    """Found by bench/bench_soak.py: a repeat of a command id whose first copy was still queued
    or running was acknowledged and never answered."""
    service = make_service(broker.url, table="T05", tournament="hall")
    service.table_control = lambda verb: (time.sleep(1.0), {"verb": verb})[1]  # a slow table
    service.start()
    try:
        wait_until(service.link.connected.is_set, 10, "service connection")
        with Probe(broker.url, "ref") as probe:
            probe.subscribe(REPLY)
            for corr in (b"one", b"two"):
                send(probe, "shuffle", b"{}", corr, command_id="slow-1")
            wait_until(lambda: len(replies(probe)) == 2, 10, "both answers")
            time.sleep(0.3)
            answers = all_replies(probe)
    finally:
        service.stop()
    assert list(service.executed) == ["shuffle"]
    assert sorted(corr for corr, _ in answers) == [b"one", b"two"]  # each answered once
    assert answers[0][1] == answers[1][1]


def test_commands_for_another_tournament_or_answered_elsewhere_are_not_run(
    broker: MosquittoBroker,
):
    """A session left subscribed to another tournament's T05, and a response topic aimed at the
    table's own ``state``: neither makes the table run or publish anything."""
    from paho.mqtt.client import Client, MQTTv5
    from paho.mqtt.enums import CallbackAPIVersion

    from tilesight.mqtt import session_properties

    stale = Client(CallbackAPIVersion.VERSION2, client_id="shared-id", protocol=MQTTv5)
    stale.connect("127.0.0.1", broker.port, clean_start=False, properties=session_properties(600))
    stale.loop_start()
    stale.subscribe("tilesight/v1/other/T05/cmd/+", qos=1)
    time.sleep(0.5)
    stale.disconnect()
    stale.loop_stop()
    service = make_service(
        broker.url, table="T05", tournament="hall", client_id="shared-id", session_expiry_s=600
    )
    service.start()
    try:
        wait_until(service.link.connected.is_set, 10, "service connection")
        with Probe(broker.url, "ref") as probe:
            probe.subscribe(f"{ROOT}/#")
            send(probe, "ack", b'{"alert": "x"}', b"foreign", root="tilesight/v1/other/T05")
            send(probe, "ack", b'{"alert": "y"}', b"hijack", reply_to=f"{ROOT}/state")
            send(probe, "ack", b'{"alert": "z"}', b"fine")
            wait_until(lambda: b"fine" in replies(probe), 10, "the legitimate command")
            time.sleep(0.5)
            on_state = [json.loads(m.payload) for m in probe.on("T05/state")]
    finally:
        service.stop()
    assert list(service.executed) == ["ack"]  # only the legitimate one
    assert [r["result"]["alert"] for r in service.replies if r["ok"]] == ["z"]
    assert all("ok" not in body for body in on_state)  # nothing answered onto state


def test_two_tables_of_the_same_id_in_two_tournaments_do_not_kick_each_other(
    broker: MosquittoBroker,
):
    spring = make_service(broker.url, table="T01", tournament="spring")
    autumn = make_service(broker.url, table="T01", tournament="autumn")
    spring.start()
    autumn.start()
    try:
        wait_until(spring.link.connected.is_set, 10, "spring connected")
        wait_until(autumn.link.connected.is_set, 10, "autumn connected")
        time.sleep(3.0)  # kicked clients would reconnect within this
        connects = (spring.link.connects, autumn.link.connects)
    finally:
        spring.stop()
        autumn.stop()
    assert connects == (1, 1)


@pytest.mark.slow
def test_commands_acknowledged_before_a_kill_run_after_the_restart(
    broker: MosquittoBroker, tmp_path: Path
):
    """kill -9 while a slow shuffle runs and three more table commands wait: the shuffle is
    answered as interrupted, the three others run after the restart; none is lost."""
    from devices.emulator import Emulator

    emulator = Emulator(time_scale=1.0, seed=3)
    port = emulator.start_pty()
    config = write_config(tmp_path, broker.url, extra=f'[table_port]\nurl = "{port}"\n')
    try:
        with Probe(broker.url, "ref") as probe:
            probe.subscribe(f"{ROOT}/#")
            with table_process(config) as first:
                wait_online(probe)
                wait_until(
                    lambda: (
                        json.loads(probe.on("T05/state")[-1].payload)["links"]["table"] == "online"
                    ),
                    20,
                    "the table link",
                )
                for n, verb in enumerate(("shuffle", "clear_error", "clear_error", "raise")):
                    send(probe, verb, b"{}", bytes([n]), command_id=f"k{n}")
                time.sleep(1.0)
                first.send_signal(signal.SIGKILL)
                first.wait()
            with table_process(config) as second:
                wait_until(lambda: len(replies(probe)) == 4, 60, "an answer to every command")
                finish(second)
    finally:
        emulator.stop()
    answers = replies(probe)
    assert "interrupted" in answers[bytes([0])]["error"]
    assert sorted(answers) == [bytes([n]) for n in range(4)]
    assert len(all_replies(probe)) == 4  # each answered exactly once
