"""Driver notices -> engine-facing records (wall break, referee alerts, table state)."""

from __future__ import annotations

import pytest

from devices import device_events as ev
from devices.codes import FaultCode, Recovery, Severity, State
from devices.driver import DeviceResetDetected, LinkLost, TableDriver
from engine.tiles import Wind
from tests.devices.conftest import Recorder
from tilesight.table_notices import (
    NoticeTranslator,
    RefereeAlert,
    TableState,
    WallBreak,
    WallsBuilt,
    record_to_dict,
)  # fmt: skip


@pytest.mark.parametrize(
    ("dice", "offset"), [((1, 1), 1), ((3, 2), 0), ((6, 6), 3), ((2, 1), 2), ((4, 5), 0)]
)
def test_dice_set_the_wall_break(dice: tuple[int, int], offset: int) -> None:
    (record,) = NoticeTranslator().records(ev.EventRecord(9, 0, ev.DiceRolled(dice)))
    assert record == WallBreak(dice, sum(dice), offset)


def test_short_side_becomes_referee_alert_with_seat() -> None:
    fault = ev.Fault(FaultCode.TILE_COUNT_MISMATCH, 3, Severity.RECOVERABLE,
                     Recovery.OPERATOR_THEN_CLEAR, 36, 35)  # fmt: skip
    (alert,) = NoticeTranslator(east_side=2).records(ev.EventRecord(4, 0, fault))
    assert isinstance(alert, RefereeAlert)
    assert (alert.kind, alert.seat, alert.expected, alert.counted) == (
        "tile_count_mismatch", Wind.SOUTH, 36, 35,
    )  # fmt: skip
    assert "expected 36 tiles, counted 35" in alert.message
    assert record_to_dict(alert)["seat"] == "south"


def test_jam_state_reset_and_link_notices() -> None:
    link = NoticeTranslator()
    jam = ev.Fault(FaultCode.PUSH_JAM, 1, Severity.RECOVERABLE, Recovery.OPERATOR_THEN_CLEAR)
    assert link.records(ev.EventRecord(3, 0, jam))[0].kind == "jam"
    assert link.records(ev.EventRecord(2, 0, ev.StateChanged(State.IDLE, State.SHUFFLING))) == [
        TableState("shuffling", "idle")
    ]
    assert link.records(ev.EventRecord(5, 0, ev.ShuffleDone(144, 36, 36, 36, 36))) == [
        WallsBuilt(144, (36, 36, 36, 36))
    ]
    reset = link.records(DeviceResetDetected("event counter went back", 12, 2, 77))
    assert [r.kind for r in reset] == ["table_reset", "table_state"]
    assert link.records(LinkLost("unplugged"))[0].kind == "table_offline"
    assert link.records(ev.EventRecord(1, 0, ev.Boot())) == []


def test_live_emulator_notices_map_to_records(make_emulator) -> None:  # type: ignore[no-untyped-def]
    recorder = Recorder()
    emulator = make_emulator(time_scale=0.001, seed=3)
    with TableDriver(emulator.start_pty(), on_event=recorder, poll_interval=0.05) as table:
        values = table.roll_dice().values
        recorder.wait_for(lambda n: isinstance(n, ev.EventRecord) and
                          isinstance(n.body, ev.DiceRolled))  # fmt: skip
    link = NoticeTranslator()
    records = [r for notice in recorder.notices for r in link.records(notice)]
    assert WallBreak(values, sum(values), (sum(values) - 1) % 4) in records
