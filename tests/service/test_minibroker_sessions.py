"""The embedded MQTT 5 broker's sessions against real paho clients and a raw socket: persistent
sessions and redelivery, wills and their delay, keepalive, takeover and message expiry."""

from __future__ import annotations

import time

from tests.service.minibroker_helpers import (
    Client,
    RawClient,
    persistent,
    publish_properties,
    wait_until,
)
from tilesight.demo.minibroker import EmbeddedBroker
from tilesight.demo.minibroker.codec import MESSAGE_EXPIRY, WILL_DELAY
from tilesight.demo.minibroker.packets import PUBACK, Ack, Connect, Simple, Subscribe, Will


def test_unacknowledged_qos1_is_redelivered_to_a_persistent_session(
    embedded: EmbeddedBroker,
) -> None:
    raw = RawClient(embedded.port)
    assert raw.connect(persistent("consumer")) == (False, 0)
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
    assert again.connect(persistent("consumer")) == (True, 0)  # session present
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
        table.connect(persistent("table", will=will))
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
    first.connect(persistent("table2", will=will))
    first.drop()
    wait_until(lambda: "table2" in embedded.server._wills, "the will to be scheduled")
    back = RawClient(embedded.port)
    assert back.connect(persistent("table2")) == (True, 0)
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


def test_expired_messages_are_not_delivered_to_a_returning_session(
    embedded: EmbeddedBroker,
) -> None:
    raw = RawClient(embedded.port)
    raw.connect(persistent("offline-reader"))
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
    assert back.connect(persistent("offline-reader")) == (True, 0)
    got = back.read_publish()
    assert got.payload == b"keep"  # 'stale' expired while waiting and was dropped
    assert 40 <= dict(got.properties)[MESSAGE_EXPIRY] <= 59  # type: ignore[operator]  # counted down
    back.send(Ack(PUBACK, got.packet_id or 0))
    back.send(Simple(14))
    assert back.closed_by_broker()
