"""The embedded MQTT 5 broker against real paho clients (and a raw socket where paho can't):
routing, retained messages, subscriptions, properties, shutdown and malformed input. Sessions,
wills, keepalive and expiry: test_minibroker_sessions.py."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.service.minibroker_helpers import Client, RawClient, publish_properties, wait_until
from tilesight.demo.minibroker import EmbeddedBroker
from tilesight.demo.minibroker.packets import Connect, Simple


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
