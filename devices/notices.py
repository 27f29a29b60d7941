"""What the driver hands back: typed results, link notices for the callback, and its errors."""

from __future__ import annotations

import dataclasses

from devices import device_events as ev
from devices.link import TableError


class TableTimeoutError(TableError):
    """The table did not answer, or did not finish the action, in time."""


class TableFaultError(TableError):
    """The table reported a fault while the action ran; ``fault`` has code, side and recovery."""

    def __init__(self, fault: ev.Fault) -> None:
        where = f" on side {fault.side}" if fault.side else ""
        counts = f" (expected {fault.expected}, counted {fault.counted})" if fault.expected else ""
        super().__init__(
            f"table fault {fault.fault.name.lower()}{where}{counts}: severity "
            f"{fault.severity.name.lower()}, recovery {fault.recovery.name.lower()}"
        )
        self.fault = fault


class DeviceResetError(TableError):
    """The table reset while the action ran; the action did not complete."""


@dataclasses.dataclass(frozen=True)
class LinkLost:
    reason: str


@dataclasses.dataclass(frozen=True)
class LinkRestored:
    url: str


@dataclasses.dataclass(frozen=True)
class DeviceResetDetected:
    reason: str
    previous_counter: int
    counter: int
    boot_id: int


@dataclasses.dataclass(frozen=True)
class EventsMissed:
    after: int  # last counter the host had
    resumed_at: int  # first counter it got back


Notice = ev.EventRecord | LinkLost | LinkRestored | DeviceResetDetected | EventsMissed


@dataclasses.dataclass(frozen=True)
class ShuffleResult:
    tile_count: int
    side_counts: tuple[int, int, int, int]


@dataclasses.dataclass(frozen=True)
class DiceResult:
    values: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.values)
