"""The emulated table's moving parts: timed actions, progress marks, faults and the event buffer.

``TableModel`` (devices/table_model.py) adds the command handlers on top; this half only knows
what runs, when it finishes and what it logs. Pure and clock-free like the model: every call
takes ``now`` in device seconds.
"""

from __future__ import annotations

import collections
import dataclasses
import random

from devices import device_events as ev
from devices.codes import FAULTS, SIDES, Action, BootReason, FaultCode, State

EVENT_BUFFER = 64


@dataclasses.dataclass(frozen=True)
class Timings:
    """Mechanical durations in device seconds, as measured on typical four-mouth tables."""

    boot: float = 1.5
    shuffle: float = 28.0
    raise_walls: float = 4.5
    dice: float = 1.2


@dataclasses.dataclass
class _Running:
    action: Action
    deadline: float
    duration: float
    remaining: float = 0.0  # while paused
    marks: list[int] = dataclasses.field(default_factory=lambda: [25, 50, 75])
    jam_at: float | None = None  # fraction of the action at which a jam strikes

    @property
    def start(self) -> float:
        return self.deadline - self.duration

    def next_mark_time(self) -> float:
        """When ``advance`` next has something to do: a progress mark, the jam or the end."""
        fractions = [m / 100 for m in self.marks] + ([self.jam_at] if self.jam_at else [])
        return min([self.start + f * self.duration for f in fractions] + [self.deadline])


class TableMechanics:
    """State, configuration, the running action and the event log of one table-agent board."""

    def __init__(
        self,
        *,
        now: float,
        rng: random.Random | None = None,
        timings: Timings | None = None,
        mechanical_fault_rate: float = 0.0,
        counter_start: int = 0,
        boot_reason: BootReason = BootReason.POWER_ON,
    ) -> None:
        self.rng = rng or random.Random()
        self.timings = timings or Timings()
        self.mechanical_fault_rate = mechanical_fault_rate
        self.model_name = "Tilesight emulator TS-EMU-1"
        self.serial_number = f"EMU-{self.rng.randrange(1 << 24):06X}"
        self._counter_start = counter_start
        self.reboot(now, boot_reason)

    def reboot(self, now: float, reason: BootReason) -> None:
        """Power cycle: all state is lost, the counter restarts and a BOOT event is first."""
        self.boot_time = now
        self.boot_id = self.rng.randrange(1, 1 << 16)
        self.state = State.BOOT
        self.active_tiles, self.active_dice = 144, 2
        self.pending_tiles, self.pending_dice = 0, 0
        self.counter = self._counter_start
        self.events: collections.deque[ev.EventRecord] = collections.deque(maxlen=EVENT_BUFFER)
        self.fault: ev.Fault | None = None
        # Booting runs like an action without progress marks; it ends in IDLE (see _complete).
        self.running: _Running | None = _Running(
            Action.SHUFFLE, now + self.timings.boot, 0, marks=[]
        )
        self.resume_state = State.IDLE
        self.dice_deadline: float | None = None
        self.dice_count = 0
        self.armed_short_side = 0
        self.armed_jam_side = 0
        self.reboot_requested = False
        self._emit(ev.Boot(reason), now)

    # ------------------------------------------------------------ events and state
    def uptime_ms(self, now: float) -> int:
        return int((now - self.boot_time) * 1000) & 0xFFFF_FFFF

    def _emit(self, body: ev.EventBody, now: float) -> None:
        self.counter = ev.next_counter(self.counter)
        self.events.append(ev.EventRecord(self.counter, self.uptime_ms(now), body))

    def _set_state(self, new: State, now: float) -> None:
        if new != self.state:
            self._emit(ev.StateChanged(self.state, new), now)
            self.state = new

    def _raise_fault(self, code: FaultCode, now: float, *, side: int = 0, expected: int = 0,
                     counted: int = 0) -> None:  # fmt: skip
        info = FAULTS[code]
        self.fault = ev.Fault(code, side, info.severity, info.recovery, expected, counted)
        self.running = None
        self._emit(self.fault, now)
        self._set_state(State.ERROR, now)

    def inject_fault(self, code: FaultCode, now: float, *, side: int = 0, expected: int = 0,
                     counted: int = 0) -> None:  # fmt: skip
        """Fault injection: the fault strikes now, whatever the table is doing."""
        self.advance(now)
        self._raise_fault(code, now, side=side, expected=expected, counted=counted)

    def arm(self, *, jam_side: int = 0, short_side: int = 0) -> None:
        """Make the next shuffle jam on ``jam_side`` or come up one tile short on ``short_side``."""
        self.armed_jam_side, self.armed_short_side = jam_side, short_side

    # ------------------------------------------------------------ time
    def next_deadline(self) -> float | None:
        """The device time at which ``advance`` next changes something, or None if nothing runs."""
        times = [] if self.dice_deadline is None else [self.dice_deadline]
        if self.running is not None and self.state != State.PAUSED:
            times.append(self.running.next_mark_time())
        return min(times) if times else None

    def advance(self, now: float) -> None:
        if self.dice_deadline is not None and now >= self.dice_deadline:
            self.dice_deadline = None
            values = tuple(self.rng.randint(1, 6) for _ in range(self.dice_count))
            self._emit(ev.DiceRolled(values), now)
        run = self.running
        if run is None or self.state == State.PAUSED:
            return
        if run.jam_at is not None and now >= run.start + run.jam_at * run.duration:
            self._raise_fault(FaultCode.PUSH_JAM, now, side=self.armed_jam_side or 1)
            self.armed_jam_side = 0
            return
        while run.marks and now >= run.start + run.marks[0] / 100 * run.duration:
            self._emit(ev.Progress(run.action, run.marks.pop(0)), now)
        if now >= run.deadline:
            self.running = None
            self._complete(run.action, now)

    def _complete(self, action: Action, now: float) -> None:
        if self.state == State.BOOT:
            self._set_state(State.IDLE, now)
        elif action == Action.SHUFFLE:
            per_side = self.active_tiles // 4
            short, self.armed_short_side = self.armed_short_side, 0
            if short:  # only a complete, counted shuffle is "done"
                self._raise_fault(FaultCode.TILE_COUNT_MISMATCH, now, side=short,
                                  expected=per_side, counted=per_side - 1)  # fmt: skip
            else:
                self._emit(ev.ShuffleDone(self.active_tiles, *[per_side] * 4), now)
                self._set_state(State.WALLS_READY, now)
        else:
            self._emit(ev.WallsRaised(self.active_tiles), now)
            self._set_state(State.RAISED, now)

    def _start(self, action: Action, duration: float, now: float) -> None:
        self.running = _Running(action, now + duration, duration)
        if action == Action.SHUFFLE:
            if not self.armed_jam_side and self.rng.random() < self.mechanical_fault_rate:
                choice = self.rng.choice(("jam", "short"))
                side = self.rng.choice(SIDES)
                self.arm(jam_side=side if choice == "jam" else 0,
                         short_side=side if choice == "short" else 0)  # fmt: skip
            if self.armed_jam_side:
                self.running.jam_at = 0.4
