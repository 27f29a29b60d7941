"""The embedded MQTT 5 broker against real paho clients (and a raw socket where paho can't)."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.service.minibroker_helpers import Client, RawClient, publish_properties, wait_until
from tilesight.demo.minibroker import EmbeddedBroker
from tilesight.demo.minibroker.codec import MESSAGE_EXPIRY, SESSION_EXPIRY, WILL_DELAY
from tilesight.demo.minibroker.packets import PUBACK, Ack, Connect, Simple, Subscribe, Will


@pytest.fixture
def embedded() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker() as running:
        yield running


def test_qos0_and_qos1_reach_subscribers_at_the_lower_qos(embedded: EmbeddedBroker) -> None:
    with Client(embedded.port, "sub") as sub, Client(embedded.port, "pub") as pub:
        sub.subscribe("t/one", qos=1)
        sub.subscribe("t/zero", qos=0)
        pub.publish("t/one", b"q1", qos=1)
        pub.publish("t/one", b"q0", qos=0)
        pub.publish("t/zero", b"downgraded", qos=1)
        got = {bytes(sub.wait_for(p).payload): sub.wait_for(p).qos for p in (b"q1", b"q0")}
        assert got == {b"q1": 1, b"q0": 0}
        assert sub.wait_for(b"downgraded").qos == 0
        assert [m.topic for m in sub.received()].count("t/one") == 2  # each exactly once


def test_retained_message_reaches_a_late_subscriber_and_can_be_cleared(
    embedded: EmbeddedBroker,
) -> None:
    with Client(embedded.port, "pub") as pub:
        pub.publish("room/state", b"v1", retain=True)
        pub.publish("room/state", b"v2", retain=True)  # replaces v1
        with Client(embedded.port, "late") as late:
            late.subscribe("room/#")
            message = late.wait_for(b"v2")
            assert message.retain and message.topic == "room/state"
            pub.publish("room/live", b"live")
            assert late.wait_for(b"live").retain is False
            assert b"v1" not in late.payloads()
        pub.publish("room/state", b"", retain=True)  # an empty retained payload clears it
        with Client(embedded.port, "later") as later:
            later.subscribe("room/#")
            pub.publish("room/marker", b"marker")  # retained ones would have come first
            later.wait_for(b"marker")
            assert later.payloads() == [b"marker"]


def test_wildcards_match_levels_and_skip_dollar_topics(embedded: EmbeddedBroker) -> None:
    with Client(embedded.port, "sub") as sub, Client(embedded.port, "pub") as pub:
        sub.subscribe("a/+/c")
        sub.subscribe("x/#")
        sub.subscribe("#")
        for topic in ("a/b/c", "a/b/d", "a/b/c/d", "x", "x/y/z", "$SYS/load"):
            pub.publish(topic, topic.encode())
        pub.publish("end", b"end")
        sub.wait_for(b"end")
        by_topic: dict[str, int] = {}
        for m in sub.received():
            by_topic[m.topic] = by_topic.get(m.topic, 0) + 1
        # overlapping subscriptions deliver once; '#' never matches '$SYS/...'
        assert by_topic == {"a/b/c": 1, "a/b/d": 1, "a/b/c/d": 1, "x": 1, "x/y/z": 1, "end": 1}


def test_shared_subscription_hands_each_message_to_one_member_in_turn(
    embedded: EmbeddedBroker,
) -> None:
    with (
        Client(embedded.port, "w1") as w1,
        Client(embedded.port, "w2") as w2,
        Client(embedded.port, "solo") as solo,
        Client(embedded.port, "pub") as pub,
    ):
        w1.subscribe("$share/g/jobs/#")
        w2.subscribe("$share/g/jobs/#")
        solo.subscribe("jobs/#")
        sent = [f"job{i}".encode() for i in range(10)]
        for payload in sent:
            pub.publish("jobs/x", payload)
        wait_until(lambda: len(w1.received()) + len(w2.received()) == 10, "10 shared jobs")
        assert sorted(w1.payloads() + w2.payloads()) == sorted(sent)  # no loss, no duplicate
        assert len(w1.payloads()) == len(w2.payloads()) == 5  # round robin
        assert w1.payloads() in (sent[0::2], sent[1::2])
        wait_until(lambda: len(solo.received()) == 10, "the plain subscriber's copies")
        assert all(not m.topic.startswith("$share") for m in w1.received())


def test_response_topic_correlation_user_properties_and_expiry_are_forwarded(
    embedded: EmbeddedBroker,
) -> None:
    with Client(embedded.port, "table") as table, Client(embedded.port, "ref") as ref:
        table.subscribe("cup/T1/cmd/#")
        props = publish_properties(
            ResponseTopic="cup/reply/ref",
            CorrelationData=b"\x00id-7",
            MessageExpiryInterval=30,
            UserProperty=[("who", "referee"), ("n", "2")],
            ContentType="application/json",
            PayloadFormatIndicator=1,
        )
        ref.publish("cup/T1/cmd/pause", b"{}", properties=props)
        got: Any = table.wait_for(b"{}").properties
        assert got.ResponseTopic == "cup/reply/ref"
        assert got.CorrelationData == b"\x00id-7"
        assert got.UserProperty == [("who", "referee"), ("n", "2")]
        assert got.ContentType == "application/json" and got.PayloadFormatIndicator == 1
        assert 29 <= got.MessageExpiryInterval <= 30


def _persistent(client_id: str, **kw: object) -> Connect:
    return Connect(client_id, clean_start=False, keepalive=30,
                   properties=((SESSION_EXPIRY, 60),), **kw)  # type: ignore[arg-type]  # fmt: skip


def test_unacknowledged_qos1_is_redelivered_to_a_persistent_session(
    embedded: EmbeddedBroker,
) -> None:
    raw = RawClient(embedded.port)
    assert raw.connect(_persistent("consumer")) == (False, 0)
    raw.send(Subscribe(1, (("ev/#", 1),)))
    raw.read()  # SUBACK
    with Client(embedded.port, "pub") as pub:
        pub.publish("ev/1", b"first")
        first = raw.read_publish()
        assert (first.payload, first.dup) == (b"first", False)
        raw.drop()  # no PUBACK, no DISCONNECT
        pub.publish("ev/2", b"while away")  # queued for the session
        wait_until(lambda: not embedded.server.connections.get("consumer"), "the drop noticed")
    again = RawClient(embedded.port)
    assert again.connect(_persistent("consumer")) == (True, 0)  # session present
    resent = again.read_publish()
    assert (resent.payload, resent.dup, resent.packet_id) == (b"first", True, first.packet_id)
    queued = again.read_publish()
    assert queued.payload == b"while away"
    again.send(Ack(PUBACK, resent.packet_id or 0))
    again.send(Ack(PUBACK, queued.packet_id or 0))
    again.send(Simple(14))
    assert again.closed_by_broker()


def test_will_is_published_after_its_delay_on_an_abrupt_disconnect(
    embedded: EmbeddedBroker,
) -> None:
    will = Will("cup/T1/status", b"offline", qos=1, retain=True, properties=((WILL_DELAY, 1),))
    with Client(embedded.port, "overlay") as overlay:
        overlay.subscribe("cup/+/status")
        polite = RawClient(embedded.port)
        polite.connect(Connect("polite", will=Will("cup/T0/status", b"never")))
        polite.send(Simple(14))  # a clean DISCONNECT: the will is discarded
        assert polite.closed_by_broker()
        table = RawClient(embedded.port)
        table.connect(_persistent("table", will=will))
        dropped_at = time.monotonic()
        table.drop()
        message = overlay.wait_for(b"offline")
        assert time.monotonic() - dropped_at >= 0.9  # not before the will delay
        assert message.topic == "cup/T1/status"
        assert b"never" not in overlay.payloads()
    with Client(embedded.port, "late") as late:  # the will was retained
        late.subscribe("cup/T1/status")
        assert late.wait_for(b"offline").retain


def test_reconnecting_within_the_will_delay_cancels_the_will(embedded: EmbeddedBroker) -> None:
    will = Will("cup/T2/status", b"offline", properties=((WILL_DELAY, 30),))
    first = RawClient(embedded.port)
    first.connect(_persistent("table2", will=will))
    first.drop()
    wait_until(lambda: "table2" in embedded.server._wills, "the will to be scheduled")
    back = RawClient(embedded.port)
    assert back.connect(_persistent("table2")) == (True, 0)
    assert "table2" not in embedded.server._wills  # back in time: the will is cancelled
    back.send(Simple(14))
    assert back.closed_by_broker()


def test_silent_client_is_closed_after_one_and_a_half_keepalives(
    embedded: EmbeddedBroker,
) -> None:
    with Client(embedded.port, "watch") as watch:
        watch.subscribe("gone")
        raw = RawClient(embedded.port)
        raw.connect(Connect("silent", keepalive=1, will=Will("gone", b"silent one")))
        started = time.monotonic()
        assert raw.closed_by_broker()
        assert time.monotonic() - started >= 1.0
        watch.wait_for(b"silent one")


def test_session_takeover_closes_the_older_connection(embedded: EmbeddedBroker) -> None:
    older = RawClient(embedded.port)
    older.connect(Connect("same"))
    newer = RawClient(embedded.port)
    assert newer.connect(Connect("same"))[1] == 0
    packet = older.read()
    assert packet == Simple(14, 0x8E)  # DISCONNECT: session taken over
    assert older.closed_by_broker()
    newer.send(Simple(14))
    assert newer.closed_by_broker()


def test_stopping_the_broker_ends_its_thread_and_frees_the_port() -> None:
    broker = EmbeddedBroker().start()
    port = broker.port
    with Client(port, "c") as client:
        client.subscribe("x")
        broker.close()
        wait_until(lambda: not client.connected.is_set() or not client.client.is_connected(),
                   "the client to notice")  # fmt: skip
    assert not broker.running
    again = EmbeddedBroker(port=port).start()  # the port is free again
    again.close()


@pytest.mark.parametrize(
    ("connect_first", "garbage", "logged"),
    [
        (False, b"\x30\x05\x00\x01a\x00x", "first packet must be CONNECT"),
        (False, b"\x10\x0d\x00\x04MQTT\x04\x02\x00\x3c\x00\x01c", "only MQTT 5"),
        (False, b"\x10\xff\xff\xff\xff\x01", "longer than 4 bytes"),
        (True, b"\x30\x06\x00\x01a\x02\x7f\x00", "unknown property 0x7f"),
        (True, b"\x34\x06\x00\x01a\x00\x01\x00", "QoS 2 is not supported"),
        (True, b"\x82\x05\x00\x01\x00\x00\x01", "truncated"),
    ],
)
def test_malformed_packets_close_only_their_connection(
    embedded: EmbeddedBroker,
    caplog: pytest.LogCaptureFixture,
    connect_first: bool,
    garbage: bytes,
    logged: str,
) -> None:
    caplog.set_level("WARNING", logger="tilesight.minibroker")
    with Client(embedded.port, "bystander") as bystander:
        bystander.subscribe("still/#")
        raw = RawClient(embedded.port)
        if connect_first:
            raw.connect(Connect("rogue"))
        raw.send(garbage)
        if connect_first:  # a connected client is told why (DISCONNECT with a reason code)
            packet = raw.read()
            assert isinstance(packet, Simple) and packet.kind == 14 and packet.reason >= 0x80
        assert raw.closed_by_broker()
        wait_until(lambda: logged in caplog.text, f"the log line {logged!r}")
        assert "closing connection 127.0.0.1:" in caplog.text
        bystander.publish("still/here", b"alive")  # the broker keeps serving everyone else
        bystander.wait_for(b"alive")


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.binary(min_size=1, max_size=60), st.booleans())
def test_random_bytes_on_the_wire_never_break_the_broker(
    caplog: pytest.LogCaptureFixture, garbage: bytes, connect_first: bool
) -> None:
    caplog.clear()
    with EmbeddedBroker() as broker:
        raw = RawClient(broker.port)
        if connect_first:
            raw.connect(Connect("fuzz"))
        raw.send(garbage)
        raw.drop()
        with Client(broker.port, "after") as after:  # still serving
            after.subscribe("ok")
            after.publish("ok", b"fine")
            after.wait_for(b"fine")
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


def test_expired_messages_are_not_delivered_to_a_returning_session(
    embedded: EmbeddedBroker,
) -> None:
    raw = RawClient(embedded.port)
    raw.connect(_persistent("offline-reader"))
    raw.send(Subscribe(1, (("cmd/#", 1),)))
    raw.read()  # SUBACK
    raw.send(Simple(14))  # clean DISCONNECT; the session (60 s) keeps the subscription
    assert raw.closed_by_broker()
    with Client(embedded.port, "sender") as sender:
        sender.publish(
            "cmd/stale", b"stale", properties=publish_properties(MessageExpiryInterval=1)
        )
        sender.publish("cmd/keep", b"keep", properties=publish_properties(MessageExpiryInterval=60))
        published = time.monotonic()
    # the condition under test is time itself: the 1 s interval must have run out
    wait_until(lambda: time.monotonic() - published > 1.05, "the 1 s expiry to pass")
    back = RawClient(embedded.port)
    assert back.connect(_persistent("offline-reader")) == (True, 0)
    got = back.read_publish()
    assert got.payload == b"keep"  # 'stale' expired while waiting and was dropped
    assert 40 <= dict(got.properties)[MESSAGE_EXPIRY] <= 59  # type: ignore[operator]  # counted down
    back.send(Ack(PUBACK, got.packet_id or 0))
    back.send(Simple(14))
    assert back.closed_by_broker()
