"""The emulated table's command handling: which command is valid in which state, and its reply.

Pure and clock-free: every call takes ``now`` in device seconds, so tests and the emulator can
run it at any speed. This is the reference behaviour docs/table-protocol.md describes; the timed
mechanics (actions, progress, faults, events) live in devices/table_mechanics.py.
"""

from __future__ import annotations

from devices import device_events as ev
from devices.codes import (
    CAP_DICE,
    CAP_PAUSE,
    CAP_SIDE_COUNTS,
    CAP_TILES_136,
    CAP_TILES_144,
    VALID_TILE_COUNTS,
    Action,
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
from devices.table_mechanics import EVENT_BUFFER, TableMechanics, Timings

__all__ = ["EVENT_BUFFER", "FIRMWARE", "PROTOCOL", "TableModel", "Timings"]

FIRMWARE = (1, 0, 0)
PROTOCOL = (1, 0)
MAX_DICE = 3
_TILE_COUNT_ARGS = (0, *VALID_TILE_COUNTS)  # 0 = keep the current count
_BUSY_STATES = (State.BOOT, State.SHUFFLING, State.RAISING, State.PAUSED)


class TableModel(TableMechanics):
    """One table-agent board. ``handle`` answers commands; ``advance`` moves the mechanics."""

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
        if self.state in _BUSY_STATES:
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
            self.pending_dice, self.boot_id, self.counter, self.uptime_ms(now), progress,
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
        if command.tile_count not in _TILE_COUNT_ARGS:
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
        if command.count > MAX_DICE:
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
        if command.tile_count not in _TILE_COUNT_ARGS or command.dice_count > MAX_DICE:
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
