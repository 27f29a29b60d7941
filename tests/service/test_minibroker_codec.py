"""The minibroker's pure parts: codec round trips and fuzzing, topic matching, message expiry."""

from __future__ import annotations

import contextlib
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilesight.demo.minibroker.codec import (
    CORRELATION_DATA,
    MAX_VBI,
    MESSAGE_EXPIRY,
    RESPONSE_TOPIC,
    SESSION_EXPIRY,
    USER_PROPERTY,
    WILL_DELAY,
    ProtocolError,
    Reader,
    encode_vbi,
)
from tilesight.demo.minibroker.packets import (
    PUBACK,
    SUBACK,
    Ack,
    Connect,
    Publish,
    Simple,
    Subscribe,
    Unsubscribe,
    Will,
    decode_packet,
    encode_packet,
)
from tilesight.demo.minibroker.sessions import Delivery, Message, Session, outgoing_packet
from tilesight.demo.minibroker.topics import check_filter, matches, split_shared

text = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=["Cs"]), max_size=30)
topic = text.filter(lambda t: t and "+" not in t and "#" not in t)
props = st.lists(
    st.one_of(
        st.tuples(st.just(MESSAGE_EXPIRY), st.integers(0, 2**32 - 1)),
        st.tuples(st.just(RESPONSE_TOPIC), text),
        st.tuples(st.just(CORRELATION_DATA), st.binary(max_size=20)),
        st.tuples(st.just(USER_PROPERTY), st.tuples(text, text)),
    ),
    max_size=4,
    unique_by=lambda p: p[0] if p[0] != USER_PROPERTY else object(),
).map(tuple)


def split(data: bytes) -> tuple[int, bytes]:
    """First byte and body of one encoded packet (checks the remaining length on the way)."""
    reader = Reader(data[1:], "test")
    length = reader.vbi()
    body = reader.rest()
    assert len(body) == length
    return data[0], body


@given(st.integers(0, MAX_VBI))
def test_variable_byte_integers_round_trip(value: int) -> None:
    encoded = encode_vbi(value)
    assert len(encoded) <= 4
    assert Reader(encoded, "vbi").vbi() == value


def test_variable_byte_integer_limits() -> None:
    with pytest.raises(ValueError, match="out of range"):
        encode_vbi(MAX_VBI + 1)
    with pytest.raises(ProtocolError, match="longer than 4 bytes"):
        Reader(b"\xff\xff\xff\xff\x01", "vbi").vbi()


@given(topic, st.binary(max_size=200), st.sampled_from([0, 1]), st.booleans(), props)
def test_publish_round_trips(
    name: str, payload: bytes, qos: int, retain: bool, p: tuple[tuple[int, object], ...]
) -> None:
    packet = Publish(name, payload, qos, retain, False, 7 if qos else None, p)
    assert decode_packet(*split(encode_packet(packet))) == packet


@given(text, st.booleans(), st.integers(0, 65535), st.none() | st.tuples(topic, st.binary()),
       st.none() | text, st.none() | st.binary(max_size=10))  # fmt: skip
def test_connect_round_trips(  # noqa: PLR0917 - one per drawn field
    client_id: str,
    clean: bool,
    keepalive: int,
    will: tuple[str, bytes] | None,
    user: str | None,
    password: bytes | None,
) -> None:
    packet = Connect(
        client_id,
        clean,
        keepalive,
        ((SESSION_EXPIRY, 60),),
        Will(will[0], will[1], 1, True, ((WILL_DELAY, 5),)) if will else None,
        user,
        password,
    )
    assert decode_packet(*split(encode_packet(packet))) == packet


@pytest.mark.parametrize(
    "packet",
    [
        Subscribe(3, (("a/+/c", 1), ("$share/g/x/#", 0x2D))),
        Unsubscribe(4, ("a/#",)),
        Ack(PUBACK, 9),
        Ack(PUBACK, 9, (0x10,)),
        Ack(SUBACK, 3, (1, 0x8F)),
        Simple(12),
        Simple(14, 0x04),
    ],
)
def test_other_packets_round_trip(packet: object) -> None:
    assert decode_packet(*split(encode_packet(packet))) == packet  # type: ignore[arg-type]


@settings(max_examples=400)
@given(st.integers(0, 255), st.binary(max_size=80))
def test_random_bytes_either_decode_or_raise_a_protocol_error(first: int, body: bytes) -> None:
    try:
        decode_packet(first, body)
    except ProtocolError as exc:
        assert str(exc)  # a message to log, never an empty one
        assert 0x80 <= exc.reason <= 0xA2


VALID = [
    encode_packet(Connect("c", will=Will("w", b"x", properties=((WILL_DELAY, 1),)))),
    encode_packet(Publish("a/b", b"payload", 1, False, False, 5, ((RESPONSE_TOPIC, "r"),))),
    encode_packet(Subscribe(1, (("a/#", 1),))),
]


@settings(max_examples=400)
@given(st.sampled_from(VALID), st.data())
def test_mutated_packets_never_raise_anything_but_protocol_errors(
    valid: bytes, data: st.DataObject
) -> None:
    first, body = split(valid)
    mutated = bytearray(body)
    for _ in range(data.draw(st.integers(1, 4))):
        if not mutated:
            break
        index = data.draw(st.integers(0, len(mutated) - 1))
        mutated[index] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(mutated)))
    with contextlib.suppress(ProtocolError):  # anything else fails the test
        decode_packet(first, bytes(mutated[:cut]))


@pytest.mark.parametrize(
    ("first", "body", "message"),
    [
        (0x36, b"\x00\x01a\x00\x01\x00", "QoS 3"),
        (0x34, b"\x00\x01a\x00\x01\x00", "QoS 2"),
        (0x30, b"\x00\x03a/#\x00", "wildcard"),
        (0x30, b"\x00\x02\xff\xfe\x00", "not UTF-8"),
        (0x30, b"\x00\x01a\x02\x7f\x00", "unknown property 0x7f"),
        (0x30, b"\x00\x01a\x0a\x02\x00\x00\x00\x01\x02\x00\x00\x00\x02", "given twice"),
        (0x80, b"\x00\x01\x00", "must be 0x2"),
        (0x82, b"\x00\x01\x00", "no topic filters"),
        (0x10, b"\x00\x04MQTT\x04\x02\x00\x3c\x00\x01c", "only MQTT 5"),
        (0x60, b"\x00\x01", "not supported"),
        (0xC0, b"\x00", "trailing"),
    ],
)
def test_malformed_packets_say_what_is_wrong(first: int, body: bytes, message: str) -> None:
    with pytest.raises(ProtocolError, match=message):
        decode_packet(first, body)


@pytest.mark.parametrize(
    ("topic_filter", "name", "expected"),
    [
        ("a/+/c", "a/b/c", True),
        ("a/+/c", "a/b/c/d", False),
        ("a/#", "a", True),
        ("a/#", "a/b/c", True),
        ("#", "$SYS/x", False),
        ("+/x", "$SYS/x", False),
        ("$SYS/#", "$SYS/x", True),
        ("a/b", "a/b", True),
        ("a/b", "a/bb", False),
        ("+", "", True),
        ("a/+", "a/", True),
    ],
)
def test_topic_matching(topic_filter: str, name: str, expected: bool) -> None:
    assert matches(topic_filter, name) is expected


@pytest.mark.parametrize("bad", ["", "a/#/b", "a#", "a/b+", "$share/g", "$share//a", "$share/g+/a"])
def test_bad_filters_are_refused(bad: str) -> None:
    with pytest.raises(ProtocolError):
        check_filter(bad)
        split_shared(bad)


def test_shared_filters_split_into_group_and_filter() -> None:
    assert split_shared("$share/scores/cup/+/events/#") == ("scores", "cup/+/events/#")
    assert split_shared("cup/#") == (None, "cup/#")


def test_message_expiry_counts_down_and_expired_messages_are_not_sent() -> None:
    now = time.monotonic()
    old = Message("t", b"old", 1, False, ((MESSAGE_EXPIRY, 5),), arrived=now - 6)
    fresh = Message("t", b"fresh", 1, False, ((MESSAGE_EXPIRY, 100),), arrived=now - 30)
    assert old.expired(now) and not fresh.expired(now)
    sent: list[bytes] = []
    session = Session("s")
    session.deliver(Delivery(old, 1, False))  # offline: both queue
    session.deliver(Delivery(fresh, 1, False))
    session.send = sent.append
    session.pump()
    assert len(sent) == 1
    packet = decode_packet(*split(sent[0]))
    assert isinstance(packet, Publish) and packet.payload == b"fresh"
    assert dict(packet.properties)[MESSAGE_EXPIRY] in (69, 70)  # 100 s less the 30 s spent
    assert outgoing_packet(Delivery(fresh, 0, False), None, False, now) != sent[0]  # QoS 0 form
