"""Every executed command is logged as exactly one ``command_handled`` event, in sequence, through
the outbox: verb, outcome, the sender's account (MQTT 5 user property), correlation data and, for
``ack``, the acknowledged alert; ``resync`` (a read of the outbox) is answered but not logged.
Against a real Mosquitto and the real rules engine."""

from __future__ import annotations

import json
from typing import Any

from engine.actions import TableFault
from tests.service.conftest import Probe, make_service, wait_until
from tilesight.demo.broker import MosquittoBroker
from tilesight.remote_commands import CommandError
from tilesight.table_engine import TableEngine

ROOT = "tilesight/v1/cup/T1"
REPLY = f"{ROOT}/reply/probe"


def _table_control(verb: str) -> dict[str, Any]:
    if verb == "clear_error":
        raise CommandError("clear_error: the table reports no error")
    return {"table": verb}


def _handled(probe: Probe) -> list[dict[str, Any]]:
    return [json.loads(m.payload) for m in probe.on("/events/command_handled")]


def _answers(probe: Probe) -> dict[bytes, dict[str, Any]]:
    out = {}
    for m in probe.on("/reply/probe"):
        body = json.loads(m.payload)
        if "ok" in body:  # resync replays events to the same topic; answers carry "ok"
            out[m.properties.CorrelationData] = body
    return out


def test_each_command_produces_exactly_one_command_handled_event(broker: MosquittoBroker):
    engine = TableEngine(table_id="T1", procedure="log", rules=None)
    service = make_service(broker.url, engine=engine, table_control=_table_control)
    service.start()
    try:
        wait_until(service.link.connected.is_set, 10, "service connection")
        (fault,) = service.apply(TableFault(code="jam", detail="lift 2 stuck"))
        with Probe(broker.url, "probe") as probe:
            probe.subscribe(f"{ROOT}/events/#")
            probe.subscribe(REPLY)
            sent = [
                ("ack", {"alert": fault.event_id, "note": "lift freed"}),
                ("shuffle", {}),
                ("raise", {}),
                ("clear_error", {}),
                ("resync", {"epoch": 1, "from_seq": 1, "to_seq": 1}),
                ("correction", {"supersedes": fault.event_id, "reason": "false alarm"}),
            ]
            for n, (verb, body) in enumerate(sent):
                probe.command(
                    f"{ROOT}/cmd/{verb}",
                    json.dumps(body),
                    reply_to=REPLY,
                    correlation=f"c{n}".encode(),
                    account="referee-anna" if n % 2 == 0 else None,
                )
            probe.command(f"{ROOT}/cmd/ack", b"{not json", reply_to=REPLY, correlation=b"bad")
            wait_until(lambda: len(_answers(probe)) == len(sent) + 1, 10, "every answer")
            wait_until(lambda: len(_handled(probe)) >= len(sent) - 1, 10, "command_handled events")
            answers = _answers(probe)
            handled = _handled(probe)
            everything = [json.loads(m.payload) for m in probe.on("") if "/events/" in m.topic]
    finally:
        service.stop()
    logged = [n for n, (verb, _) in enumerate(sent) if verb != "resync"]
    assert len(handled) == len(logged), handled  # neither resync nor the malformed one
    by_correlation = {e["correlation"]: e for e in handled}
    assert sorted(by_correlation) == [f"c{n}" for n in logged]
    assert answers[b"c4"] == {"ok": True, "verb": "resync", "result": {"replayed": 1}}
    for n in logged:
        verb = sent[n][0]
        event, answer = by_correlation[f"c{n}"], answers[f"c{n}".encode()]
        assert event["verb"] == verb
        assert event["account"] == ("referee-anna" if n % 2 == 0 else None)
        assert event["outcome"] == ("ok" if answer["ok"] else "error")
        assert answer["event"] == event["event_id"]
        assert event["schema"] == "tilesight.event/1" and event["table"] == "T1"
        assert event["epoch"] == 1 and event["timestamp"] > 0
    ack = by_correlation["c0"]
    assert (ack["alert"], ack["note"]) == (fault.event_id, "lift freed")
    assert json.loads(ack["result"]) == {"alert": fault.event_id}
    assert json.loads(by_correlation["c1"]["result"]) == {"table": "shuffle"}
    assert by_correlation["c3"]["outcome"] == "error"
    assert "no error" in by_correlation["c3"]["error"]
    assert answers[b"bad"]["ok"] is False and "event" not in answers[b"bad"]
    # in sequence with the table's own events, and stored in the outbox like them
    # the fault (seq 1) came before the probe; the resync of seq 1 may republish it, in time
    # for the probe or not: only that copy may come from before
    assert all(e["event_id"] == fault.event_id for e in everything if e["seq"] <= fault.seq)
    seqs = sorted(e["seq"] for e in everything if e["seq"] > fault.seq)
    assert seqs == list(range(fault.seq + 1, fault.seq + 1 + len(seqs)))
    types = [e["type"] for e in sorted(everything, key=lambda e: e["seq"])]
    assert types.count("command_handled") == len(logged)
    assert "correction_applied" in types
    stored = service.outbox.between("T1", 1, 1, 10_000)
    assert sum(r.type == "command_handled" for r in stored) == len(logged)
    assert service.outbox.counts()[1] == 0


def test_a_command_record_cannot_be_injected_as_an_action():
    from tilesight.remote_commands import parse_command

    body = {"action": {"action": "command_record", "verb": "ack", "outcome": "ok"}}
    try:
        parse_command("action", json.dumps(body).encode())
    except CommandError as exc:
        assert "command_record" in str(exc)
    else:
        raise AssertionError("a forged command record was accepted")
