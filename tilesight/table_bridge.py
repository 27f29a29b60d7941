"""The shuffling table (devices) coupled to the service: driver notices in, referee verbs out.

Driver notices go through :class:`tilesight.table_notices.NoticeTranslator` (what they mean at a
mahjong table); dice become the next hand's wall break, faults become ``table_fault`` events, state
changes update the retained state. :func:`emulated_table` serves the demo and tests.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from devices.driver import Notice, TableDriver
from devices.emulator import Emulator
from devices.link import TableError
from engine import actions as act
from tilesight.remote_commands import CommandError
from tilesight.table_notices import (
    LinkRecord,
    NoticeTranslator,
    RefereeAlert,
    TableState,
    WallBreak,
    WallsBuilt,
)

if TYPE_CHECKING:
    from tilesight.service import TableService
    from tilesight.supervisor import Work


class TableBridge:
    """Shuffling-table driver notices -> engine and service, and referee verbs -> the driver.

    Dice become the next hand's wall break; faults (jam, short side, reset, link lost) become
    ``table_fault`` events the referee console shows; state changes update the retained state.
    """

    def __init__(
        self,
        service: TableService,
        *,
        tile_count: int = 136,
        east_side: int = 1,
        on_record: Callable[[int, str], None] | None = None,
    ) -> None:
        self.service = service
        self.tile_count = tile_count
        self.link = NoticeTranslator(east_side=east_side)
        self.driver: TableDriver | None = None
        self.on_record = on_record
        #: Called with the dice totals once the procedure's rolls are in (run mode: new hand).
        self.on_dice: Callable[[tuple[int, ...]], None] | None = None
        self.rolls_needed = 2
        self._rolls: list[int] = []

    def notice(self, notice: Notice) -> None:
        for record in self.link.records(notice):
            if self.on_record is not None:
                self.on_record(*describe_record(record))
            if isinstance(record, WallsBuilt):
                self._rolls = []
            elif isinstance(record, WallBreak) and self.on_dice is not None:
                self._rolls.append(record.total)
                if len(self._rolls) == self.rolls_needed:
                    self.on_dice(tuple(self._rolls))
                    self._rolls = []
            elif isinstance(record, RefereeAlert):
                self._alert(record)
            elif isinstance(record, TableState):
                self.service.set_link("table_state", record.state)

    def _alert(self, alert: RefereeAlert) -> None:
        if alert.kind == "table_offline":
            self.service.set_link("table", f"offline: {alert.message}")
        elif alert.kind == "table_online":
            self.service.set_link("table", "online")
        if alert.severity != "info":  # jam, short side, reset, link lost: the referee must act
            self.service.apply(act.TableFault(code=alert.kind, detail=alert.message))

    def control(self, verb: str) -> dict[str, Any]:
        """The service's ``TableControl``: shuffle, raise, clear_error on the live driver."""
        deadline = time.monotonic() + 5.0  # ride out a cable being re-plugged
        while (driver := self.driver) is None or not driver.connected:
            if time.monotonic() > deadline:
                raise CommandError(f"{verb}: the shuffling table is not connected")
            time.sleep(0.05)
        try:
            if verb == "shuffle":
                done = driver.shuffle(tile_count=self.tile_count)
                return {"tile_count": done.tile_count, "side_counts": list(done.side_counts)}
            if verb == "raise":
                return {"tile_count": driver.raise_walls()}
            driver.clear_error()
            return {}
        except TableError as exc:
            raise CommandError(f"{verb}: {exc}") from exc

    def prepare_hand(self, rolls: int) -> tuple[int, ...]:
        """Shuffle, raise the walls and roll two dice ``rolls`` times: the totals that break
        the next hand's wall (WSOM: the dealer's roll, then the breaker's)."""
        assert self.driver is not None
        self.driver.shuffle(tile_count=self.tile_count)
        self.driver.raise_walls()
        return tuple(self.driver.roll_dice(count=2).total for _ in range(rolls))

    def worker(self, url: str) -> Work:
        """A supervised worker that keeps a driver open on ``url`` until stopped."""

        def work(stop: threading.Event) -> None:
            with TableDriver(url, on_event=self.notice) as driver:
                self.driver = driver
                try:
                    stop.wait()
                finally:
                    self.driver = None

        return work


def describe_record(record: LinkRecord) -> tuple[int, str]:
    """A logging level and one readable line for a table record."""
    if isinstance(record, WallBreak):
        return logging.INFO, f"table rolled {'+'.join(map(str, record.dice))} = {record.total}"
    if isinstance(record, WallsBuilt):
        counts = "/".join(map(str, record.side_counts))
        return logging.INFO, f"table built the walls: {counts} tiles"
    if isinstance(record, TableState):
        return logging.INFO, f"table {record.previous or '?'} -> {record.state}"
    level = logging.INFO if record.severity == "info" else logging.WARNING
    action = f" ({record.recovery})" if record.recovery not in ("", "none") else ""
    return level, f"table alert {record.kind}: {record.message}{action}"


@contextlib.contextmanager
def emulated_table(bridge: TableBridge, *, seed: int, time_scale: float = 0.01) -> Iterator[str]:
    """An emulated shuffling table on a pty, with ``bridge`` driving it; yields the port path."""
    emulator = Emulator(time_scale=time_scale, seed=seed)
    port = emulator.start_pty()
    try:
        with TableDriver(port, on_event=bridge.notice) as driver:
            bridge.driver = driver
            try:
                yield port
            finally:
                bridge.driver = None
    finally:
        emulator.stop()
