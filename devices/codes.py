"""Numeric codes of the table-agent protocol: states, NAK reasons, faults and their recovery.

Every code here has a row in docs/table-protocol.md; the numbers are the wire values and must
never be renumbered (add new ones at the end, with a protocol minor version bump).
"""

from __future__ import annotations

import dataclasses
import enum


class State(enum.IntEnum):
    """Mechanical state of the table (status byte 0)."""

    BOOT = 0
    IDLE = 1
    SHUFFLING = 2
    WALLS_READY = 3
    RAISING = 4
    RAISED = 5
    PAUSED = 6
    ERROR = 7


class NakReason(enum.IntEnum):
    """Why the device refused a frame or a command (NAK payload byte 0)."""

    UNSUPPORTED = 1  # unknown opcode
    BAD_PARAMETER = 2  # payload value out of range or wrong length
    BUSY = 3  # another action is running, or the table is booting
    HARDWARE_FAULT = 4  # the table is in ERROR and the fault forbids the command
    CRC = 5  # the frame failed COBS/CRC/length checks: retransmit
    VERSION = 6  # unsupported protocol version in the header
    WRONG_STATE = 7  # command not valid in the current state (e.g. raise before a shuffle)


class Severity(enum.IntEnum):
    """How bad a fault is."""

    WARNING = 1  # action continues; informational
    RECOVERABLE = 2  # table stops in ERROR; fix the cause, then CLEAR_ERROR
    FATAL = 3  # CLEAR_ERROR is refused; RESET, and call service if it returns


class Recovery(enum.IntEnum):
    """What the operator or host must do to leave ERROR."""

    NONE = 0  # nothing (warnings)
    CLEAR = 1  # host sends CLEAR_ERROR, then may retry the action
    OPERATOR_THEN_CLEAR = 2  # a person fixes the table (tiles, hatch), then CLEAR_ERROR
    WAIT_THEN_CLEAR = 3  # wait for the condition to pass (cooling), then CLEAR_ERROR
    RESET = 4  # RESET the board
    SERVICE = 5  # hardware service needed; RESET may bring the table back temporarily


class FaultCode(enum.IntEnum):
    """Fault codes (status error byte, FAULT event)."""

    NONE = 0
    PUSH_JAM = 1
    LIFT_TIMEOUT = 2
    TILE_COUNT_MISMATCH = 3
    SHUFFLE_TIMEOUT = 4
    MAGNET_RING_FAULT = 5
    MOTOR_OVERCURRENT = 6
    OVER_TEMPERATURE = 7
    HATCH_OPEN = 8
    SENSOR_FAULT = 9
    DICE_FAULT = 10


@dataclasses.dataclass(frozen=True)
class FaultInfo:
    severity: Severity
    recovery: Recovery
    text: str


#: Default severity and recovery per fault; a device may report a different severity.
FAULTS: dict[FaultCode, FaultInfo] = {
    FaultCode.PUSH_JAM: FaultInfo(
        Severity.RECOVERABLE, Recovery.OPERATOR_THEN_CLEAR, "tile pusher jammed on a side"
    ),
    FaultCode.LIFT_TIMEOUT: FaultInfo(
        Severity.RECOVERABLE, Recovery.OPERATOR_THEN_CLEAR, "wall lift did not reach the top"
    ),
    FaultCode.TILE_COUNT_MISMATCH: FaultInfo(
        Severity.RECOVERABLE, Recovery.OPERATOR_THEN_CLEAR, "tiles counted on a side != expected"
    ),
    FaultCode.SHUFFLE_TIMEOUT: FaultInfo(
        Severity.RECOVERABLE, Recovery.CLEAR, "shuffle did not finish in time"
    ),
    FaultCode.MAGNET_RING_FAULT: FaultInfo(
        Severity.FATAL, Recovery.SERVICE, "magnet ring does not turn"
    ),
    FaultCode.MOTOR_OVERCURRENT: FaultInfo(
        Severity.RECOVERABLE, Recovery.WAIT_THEN_CLEAR, "motor drew too much current"
    ),
    FaultCode.OVER_TEMPERATURE: FaultInfo(
        Severity.RECOVERABLE, Recovery.WAIT_THEN_CLEAR, "motor or driver too hot"
    ),
    FaultCode.HATCH_OPEN: FaultInfo(
        Severity.RECOVERABLE, Recovery.OPERATOR_THEN_CLEAR, "centre hatch open during an action"
    ),
    FaultCode.SENSOR_FAULT: FaultInfo(Severity.FATAL, Recovery.SERVICE, "sensor reads implausibly"),
    FaultCode.DICE_FAULT: FaultInfo(
        Severity.RECOVERABLE, Recovery.CLEAR, "dice did not settle or were not read"
    ),
}


class EventCode(enum.IntEnum):
    """Event record codes (GET_EVENTS reply)."""

    BOOT = 1
    STATE_CHANGED = 2
    PROGRESS = 3
    SHUFFLE_DONE = 4
    WALLS_RAISED = 5
    DICE_ROLLED = 6
    FAULT = 7
    FAULT_CLEARED = 8
    CONFIG_APPLIED = 9


class BootReason(enum.IntEnum):
    POWER_ON = 0
    RESET_COMMAND = 1
    WATCHDOG = 2
    BROWNOUT = 3


class Action(enum.IntEnum):
    """Long action named in PROGRESS events."""

    SHUFFLE = 1
    RAISE = 2


#: Capability bits in GET_INFO.
CAP_TILES_136 = 0x0001
CAP_TILES_144 = 0x0002
CAP_DICE = 0x0004
CAP_PAUSE = 0x0008
CAP_SIDE_COUNTS = 0x0010

#: Physical sides are numbered 1-4 counter-clockwise from the control-panel side; 0 = whole table.
SIDES = (1, 2, 3, 4)
VALID_TILE_COUNTS = (136, 144)
