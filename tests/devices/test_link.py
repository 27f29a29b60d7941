"""The link layer against a scripted transport: retries keep the seq, NAK(CRC) and corrupt frames
retransmit at once, stale replies are ignored."""

from __future__ import annotations

import time

import pytest

from devices.codes import NakReason, State
from devices.framing import Flag, encode_frame
from devices.link import Link, ReplyTimeoutError, next_seq
from devices.messages import Accepted, GetStatus, Nak, Opcode, StartShuffle, message_frame
from tests.devices.scripted import ScriptedTransport

SHUFFLE = StartShuffle(144)


def wire(message, *, seq, ack, flags=Flag.NONE) -> bytes:  # type: ignore[no-untyped-def]
    return encode_frame(message_frame(message, seq=seq, ack=ack, flags=flags))


def make_link(transport: ScriptedTransport) -> Link:
    link = Link(transport, reply_timeout=0.01)
    link._seq = 4  # deterministic: the next command is seq 5
    return link


def test_first_send_gets_reply() -> None:
    transport = ScriptedTransport()
    accepted = Accepted(Opcode.START_SHUFFLE, 12, 28000)
    transport.expect(wire(SHUFFLE, seq=5, ack=0), wire(accepted, seq=9, ack=5))
    link = make_link(transport)
    seq = link.allocate_seq()
    assert seq == 5
    assert link.exchange(SHUFFLE, seq, attempts=3, deadline=time.monotonic() + 1) == accepted
    transport.assert_done()


def test_lost_reply_is_retried_with_same_seq_and_retry_flag() -> None:
    transport = ScriptedTransport()
    accepted = Accepted(Opcode.START_SHUFFLE, 12, 28000)
    transport.expect(wire(SHUFFLE, seq=5, ack=0))  # reply lost
    transport.expect(
        wire(SHUFFLE, seq=5, ack=0, flags=Flag.RETRY),
        wire(accepted, seq=9, ack=5, flags=Flag.REPLAYED),
    )
    link = make_link(transport)
    reply = link.exchange(SHUFFLE, link.allocate_seq(), attempts=3, deadline=time.monotonic() + 1)
    assert reply == accepted
    assert link.stats.retransmissions == 1
    assert link.stats.replayed == 1
    transport.assert_done()


def test_corrupt_reply_and_nak_crc_retransmit_immediately() -> None:
    transport = ScriptedTransport()
    accepted = Accepted(Opcode.START_SHUFFLE, 12, 28000)
    good = wire(accepted, seq=9, ack=5)
    corrupt = good[:5] + bytes([good[5] ^ 0x40]) + good[6:]
    transport.expect(wire(SHUFFLE, seq=5, ack=0), corrupt)
    nak_crc = wire(Nak(NakReason.CRC, 0, State.IDLE, 0), seq=10, ack=0)
    transport.expect(wire(SHUFFLE, seq=5, ack=0, flags=Flag.RETRY), nak_crc)
    transport.expect(wire(SHUFFLE, seq=5, ack=0, flags=Flag.RETRY), good)
    link = Link(transport, reply_timeout=30.0)  # a timeout would hang: the retries are immediate
    link._seq = 4
    started = time.monotonic()
    assert (
        link.exchange(SHUFFLE, link.allocate_seq(), attempts=3, deadline=started + 60) == accepted
    )
    assert time.monotonic() - started < 5
    assert link.stats.bad_frames == 1
    transport.assert_done()


def test_stale_reply_for_an_older_seq_is_ignored() -> None:
    transport = ScriptedTransport()
    status_ack = Accepted(Opcode.START_SHUFFLE, 1, 1)
    accepted = Accepted(Opcode.START_SHUFFLE, 12, 28000)
    transport.expect(
        wire(SHUFFLE, seq=5, ack=0),
        wire(status_ack, seq=8, ack=4) + wire(accepted, seq=9, ack=5),
    )
    link = make_link(transport)
    assert (
        link.exchange(SHUFFLE, link.allocate_seq(), attempts=1, deadline=time.monotonic() + 1)
        == accepted
    )
    assert link.stats.stale_replies == 1
    # the next command acknowledges the device's reply seq 9
    transport.expect(wire(GetStatus(), seq=6, ack=9))
    with pytest.raises(ReplyTimeoutError, match="GET_STATUS"):
        link.exchange(GetStatus(), link.allocate_seq(), attempts=1, deadline=time.monotonic() + 1)
    transport.assert_done()


def test_busy_nak_is_returned_not_retried() -> None:
    transport = ScriptedTransport()
    busy = Nak(NakReason.BUSY, Opcode.START_SHUFFLE, State.SHUFFLING, 0)
    transport.expect(wire(SHUFFLE, seq=5, ack=0), wire(busy, seq=9, ack=5))
    link = make_link(transport)
    assert (
        link.exchange(SHUFFLE, link.allocate_seq(), attempts=3, deadline=time.monotonic() + 1)
        == busy
    )
    transport.assert_done()


def test_sequence_numbers_skip_zero() -> None:
    assert next_seq(254) == 255
    assert next_seq(255) == 1
