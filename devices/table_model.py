"""The emulated table's mechanics: states, timed actions, configuration, faults and events.

Pure and clock-free: every call takes ``now`` in device seconds, so tests and the emulator can
run it at any speed. This is the reference behaviour docs/table-protocol.md describes.
"""

from __future__ import annotations

import collections
import dataclasses
import random

from devices import device_events as ev
from devices.codes import (
    CAP_DICE,
    CAP_PAUSE,
    CAP_SIDE_COUNTS,
    CAP_TILES_136,
    CAP_TILES_144,
    FAULTS,
    VALID_TILE_COUNTS,
    Action,
    BootReason,
    FaultCode,
    NakReason,
    Severity,
    State,
)  # fmt: skip
from devices.framing import MAX_PAYLOAD
from devices.messages import (
    EVENTS_HEADER_SIZE,
    STATUS_DICE_ROLLING,
    STATUS_PENDING_CONFIG,
    Accepted,
    Ack,
    ClearError,
    EventsReply,
    GetEvents,
    GetInfo,
    GetStatus,
    InfoReply,
    Message,
    Nak,
    Pause,
    RaiseWalls,
    Reset,
    Resume,
    RollDice,
    SetConfig,
    StartShuffle,
    StatusReply,
)  # fmt: skip

FIRMWARE = (1, 0, 0)
PROTOCOL = (1, 0)
EVENT_BUFFER = 64
_BUSY_STATES = (State.SHUFFLING, State.RAISING, State.PAUSED)


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


class TableModel:
    """One table-agent board. ``handle`` answers commands; ``advance`` moves the mechanics."""

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
        self.reboot_requested = False
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
    def _emit(self, body: ev.EventBody, now: float) -> None:
        self.counter = ev.next_counter(self.counter)
        uptime = int((now - self.boot_time) * 1000) & 0xFFFF_FFFF
        self.events.append(ev.EventRecord(self.counter, uptime, body))

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
        times = [t for t in (self.dice_deadline,) if t is not None]
        if self.running is not None and self.state != State.PAUSED:
            times.append(self._next_mark_time(self.running))
        return min(times) if times else None

    @staticmethod
    def _next_mark_time(run: _Running) -> float:
        start = run.deadline - run.duration
        fractions = [m / 100 for m in run.marks] + ([run.jam_at] if run.jam_at else [])
        return min([start + f * run.duration for f in fractions] + [run.deadline])

    def advance(self, now: float) -> None:
        if self.dice_deadline is not None and now >= self.dice_deadline:
            self.dice_deadline = None
            values = tuple(self.rng.randint(1, 6) for _ in range(self.dice_count))
            self._emit(ev.DiceRolled(values), now)
        run = self.running
        if run is None or self.state == State.PAUSED:
            return
        start = run.deadline - run.duration
        if run.jam_at is not None and now >= start + run.jam_at * run.duration:
            self._raise_fault(FaultCode.PUSH_JAM, now, side=self.armed_jam_side or 1)
            self.armed_jam_side = 0
            return
        while run.marks and now >= start + run.marks[0] / 100 * run.duration:
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
                side = self.rng.choice((1, 2, 3, 4))
                self.arm(jam_side=side if choice == "jam" else 0,
                         short_side=side if choice == "short" else 0)  # fmt: skip
            if self.armed_jam_side:
                self.running.jam_at = 0.4

    # ------------------------------------------------------------ commands
    def handle(self, command: Message, now: float) -> Message:
        """The reply to one command (an Ack, Accepted, data reply or Nak)."""
        self.advance(now)
        handler = getattr(self, f"_on_{command.op.name.lower()}", None)
        if handler is None:
            return self._nak(NakReason.UNSUPPORTED, command)
        reply: Message = handler(command, now)
        return reply

    def _nak(self, reason: NakReason, command: Message) -> Nak:
        return Nak(reason, command.op, self.state, int(self.fault.fault) if self.fault else 0)

    def _refuse_action(self, command: Message, allowed: tuple[State, ...]) -> Nak | None:
        if self.state in allowed:
            return None
        if self.state == State.ERROR:
            return self._nak(NakReason.HARDWARE_FAULT, command)
        if self.state == State.BOOT or self.state in _BUSY_STATES:
            return self._nak(NakReason.BUSY, command)
        return self._nak(NakReason.WRONG_STATE, command)

    def _on_get_info(self, command: GetInfo, now: float) -> Message:
        caps = CAP_TILES_136 | CAP_TILES_144 | CAP_DICE | CAP_PAUSE | CAP_SIDE_COUNTS
        return InfoReply(*PROTOCOL, FIRMWARE, caps, MAX_PAYLOAD, self.model_name,
                         self.serial_number)  # fmt: skip

    def status(self, now: float) -> StatusReply:
        flags = (STATUS_PENDING_CONFIG if self.pending_tiles or self.pending_dice else 0) | (
            STATUS_DICE_ROLLING if self.dice_deadline is not None else 0
        )
        run = self.running
        progress = 0
        if run is not None and run.duration:
            left = run.remaining if self.state == State.PAUSED else run.deadline - now
            progress = max(0, min(100, int(100 * (1 - left / run.duration))))
        fault = self.fault
        return StatusReply(
            self.state, flags, self.active_tiles, self.active_dice, self.pending_tiles,
            self.pending_dice, self.boot_id, self.counter,
            int((now - self.boot_time) * 1000) & 0xFFFF_FFFF, progress,
            fault.fault if fault else FaultCode.NONE, fault.side if fault else 0,
            fault.severity if fault else 0,
        )  # fmt: skip

    def _on_get_status(self, command: GetStatus, now: float) -> Message:
        return self.status(now)

    def _on_get_events(self, command: GetEvents, now: float) -> Message:
        buffered = list(self.events)
        oldest = buffered[0].counter if buffered else 0
        start, gap = 0, False
        if command.since:
            distance = ev.counter_distance(self.counter, command.since)
            if distance <= len(buffered):
                start = len(buffered) - distance
            else:
                gap = True
        room = MAX_PAYLOAD - EVENTS_HEADER_SIZE
        limit = command.max_events or len(buffered)
        chosen: list[ev.EventRecord] = []
        for record in buffered[start:]:
            room -= ev.record_size(record)
            if room < 0 or len(chosen) >= limit:
                break
            chosen.append(record)
        return EventsReply(gap, self.boot_id, oldest, self.counter, tuple(chosen))

    def _on_start_shuffle(self, command: StartShuffle, now: float) -> Message:
        if command.tile_count not in (0, *VALID_TILE_COUNTS):
            return self._nak(NakReason.BAD_PARAMETER, command)
        refused = self._refuse_action(command, (State.IDLE, State.WALLS_READY, State.RAISED))
        if refused:
            return refused
        if command.tile_count:
            self.pending_tiles = command.tile_count
        if self.pending_tiles or self.pending_dice:
            self.active_tiles = self.pending_tiles or self.active_tiles
            self.active_dice = self.pending_dice or self.active_dice
            self.pending_tiles = self.pending_dice = 0
            self._emit(ev.ConfigApplied(self.active_tiles, self.active_dice), now)
        self._set_state(State.SHUFFLING, now)
        self._start(Action.SHUFFLE, self.timings.shuffle, now)
        return Accepted(command.op, self.counter, int(self.timings.shuffle * 1000))

    def _on_raise_walls(self, command: RaiseWalls, now: float) -> Message:
        refused = self._refuse_action(command, (State.WALLS_READY,))
        if refused:
            return refused
        self._set_state(State.RAISING, now)
        self._start(Action.RAISE, self.timings.raise_walls, now)
        return Accepted(command.op, self.counter, int(self.timings.raise_walls * 1000))

    def _on_roll_dice(self, command: RollDice, now: float) -> Message:
        if command.count > 3:
            return self._nak(NakReason.BAD_PARAMETER, command)
        if self.dice_deadline is not None:
            return self._nak(NakReason.BUSY, command)
        refused = self._refuse_action(
            command, (State.IDLE, State.SHUFFLING, State.WALLS_READY, State.RAISING, State.RAISED)
        )
        if refused:
            return refused
        self.dice_count = command.count or self.active_dice
        self.dice_deadline = now + self.timings.dice
        return Accepted(command.op, self.counter, int(self.timings.dice * 1000))

    def _on_clear_error(self, command: ClearError, now: float) -> Message:
        if self.state != State.ERROR or self.fault is None:
            return Ack(command.op)
        if self.fault.severity == Severity.FATAL:
            return self._nak(NakReason.HARDWARE_FAULT, command)
        self._emit(ev.FaultCleared(self.fault.fault), now)
        self.fault = None
        self._set_state(State.IDLE, now)
        return Ack(command.op)

    def _on_reset(self, command: Reset, now: float) -> Message:
        self.reboot_requested = True
        return Accepted(command.op, self.counter, int(self.timings.boot * 1000))

    def _on_set_config(self, command: SetConfig, now: float) -> Message:
        if command.tile_count not in (0, *VALID_TILE_COUNTS) or command.dice_count > 3:
            return self._nak(NakReason.BAD_PARAMETER, command)
        if command.tile_count:
            self.pending_tiles = (
                0 if command.tile_count == self.active_tiles else command.tile_count
            )
        if command.dice_count:
            self.pending_dice = 0 if command.dice_count == self.active_dice else command.dice_count
        return Ack(command.op)

    def _on_open_session(self, command: Message, now: float) -> Message:
        return Ack(command.op)

    def _on_pause(self, command: Pause, now: float) -> Message:
        run = self.running
        if self.state not in (State.SHUFFLING, State.RAISING) or run is None:
            return self._nak(NakReason.WRONG_STATE, command)
        run.remaining = run.deadline - now
        self.resume_state = self.state
        self._set_state(State.PAUSED, now)
        return Ack(command.op)

    def _on_resume(self, command: Resume, now: float) -> Message:
        run = self.running
        if self.state != State.PAUSED or run is None:
            return self._nak(NakReason.WRONG_STATE, command)
        run.deadline = now + run.remaining
        self._set_state(self.resume_state, now)
        return Ack(command.op)
