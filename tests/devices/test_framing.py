"""Byte-level framing: COBS, CRC and whole frames against the vectors in docs/table-protocol.md."""

from __future__ import annotations

import binascii

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from devices.codes import NakReason, State
from devices.framing import (
    BadFrame,
    Flag,
    Frame,
    FrameDecoder,
    FrameError,
    cobs_decode,
    cobs_encode,
    crc16,
    decode_body,
    encode_frame,
    frame_body,
)  # fmt: skip
from devices.messages import Accepted, GetStatus, Nak, Opcode, StartShuffle, message_frame

COBS_VECTORS = [
    ("00", "01 01"),
    ("00 00", "01 01 01"),
    ("11 22 00 33", "03 11 22 02 33"),
    ("11 22 33 44", "05 11 22 33 44"),
    ("11 00 00 00", "02 11 01 01 01"),
    ("01 02 00 01 00 00 38 03", "03 01 02 02 01 01 03 38 03"),
]


@pytest.mark.parametrize(("raw", "encoded"), COBS_VECTORS)
def test_cobs_vectors(raw: str, encoded: str) -> None:
    assert cobs_encode(bytes.fromhex(raw)) == bytes.fromhex(encoded)
    assert cobs_decode(bytes.fromhex(encoded)) == bytes.fromhex(raw)


def test_cobs_long_run_uses_0xff_blocks() -> None:
    data = bytes(range(1, 256)) * 2
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert encoded[0] == 0xFF
    assert cobs_decode(encoded) == data


@pytest.mark.parametrize(
    ("data", "crc"),
    [("313233343536373839", 0x29B1), ("", 0xFFFF), ("010200010000", 0x3803), ("00", 0xE1F0)],
)
def test_crc16_ccitt_false_vectors(data: str, crc: int) -> None:
    raw = bytes.fromhex(data)
    assert crc16(raw) == crc
    assert binascii.crc_hqx(raw, 0xFFFF) == crc  # independent implementation agrees


FRAME_VECTORS = [
    # (message, seq, ack, flags, body, wire) -- the worked examples of the protocol document
    (GetStatus(), 1, 0, Flag.NONE, "01 02 00 01 00 00 38 03", "00 03 01 02 02 01 01 03 38 03 00"),
    (StartShuffle(144), 5, 4, Flag.NONE, "01 03 00 05 04 01 90 57 42",
     "00 03 01 03 07 05 04 01 90 57 42 00"),
    (StartShuffle(144), 5, 4, Flag.RETRY, "01 03 02 05 04 01 90 13 c1",
     "00 0a 01 03 02 05 04 01 90 13 c1 00"),
    (Accepted(Opcode.START_SHUFFLE, 12, 28000), 9, 5, Flag.NONE,
     "01 03 01 09 05 08 00 00 00 0c 00 00 6d 60 15 68",
     "00 07 01 03 01 09 05 08 01 01 02 0c 01 05 6d 60 15 68 00"),
    (Nak(NakReason.CRC, 0, State.IDLE, 0), 10, 0, Flag.NONE,
     "01 7f 01 0a 00 04 05 00 01 00 0f 1c", "00 05 01 7f 01 0a 03 04 05 02 01 03 0f 1c 00"),
    (Nak(NakReason.BUSY, 3, State.SHUFFLING, 0), 11, 6, Flag.NONE,
     "01 7f 01 0b 06 04 03 03 02 00 11 06", "00 0a 01 7f 01 0b 06 04 03 03 02 03 11 06 00"),
]  # fmt: skip


@pytest.mark.parametrize(("message", "seq", "ack", "flags", "body", "wire"), FRAME_VECTORS)
def test_frame_vectors(message, seq, ack, flags, body, wire) -> None:  # type: ignore[no-untyped-def]  # noqa: PLR0917
    frame = message_frame(message, seq=seq, ack=ack, flags=flags)
    assert frame_body(frame) == bytes.fromhex(body)
    assert encode_frame(frame) == bytes.fromhex(wire)
    decoded = FrameDecoder().feed(bytes.fromhex(wire))
    assert decoded == [frame]


@pytest.mark.parametrize(
    ("encoded", "reason"),
    [
        ("03 01 02 02 01 01 03 38 04", "crc"),  # last CRC byte flipped
        ("03 01 02", "short"),
        ("09 01 02", "cobs"),  # block runs past the end
        ("03 02 02 02 01 01 03 f6 e3", "version"),  # version 2 with a valid CRC
    ],
)
def test_bad_bodies_name_the_failed_check(encoded: str, reason: str) -> None:
    with pytest.raises(FrameError) as info:
        decode_body(bytes.fromhex(encoded))
    assert info.value.reason == reason


def test_length_field_is_checked() -> None:
    raw = bytes.fromhex("01 02 00 01 00 01")  # says 1 payload byte, has none
    body = raw + crc16(raw).to_bytes(2, "big")
    with pytest.raises(FrameError, match="length field 1"):
        decode_body(cobs_encode(body))


def test_decoder_resynchronises_after_garbage_and_split_chunks() -> None:
    frame = message_frame(StartShuffle(136), seq=7, ack=6)
    wire = encode_frame(frame)
    stream = b"\x13\x37garbage" + wire + b"\xff\xfe" + wire
    decoder = FrameDecoder()
    items = [item for byte in stream for item in decoder.feed(bytes([byte]))]
    frames = [item for item in items if isinstance(item, Frame)]
    assert frames == [frame, frame]
    assert any(isinstance(item, BadFrame) for item in items)


def test_overlong_run_is_dropped_and_next_frame_decodes() -> None:
    frame = message_frame(GetStatus(), seq=1, ack=0)
    decoder = FrameDecoder()
    items = decoder.feed(b"\x01" * 2000) + decoder.feed(encode_frame(frame))
    assert [i for i in items if isinstance(i, Frame)] == [frame]
    assert [i.reason for i in items if isinstance(i, BadFrame)] == ["overflow"]


frames = st.builds(
    Frame,
    type=st.integers(0, 255),
    flags=st.sampled_from(list(Flag)),
    seq=st.integers(0, 255),
    ack=st.integers(0, 255),
    payload=st.binary(max_size=240),
)


@given(st.binary(max_size=600))
def test_cobs_round_trip(data: bytes) -> None:
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert cobs_decode(encoded) == data


@given(st.binary(max_size=400))
@settings(max_examples=300)
def test_decoder_never_raises_on_noise(noise: bytes) -> None:
    items = FrameDecoder().feed(noise + b"\x00")
    assert all(isinstance(item, Frame | BadFrame) for item in items)


@given(st.lists(st.tuples(frames, st.binary(max_size=40)), min_size=1, max_size=6), st.data())
@settings(max_examples=150)
def test_frames_survive_random_garbage_between_them(pairs, data) -> None:  # type: ignore[no-untyped-def]
    stream = b"".join(garbage + encode_frame(frame) for frame, garbage in pairs)
    decoder = FrameDecoder()
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    items = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        items += decoder.feed(stream[start:end])
    decoded = [item for item in items if isinstance(item, Frame)]
    # Garbage is delimited from every frame by the frame's leading 0x00, so every frame survives;
    # garbage could only add frames if it happened to contain a valid CRC'd frame itself.
    expected = [frame for frame, _ in pairs]
    it = iter(decoded)
    assert all(any(frame == got for got in it) for frame in expected)


def test_serial_transport_over_pyserial_loop_url() -> None:
    from devices.transport import LinkDownError, SerialTransport

    transport = SerialTransport("loop://")
    transport.open()
    try:
        wire = encode_frame(message_frame(GetStatus(), seq=1, ack=0))
        transport.write(wire)
        assert FrameDecoder().feed(transport.read(1.0)) == [
            message_frame(GetStatus(), seq=1, ack=0)
        ]
        assert transport.read(0.01) == b""
    finally:
        transport.close()
    with pytest.raises(LinkDownError, match="'/nonexistent/tty'"):
        SerialTransport("/nonexistent/tty").open()
