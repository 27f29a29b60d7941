"""The emulated table's state machine, configuration, faults and event buffer (pure, no I/O)."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from devices import device_events as ev
from devices.codes import BootReason, FaultCode, NakReason, Recovery, Severity, State
from devices.framing import Flag, Frame
from devices.messages import (
    Accepted,
    Ack,
    ClearError,
    EventsReply,
    GetEvents,
    GetStatus,
    MessageError,
    Nak,
    Opcode,
    Pause,
    RaiseWalls,
    Reset,
    Resume,
    RollDice,
    SetConfig,
    StartShuffle,
    StatusReply,
    decode_message,
    message_frame,
)  # fmt: skip
from devices.table_model import TableModel, Timings

T = Timings(boot=1.0, shuffle=20.0, raise_walls=4.0, dice=1.0)


def booted(**kwargs: object) -> TableModel:
    model = TableModel(now=0.0, rng=random.Random(7), timings=T, **kwargs)  # type: ignore[arg-type]
    model.advance(1.0)
    assert model.state == State.IDLE
    return model


def bodies(model: TableModel) -> list[ev.EventBody]:
    return [record.body for record in model.events]


def test_boot_event_is_first_and_counter_starts_at_one() -> None:
    model = TableModel(now=0.0, rng=random.Random(1), timings=T)
    assert model.state == State.BOOT
    assert model.events[0] == ev.EventRecord(1, 0, ev.Boot(BootReason.POWER_ON))
    assert isinstance(model.handle(StartShuffle(), 0.5), Nak)
    model.advance(1.0)
    assert bodies(model)[-1] == ev.StateChanged(State.BOOT, State.IDLE)


def test_full_cycle_shuffle_raise_dice() -> None:
    model = booted()
    reply = model.handle(StartShuffle(136), 2.0)
    assert isinstance(reply, Accepted) and reply.duration_ms == 20000
    assert model.state == State.SHUFFLING
    assert model.handle(RaiseWalls(), 3.0) == Nak(
        NakReason.BUSY, Opcode.RAISE_WALLS, State.SHUFFLING, 0
    )
    model.advance(22.0)
    assert model.state == State.WALLS_READY
    after = [r.body for r in model.events if ev.counter_after(r.counter, reply.event_counter)]
    assert after == [
        ev.Progress(ev.Action.SHUFFLE, 25), ev.Progress(ev.Action.SHUFFLE, 50),
        ev.Progress(ev.Action.SHUFFLE, 75), ev.ShuffleDone(136, 34, 34, 34, 34),
        ev.StateChanged(State.SHUFFLING, State.WALLS_READY),
    ]  # fmt: skip
    assert isinstance(model.handle(RaiseWalls(), 22.0), Accepted)
    model.advance(26.0)
    assert model.state == State.RAISED
    assert isinstance(model.handle(RollDice(), 26.0), Accepted)
    model.advance(27.0)
    dice = bodies(model)[-1]
    assert isinstance(dice, ev.DiceRolled) and len(dice.values) == 2


def test_pending_configuration_applies_at_next_shuffle() -> None:
    model = booted()
    assert model.handle(SetConfig(136, 3), 1.0) == Ack(Opcode.SET_CONFIG)
    status = model.handle(GetStatus(), 1.0)
    assert isinstance(status, StatusReply)
    assert (status.active_tiles, status.pending_tiles, status.pending_dice) == (144, 136, 3)
    model.handle(StartShuffle(), 2.0)
    assert model.active_tiles == 136 and model.active_dice == 3 and model.pending_tiles == 0
    assert ev.ConfigApplied(136, 3) in bodies(model)


@pytest.mark.parametrize(
    ("command", "reason"),
    [(StartShuffle(100), NakReason.BAD_PARAMETER), (SetConfig(0, 7), NakReason.BAD_PARAMETER),
     (RaiseWalls(), NakReason.WRONG_STATE), (Resume(), NakReason.WRONG_STATE),
     (Pause(), NakReason.WRONG_STATE), (RollDice(9), NakReason.BAD_PARAMETER)],
)  # fmt: skip
def test_refusals_carry_reason_and_state(command: object, reason: NakReason) -> None:
    reply = booted().handle(command, 2.0)  # type: ignore[arg-type]
    assert isinstance(reply, Nak) and reply.reason == reason and reply.state == State.IDLE


def test_jam_stops_shuffle_and_needs_clear() -> None:
    model = booted()
    model.arm(jam_side=3)
    model.handle(StartShuffle(), 2.0)
    model.advance(30.0)
    assert model.state == State.ERROR
    fault = model.fault
    assert fault == ev.Fault(FaultCode.PUSH_JAM, 3, Severity.RECOVERABLE,
                             Recovery.OPERATOR_THEN_CLEAR)  # fmt: skip
    assert not any(isinstance(b, ev.ShuffleDone) for b in bodies(model))
    assert model.handle(StartShuffle(), 31.0).reason == NakReason.HARDWARE_FAULT  # type: ignore[attr-defined]
    assert model.handle(ClearError(), 31.0) == Ack(Opcode.CLEAR_ERROR)
    assert model.state == State.IDLE and bodies(model)[-2] == ev.FaultCleared(FaultCode.PUSH_JAM)


def test_short_side_reports_counts_and_mismatch() -> None:
    model = booted()
    model.arm(short_side=2)
    model.handle(StartShuffle(144), 2.0)
    model.advance(30.0)
    assert not any(isinstance(b, ev.ShuffleDone) for b in bodies(model))
    assert model.fault is not None
    assert (model.fault.fault, model.fault.side, model.fault.expected, model.fault.counted) == (
        FaultCode.TILE_COUNT_MISMATCH, 2, 36, 35,
    )  # fmt: skip


def test_fatal_fault_refuses_clear_until_reset() -> None:
    model = booted()
    model.inject_fault(FaultCode.MAGNET_RING_FAULT, 2.0)
    assert model.handle(ClearError(), 2.0).reason == NakReason.HARDWARE_FAULT  # type: ignore[attr-defined]
    model.handle(Reset(), 2.0)
    assert model.reboot_requested


def test_pause_freezes_the_action_and_resume_continues() -> None:
    model = booted()
    model.handle(StartShuffle(), 2.0)
    assert model.handle(Pause(), 7.0) == Ack(Opcode.PAUSE)
    model.advance(100.0)
    assert model.state == State.PAUSED
    status = model.status(100.0)
    assert status.progress == 25
    model.handle(Resume(), 100.0)
    model.advance(114.0)
    assert model.state == State.SHUFFLING
    model.advance(115.0)
    assert model.state == State.WALLS_READY


def test_get_events_windows_gaps_and_limits() -> None:
    model = booted()
    latest = model.counter
    reply = model.handle(GetEvents(0), 1.0)
    assert isinstance(reply, EventsReply) and not reply.gap
    assert [r.counter for r in reply.records] == [1, 2] and reply.latest == latest
    assert model.handle(GetEvents(latest), 1.0).records == ()  # type: ignore[attr-defined]
    limited = model.handle(GetEvents(0, 1), 1.0)
    assert [r.counter for r in limited.records] == [1]  # type: ignore[attr-defined]
    ahead = model.handle(GetEvents(500), 1.0)  # a host that knew a previous boot
    assert isinstance(ahead, EventsReply) and ahead.gap and ahead.records[0].counter == 1
    for i in range(40):  # overflow the 64-event buffer
        model.handle(SetConfig(136 if i % 2 else 144), 1.0)
        model.handle(StartShuffle(), 2.0 + 30 * i)
        model.advance(25.0 + 30 * i)
        model.handle(RaiseWalls(), 25.0 + 30 * i)
        model.advance(30.0 + 30 * i)
    lost = model.handle(GetEvents(2), 2000.0)
    assert isinstance(lost, EventsReply) and lost.gap and lost.oldest > 3


def test_counter_skips_zero_on_wrap() -> None:
    model = TableModel(now=0.0, rng=random.Random(1), timings=T, counter_start=0xFFFF_FFFE)
    model.advance(1.0)
    counters = [r.counter for r in model.events]
    assert counters == [0xFFFF_FFFF, 1]
    reply = model.handle(GetEvents(0xFFFF_FFFF), 1.0)
    assert [r.counter for r in reply.records] == [1] and not reply.gap  # type: ignore[attr-defined]
    assert ev.counter_after(1, 0xFFFF_FFFF) and not ev.counter_after(0xFFFF_FFFF, 1)


@given(st.integers(1, 0xFFFF_FFFF), st.integers(1, 1000))
def test_counter_distance_matches_increments(start: int, steps: int) -> None:
    counter = start
    for _ in range(steps):
        counter = ev.next_counter(counter)
        assert counter != 0
    assert ev.counter_distance(counter, start) == steps
    assert ev.counter_after(counter, start)


@given(st.one_of(st.sampled_from(list(Opcode)), st.integers(0, 255)), st.binary(max_size=80))
def test_payload_decoding_raises_only_message_error(opcode: int, payload: bytes) -> None:
    for flags in (Flag.NONE, Flag.REPLY):
        with contextlib.suppress(MessageError):
            decode_message(Frame(opcode, flags, 1, 1, payload))


def test_messages_round_trip_through_frames() -> None:
    model = booted()
    model.handle(StartShuffle(), 2.0)
    model.advance(30.0)
    model.inject_fault(FaultCode.TILE_COUNT_MISMATCH, 31.0, side=4, expected=36, counted=37)
    replies = [model.handle(c, 31.0) for c in (GetStatus(), GetEvents(0))]
    replies.append(Accepted(Opcode.ROLL_DICE, 5, 1200))
    for reply in replies:
        frame = message_frame(reply, seq=3, ack=2)
        assert frame.flags & Flag.REPLY
        assert decode_message(frame) == reply


def test_mechanical_fault_rate_makes_shuffles_fail() -> None:
    model = booted(mechanical_fault_rate=1.0)
    model.handle(StartShuffle(), 2.0)
    model.advance(30.0)
    assert model.state == State.ERROR and model.fault is not None
    assert model.fault.fault in (FaultCode.PUSH_JAM, FaultCode.TILE_COUNT_MISMATCH)
