"""Commands over MQTT: malformed payloads answered with an error and nothing changed; expired
commands not executed; a resync replays stored events to the requester's reply topic."""

from __future__ import annotations

import json
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Washout
from tests.service.conftest import Probe, make_service, wait_until
from tilesight.demo.broker import MosquittoBroker
from tilesight.remote_commands import PAYLOADS, CommandError, ResyncRequest, parse_command

REPLY = "tilesight/v1/cup/T1/reply/probe"


def _replies(probe: Probe) -> list[dict]:
    return [json.loads(m.payload) for m in probe.on("/reply/probe")]


def test_malformed_commands_get_an_error_response_and_change_nothing(broker: MosquittoBroker):
    service = make_service(broker.url)
    service.start()
    try:
        wait_until(service.link.connected.is_set, 10, "service connection")
        service.apply(Washout())
        before_rows = service.outbox.counts()[0]
        before_state = service.engine.snapshot()
        with Probe(broker.url, "probe") as probe:
            probe.subscribe(REPLY)
            bad = [
                ("resync", b"{not json"),
                ("resync", b"[1, 2]"),
                ("resync", b'{"epoch": 1, "from_seq": 5, "to_seq": 2}'),
                ("resync", b'{"epoch": "one", "from_seq": 1, "to_seq": 2}'),
                ("correction", b'{"supersedes": "x", "replacement": {"action": "fly"}}'),
                ("action", b'{"action": {"action": "discard", "seat": 1, "tile": "10m"}}'),
                ("ack", b'{"alert": "e1", "extra": true}'),
                ("explode", b"{}"),
                ("shuffle", b"\xff\xfe"),
            ]
            for n, (verb, payload) in enumerate(bad):
                probe.command(
                    f"tilesight/v1/cup/T1/cmd/{verb}",
                    payload,
                    reply_to=REPLY,
                    correlation=bytes([n]),
                )
            wait_until(lambda: len(_replies(probe)) == len(bad), 10, "all error replies")
            replies = _replies(probe)
            correlations = sorted(m.properties.CorrelationData for m in probe.on("/reply/probe"))
        assert all(r["ok"] is False and r["error"] for r in replies), replies
        assert correlations == [bytes([n]) for n in range(len(bad))], correlations
        assert any("'explode'" in r["error"] for r in replies)
        assert any("not JSON" in r["error"] for r in replies)
        assert service.outbox.counts()[0] == before_rows
        assert service.engine.snapshot() == before_state
        assert list(service.executed) == []
    finally:
        service.stop()


def test_expired_command_is_not_executed(broker: MosquittoBroker):
    """The table is offline when a 1-second command is sent; it reconnects 2 s later."""
    service = make_service(broker.url, session_expiry_s=600)
    service.start()
    wait_until(service.link.connected.is_set, 10, "service connection")
    service.stop()  # clean disconnect; the broker keeps the session and its subscriptions
    with Probe(broker.url, "probe") as probe:
        probe.subscribe(REPLY)
        probe.command("tilesight/v1/cup/T1/cmd/ack", b'{"alert": "late"}', reply_to=REPLY, expiry=1)
        probe.command(
            "tilesight/v1/cup/T1/cmd/ack",
            b'{"alert": "fresh"}',
            reply_to=REPLY,
            expiry=60,
            correlation=b"c2",
        )
        time.sleep(2.0)  # the condition is time itself: the first command's expiry runs out
        again = make_service(broker.url, session_expiry_s=600)
        again.start()
        try:
            # commands run in order on one worker: a reply to the expired one would come first
            wait_until(lambda: len(_replies(probe)) >= 1, 10, "reply to the fresh command")
            replies = _replies(probe)
        finally:
            again.stop()
    assert [r["result"]["alert"] for r in replies] == ["fresh"]
    assert list(again.executed) == ["ack"]


def test_resync_replays_stored_events_to_the_reply_topic(broker: MosquittoBroker):
    service = make_service(broker.url)
    service.start()
    try:
        for _ in range(6):
            service.apply(Washout())
        wait_until(lambda: service.outbox.counts()[1] == 0, 10, "outbox drained")
        with Probe(broker.url, "probe") as probe:
            probe.subscribe(REPLY)
            body = json.dumps({"epoch": 1, "from_seq": 2, "to_seq": 4})
            probe.command("tilesight/v1/cup/T1/cmd/resync", body, reply_to=REPLY)
            wait_until(lambda: len(_replies(probe)) == 4, 10, "3 events and a response")
            replies = _replies(probe)
    finally:
        service.stop()
    assert [r["seq"] for r in replies[:3]] == [2, 3, 4]
    # answered, not recorded as an event: a repair must not grow the stream it repairs
    assert replies[3] == {"ok": True, "verb": "resync", "result": {"replayed": 3}}
    assert service.outbox.counts()[0] == 6


@settings(max_examples=200, deadline=None)
@given(verb=st.sampled_from([*PAYLOADS, "nope"]), payload=st.binary(max_size=200))
def test_parse_command_never_crashes(verb: str, payload: bytes):
    try:
        parse_command(verb, payload)
    except CommandError as exc:
        assert str(exc)


def test_parse_command_accepts_good_payloads():
    request = parse_command("resync", b'{"epoch": 2, "from_seq": 3, "to_seq": 9}')
    assert request == ResyncRequest(epoch=2, from_seq=3, to_seq=9)
    assert parse_command("shuffle", b"") is not None


def test_command_that_expires_while_queued_is_not_executed(broker: MosquittoBroker):
    """The service's own check: expiry measured from arrival, checked again before running."""
    from tilesight.mqtt import CommandMessage

    service = make_service(broker.url)
    service.start()
    try:
        late = CommandMessage("ack", b'{"alert": "a"}', None, None, time.time() - 0.01)
        fresh = CommandMessage("ack", b'{"alert": "b"}', None, None, time.time() + 60)
        service._receive_command(late)
        service._receive_command(fresh)
        wait_until(lambda: service.executed, 5, "the fresh command")
    finally:
        service.stop()
    assert list(service.executed) == ["ack"]
    assert [r["result"]["alert"] for r in service.replies] == ["b"]
    assert late.expired() and not fresh.expired()


def test_a_correction_the_engine_does_not_apply_is_answered_as_an_error(broker: MosquittoBroker):
    """A mahjong table's correction of an unknown event: the engine's unknown_event violation
    is recorded, the answer is ok false with its detail and the command logged as an error."""
    from tilesight.table_engine import TableEngine

    engine = TableEngine(table_id="T1", procedure="wsom", rules=None)
    service = make_service(broker.url, engine=engine)
    service.start()
    try:
        wait_until(service.link.connected.is_set, 10, "service connection")
        before = service.engine.snapshot() | {"seq": None}
        with Probe(broker.url, "probe") as probe:
            probe.subscribe(REPLY)
            body = b'{"supersedes": "no-such-event", "reason": "test"}'
            probe.command("tilesight/v1/cup/T1/cmd/correction", body, reply_to=REPLY)
            wait_until(lambda: _replies(probe), 10, "the answer")
            (reply,) = _replies(probe)
        assert reply["ok"] is False, reply
        assert (
            reply["error"].startswith("correction not applied: ")
            and "no-such-event" in reply["error"]
        )
        assert service.engine.snapshot() | {"seq": None} == before  # two events logged
        rows = service.outbox.between("T1", 1, 1, 100)
        assert [r.type for r in rows] == ["violation", "command_handled"]
        assert json.loads(rows[-1].payload)["outcome"] == "error"
    finally:
        service.stop()
