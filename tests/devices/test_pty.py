"""Driver and emulator over a real pseudo-terminal (and TCP): faults, retries, unplug, resets."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from devices import device_events as ev
from devices.codes import FaultCode, NakReason, State
from devices.driver import (
    DeviceResetDetected,
    EventsMissed,
    LinkLost,
    LinkRestored,
    TableDriver,
    TableFaultError,
)  # fmt: skip
from devices.link import NakError
from tests.devices.conftest import Recorder

FAST = {"reply_timeout": 0.05, "poll_interval": 0.05, "active_poll_interval": 0.01,
        "reconnect_interval": 0.02}  # fmt: skip


def test_hundred_shuffles_through_one_percent_byte_faults(make_emulator) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(time_scale=0.0005, fault_rate=0.01, seed=2024)
    port = emulator.start_pty()
    with TableDriver(port, **FAST) as table:
        for _ in range(100):
            assert table.shuffle().side_counts == (36, 36, 36, 36)
            assert table.raise_walls() == 144
        stats = table.link.stats
    report = emulator.report()
    assert report["executed"]["start_shuffle"] == 100  # type: ignore[index]
    assert report["executed"]["raise_walls"] == 100  # type: ignore[index]
    # the faults really happened and were really recovered from
    assert report["bytes_corrupted"] > 50 and report["bytes_dropped"] > 50  # type: ignore[operator]
    assert report["replayed"] > 0 and stats.retransmissions > 0  # type: ignore[operator]


def test_unplug_replug_reconnects_and_detects_reset(make_emulator, recorder: Recorder) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(time_scale=0.001, seed=5)
    port = emulator.start_pty()
    with TableDriver(port, on_event=recorder, **FAST) as table:
        table.shuffle()
        table.raise_walls()
        before = table.event_counter
        old_boot = table.last_status.boot_id  # type: ignore[union-attr]
        emulator.unplug(replug_after=0.05)
        recorder.wait_for(lambda n: isinstance(n, LinkLost))
        reset = recorder.wait_for(lambda n: isinstance(n, DeviceResetDetected))
        assert isinstance(reset, DeviceResetDetected)
        assert "event counter went back" in reset.reason and reset.previous_counter == before
        recorder.wait_for(lambda n: isinstance(n, LinkRestored))
        assert sum(isinstance(n, LinkRestored) for n in recorder.notices) == 1  # not at first open
        boot = recorder.wait_for(lambda n: isinstance(n, ev.EventRecord) and n.counter == 1)
        assert isinstance(boot, ev.EventRecord) and isinstance(boot.body, ev.Boot)
        assert table.resets_detected == 1
        status = table.status()
        assert status.boot_id == emulator.model.boot_id != old_boot
        assert table.shuffle().tile_count == 144  # works again without a new driver
    assert emulator.report()["executed"]["start_shuffle"] == 2  # type: ignore[index]


def test_reset_after_counter_passed_is_caught_by_boot_id(make_emulator, recorder: Recorder) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(time_scale=0.001, seed=6)
    port = emulator.start_pty()
    with TableDriver(port, on_event=recorder, **{**FAST, "poll_interval": 60.0}) as table:
        counter = table.event_counter
        emulator.reset()
        while emulator.model.counter <= counter + 2:
            emulator.inject_fault(FaultCode.DICE_FAULT)
        table._kick.set()  # poll now instead of in a minute
        reset = recorder.wait_for(lambda n: isinstance(n, DeviceResetDetected))
        assert "boot id changed" in reset.reason  # type: ignore[union-attr]


def test_fault_reaches_caller_and_clears(make_emulator) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(time_scale=0.001, seed=7)
    with TableDriver(emulator.start_pty(), **FAST) as table:
        emulator.arm(short_side=2)
        with pytest.raises(TableFaultError, match="expected 36, counted 35") as info:
            table.shuffle()
        fault = info.value.fault
        assert (fault.fault, fault.side) == (FaultCode.TILE_COUNT_MISMATCH, 2)
        with pytest.raises(NakError) as refused:
            table.raise_walls()
        assert refused.value.reason == NakReason.HARDWARE_FAULT
        table.clear_error()
        assert table.status().state == State.IDLE
        assert table.shuffle().side_counts == (36, 36, 36, 36)


def test_reset_command_resynchronises(make_emulator) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(time_scale=0.001, seed=8)
    with TableDriver(emulator.start_pty(), **FAST) as table:
        table.set_config(tile_count=136)
        status = table.reset()
        assert table.resets_detected == 1
        assert status.boot_id == emulator.model.boot_id
        assert status.active_tiles == 144 and status.pending_tiles == 0  # config lost with RAM


def test_tcp_and_spy_urls(make_emulator, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(time_scale=0.001, seed=9)
    url = emulator.start_tcp("127.0.0.1", 0)
    assert url.startswith("socket://127.0.0.1:")
    with TableDriver(url, **FAST) as table:
        dice = table.roll_dice(count=3)
        assert len(dice.values) == 3 and 3 <= dice.total <= 18
    log = tmp_path / "spy.txt"
    spy_url = f"spy://{make_emulator(time_scale=0.001).start_pty()}?file={log}"
    with TableDriver(spy_url, **FAST) as table:  # pyserial's spy:// wraps a native port
        assert table.get_info().model.startswith("Tilesight emulator")
    assert "TX" in log.read_text()


def test_lost_events_are_reported(make_emulator, recorder: Recorder) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(time_scale=0.001, seed=10)
    with TableDriver(
        emulator.start_pty(), on_event=recorder, **{**FAST, "poll_interval": 60.0}
    ) as table:
        held = table.event_counter
        while emulator.model.counter < 100:  # overflow the 64-event buffer before the next poll
            emulator.inject_fault(FaultCode.DICE_FAULT)
        oldest = emulator.model.events[0].counter
        table._kick.set()  # poll now instead of in a minute
        missed = recorder.wait_for(lambda n: isinstance(n, EventsMissed))
        assert missed == EventsMissed(after=held, resumed_at=oldest)
        assert table.resets_detected == 0
        recorder.wait_for(lambda n: isinstance(n, ev.EventRecord) and n.counter == 100)


def test_pause_and_resume_through_driver(make_emulator) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(time_scale=0.05, seed=12)  # shuffle takes 1.4 s
    with TableDriver(emulator.start_pty(), **FAST) as table:
        table.set_config(tile_count=136)
        assert table.status().pending_tiles == 136
        done: list[object] = []
        worker = threading.Thread(target=lambda: done.append(table.shuffle()))
        worker.start()
        try:
            deadline = time.monotonic() + 5
            while table.status().state != State.SHUFFLING and time.monotonic() < deadline:
                pass  # each status() is a round trip to the table: this polls, not spins
            table.pause()
            assert table.status().state == State.PAUSED
            assert not done
            table.resume()
        finally:
            worker.join(10)
        assert done and done[0].tile_count == 136  # type: ignore[attr-defined]


def test_a_new_session_never_gets_the_previous_sessions_replies(make_emulator) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(time_scale=0.001, seed=13)
    port = emulator.start_pty()
    slow = {**FAST, "poll_interval": 60.0}
    first = TableDriver(port, **slow)
    start = first.link._seq
    with first:
        before = first.status()
    emulator.inject_fault(FaultCode.DICE_FAULT)  # the status changes between sessions
    second = TableDriver(port, **slow)
    second.link._seq = start  # a restarted host that repeats exactly the same seqs
    with second:
        after = second.status()
    assert after.event_counter == before.event_counter + 2 and after.state == State.ERROR
    assert emulator.report()["replayed"] == 0


def test_counter_wrap_is_not_mistaken_for_a_reset(make_emulator, recorder: Recorder) -> None:  # type: ignore[no-untyped-def]
    emulator = make_emulator(time_scale=0.001, seed=14, counter_start=0xFFFF_FFF8)
    with TableDriver(emulator.start_pty(), on_event=recorder, **FAST) as table:
        for _ in range(2):
            table.shuffle()
            table.raise_walls()
        assert 0 < table.event_counter < 20  # wrapped past 0xFFFFFFFF, skipping 0
    counters = [n.counter for n in recorder.notices if isinstance(n, ev.EventRecord)]
    assert 0xFFFF_FFFF in counters and 1 in counters and 0 not in counters
    assert table.resets_detected == 0
    assert not any(isinstance(n, DeviceResetDetected | EventsMissed) for n in recorder.notices)


def test_open_fails_clearly_when_nothing_answers() -> None:
    from devices.transport import LinkDownError

    table = TableDriver("loop://", reply_timeout=0.02, reconnect_interval=0.02)
    with pytest.raises(LinkDownError, match="no table answered on 'loop://'"):
        table.open(timeout=0.3)  # loop:// echoes our own commands back; they are not replies
    assert not table.connected
