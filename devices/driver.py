"""``TableDriver``: the host's typed API to a shuffling table, kept in sync by a status poll.

Connection, reconnection and the heartbeat poller are in devices/connection.py; this module turns
each protocol command into a method, and waits for a long action's completion event so that
``shuffle()`` returns the tile counts the table measured.
"""

from __future__ import annotations

import time

from devices import device_events as ev
from devices.codes import State
from devices.connection import TableConnection
from devices.link import NakError, TableError
from devices.messages import (
    Accepted,
    ClearError,
    EventsReply,
    GetEvents,
    GetInfo,
    GetStatus,
    InfoReply,
    Message,
    Pause,
    RaiseWalls,
    Reset,
    Resume,
    RollDice,
    SetConfig,
    StartShuffle,
    StatusReply,
)  # fmt: skip
from devices.notices import (
    DeviceResetDetected,
    DeviceResetError,
    DiceResult,
    EventsMissed,
    LinkLost,
    LinkRestored,
    Notice,
    ShuffleResult,
    TableFaultError,
    TableTimeoutError,
)  # fmt: skip

__all__ = [
    "DeviceResetDetected", "DeviceResetError", "DiceResult", "EventsMissed", "LinkLost",
    "LinkRestored", "NakError", "Notice", "ShuffleResult", "TableDriver", "TableError",
    "TableFaultError", "TableTimeoutError",
]  # fmt: skip


class TableDriver(TableConnection):
    """Use as a context manager: ``with TableDriver("/dev/ttyUSB0", on_event=cb) as table:``."""

    # ------------------------------------------------------------ lifecycle
    def open(self, *, timeout: float = 3.0) -> TableDriver:
        """Connect (retrying until ``timeout``), read info and status, start the poll thread."""
        deadline = self._start(timeout)
        try:
            self.wait_ready(timeout=max(0.1, deadline - time.monotonic()))
        except BaseException:
            self.close()
            raise
        return self

    def wait_ready(self, *, timeout: float = 5.0) -> StatusReply:
        """Poll status until the table has finished booting (commands get BUSY while it boots)."""
        deadline = time.monotonic() + timeout
        while (status := self.status(timeout=_left(deadline))).state == State.BOOT:
            if time.monotonic() >= deadline:
                raise TableTimeoutError(f"the table on {self.url!r} is still booting")
            self._closing.wait(0.02)
        return status

    def __enter__(self) -> TableDriver:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ commands
    def status(self, *, timeout: float = 2.0) -> StatusReply:
        reply = self._call(GetStatus(), StatusReply, timeout)
        self.last_status = reply
        return reply

    def get_info(self, *, timeout: float = 2.0) -> InfoReply:
        self.info = self._call(GetInfo(), InfoReply, timeout)
        return self.info

    def events_since(
        self, counter: int, *, max_events: int = 0, timeout: float = 2.0
    ) -> EventsReply:
        return self._call(GetEvents(counter, max_events), EventsReply, timeout)

    def set_config(self, *, tile_count: int = 0, dice_count: int = 0, timeout: float = 2.0) -> None:
        self._execute(SetConfig(tile_count, dice_count), timeout)

    def clear_error(self, *, timeout: float = 2.0) -> None:
        self._execute(ClearError(), timeout)

    def pause(self, *, timeout: float = 2.0) -> None:
        self._execute(Pause(), timeout)

    def resume(self, *, timeout: float = 2.0) -> None:
        self._execute(Resume(), timeout)

    def shuffle(self, *, tile_count: int = 0, timeout: float | None = None) -> ShuffleResult:
        """Shuffle and build the walls; returns the per-side tile counts the table measured."""
        record = self._action(StartShuffle(tile_count), ev.ShuffleDone, timeout)
        assert isinstance(record.body, ev.ShuffleDone)
        return ShuffleResult(record.body.tile_count, record.body.side_counts)

    def raise_walls(self, *, timeout: float | None = None) -> int:
        """Raise the built walls; returns the tile count on the table."""
        record = self._action(RaiseWalls(), ev.WallsRaised, timeout)
        assert isinstance(record.body, ev.WallsRaised)
        return record.body.tile_count

    def roll_dice(self, *, count: int = 0, timeout: float | None = None) -> DiceResult:
        record = self._action(RollDice(count), ev.DiceRolled, timeout)
        assert isinstance(record.body, ev.DiceRolled)
        return DiceResult(record.body.values)

    def reset(self, *, timeout: float = 10.0) -> StatusReply:
        """Reset the board and wait until the driver has resynchronised with the new boot."""
        generation = self.events.generation
        self._execute(Reset(), timeout)
        deadline = time.monotonic() + timeout
        self.events.wait_new_generation(generation, deadline, self._kick)
        return self.status(timeout=max(0.1, deadline - time.monotonic()))

    def _action(
        self, command: Message, done: type[ev.EventBody], timeout: float | None
    ) -> ev.EventRecord:
        """Start a long action and wait for its ``done`` event. ``timeout`` bounds the whole
        (acceptance included); None: twice the table's estimate plus 5 s, as
        docs/table-protocol.md §8 advises."""
        generation = self.events.generation
        deadline = None if timeout is None else time.monotonic() + timeout
        accepted = self._call(command, Accepted, 2.0 if deadline is None else _left(deadline))
        if deadline is None:
            deadline = time.monotonic() + 2 * accepted.duration_ms / 1000 + 5.0
        return self.events.wait_done(
            generation=generation, after=accepted.event_counter, done=done,
            deadline=deadline, what=command.op.name.lower(), kick=self._kick,
        )  # fmt: skip


def _left(deadline: float) -> float:
    """Seconds until ``deadline`` (at least a little: a request needs some time)."""
    return max(0.1, deadline - time.monotonic())
