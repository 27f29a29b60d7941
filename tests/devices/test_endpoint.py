"""The device endpoint: replay cache (idempotency), NAKs for bad frames, reset clears the cache."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from devices.codes import BootReason, NakReason, State
from devices.endpoint import REPLAY_CACHE, DeviceEndpoint
from devices.framing import Flag, Frame, FrameDecoder, encode_frame
from devices.messages import (
    COMMANDS,
    Accepted,
    GetStatus,
    Nak,
    Opcode,
    OpenSession,
    StartShuffle,
    StatusReply,
    decode_message,
    message_frame,
)  # fmt: skip
from devices.table_model import TableModel, Timings


def endpoint() -> DeviceEndpoint:
    model = TableModel(now=0.0, rng=random.Random(3), timings=Timings(boot=1.0))
    model.advance(1.0)
    return DeviceEndpoint(model)


def send(ep: DeviceEndpoint, message: object, seq: int, now: float = 2.0) -> Frame:
    data = encode_frame(message_frame(message, seq=seq, ack=0))  # type: ignore[arg-type]
    (reply,) = FrameDecoder().feed(ep.receive(data, now))
    assert isinstance(reply, Frame)
    return reply


def test_retry_after_other_commands_is_replayed_not_executed() -> None:
    ep = endpoint()
    first = send(ep, StartShuffle(144), seq=5)
    for seq in (6, 7, 8):  # a reconnect's GET_INFO / GET_STATUS in between
        assert isinstance(decode_message(send(ep, GetStatus(), seq=seq)), StatusReply)
    again = send(ep, StartShuffle(144), seq=5)
    assert again.flags & Flag.REPLAYED and again.payload == first.payload
    assert isinstance(decode_message(again), Accepted)
    assert ep.counts.executed["start_shuffle"] == 1 and ep.counts.replayed == 1


def test_same_seq_with_other_content_executes() -> None:
    ep = endpoint()
    send(ep, GetStatus(), seq=9)
    reply = decode_message(send(ep, StartShuffle(136), seq=9))
    assert isinstance(reply, Accepted) and ep.counts.executed["start_shuffle"] == 1


def test_cache_forgets_old_commands_and_reset_clears_it() -> None:
    ep = endpoint()
    send(ep, StartShuffle(144), seq=1)
    for seq in range(2, REPLAY_CACHE + 2):
        send(ep, GetStatus(), seq=seq)
    busy = decode_message(send(ep, StartShuffle(144), seq=1))  # evicted: executes, table is busy
    assert isinstance(busy, Nak) and busy.reason == NakReason.BUSY
    ep.power_cycle(3.0, BootReason.WATCHDOG)
    assert ep.counts.resets == 1 and ep.model.state == State.BOOT


def test_garbage_gets_nak_crc_with_ack_zero() -> None:
    ep = endpoint()
    (reply,) = FrameDecoder().feed(ep.receive(b"\x00\x05\x11\x22\x33\x00", 2.0))
    assert isinstance(reply, Frame) and reply.ack == 0
    nak = decode_message(reply)
    assert isinstance(nak, Nak) and nak.reason == NakReason.CRC and ep.counts.bad_frames == 1


def test_replies_are_ignored_by_the_device() -> None:
    ep = endpoint()
    data = encode_frame(message_frame(Accepted(), seq=3, ack=3))
    assert ep.receive(data, 2.0) == b""


def test_open_session_forgets_the_previous_hosts_replies() -> None:
    ep = endpoint()
    send(ep, GetStatus(), seq=40)
    assert send(ep, GetStatus(), seq=40).flags & Flag.REPLAYED  # same session: a retry
    send(ep, OpenSession(0xC0FFEE), seq=39)
    fresh = send(ep, GetStatus(), seq=40)  # a new host that happens to reuse seq 40
    assert not fresh.flags & Flag.REPLAYED and ep.counts.executed["get_status"] == 2


@given(st.sampled_from(sorted(COMMANDS)), st.binary(max_size=12), st.integers(1, 255))
@settings(max_examples=300)
def test_any_command_payload_gets_exactly_one_reply(
    opcode: Opcode, payload: bytes, seq: int
) -> None:
    ep = endpoint()
    data = encode_frame(Frame(opcode, Flag.NONE, seq, 0, payload))
    items = FrameDecoder().feed(ep.receive(data, 2.0))
    assert len(items) == 1 and isinstance(items[0], Frame) and items[0].ack == seq
    decode_message(items[0])


@given(st.binary(max_size=300))
def test_device_survives_line_noise(noise: bytes) -> None:
    ep = endpoint()
    for item in FrameDecoder().feed(ep.receive(noise + b"\x00", 2.0)):
        assert isinstance(item, Frame)
        decode_message(item)
