"""Typed violations: what a referee must hear about, recorded instead of raised.

A camera reports impossible things and players make mistakes; the table records each problem as a
:class:`Violation` (a kind, the seat at fault, a readable detail, a severity) and keeps going.
Strict tables raise :class:`IllegalActionError` instead.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Severity(enum.Enum):
    """``info``: noted; ``warning``: a referee should look; ``alert``: a referee must act."""

    INFO = "info"
    WARNING = "warning"
    ALERT = "alert"


class ViolationKind(enum.Enum):
    OUT_OF_TURN = "out_of_turn"
    TILE_NOT_IN_HAND = "tile_not_in_hand"
    FIFTH_COPY = "fifth_copy"
    RIVER_ORDER = "river_order"
    CHOW_NOT_FROM_UPPER_SEAT = "chow_not_from_upper_seat"
    CLAIM_AFTER_NEXT_DRAW = "claim_after_next_draw"
    NOTHING_TO_CLAIM = "nothing_to_claim"
    CLAIM_OWN_DISCARD = "claim_own_discard"
    CLAIM_PRECEDENCE = "claim_precedence"
    ILLEGAL_MELD = "illegal_meld"
    CHOW_NOT_ALLOWED = "chow_not_allowed"
    KONG_AFTER_CLAIM = "kong_after_claim"
    KONG_ON_SEA_BOTTOM = "kong_on_sea_bottom"
    CLAIM_ON_RIVER_BOTTOM = "claim_on_river_bottom"
    SMALL_XIANGGONG = "small_xianggong"
    BIG_XIANGGONG = "big_xianggong"
    NO_RIGHT_TO_WIN = "no_right_to_win"
    FALSE_WIN = "false_win"
    #: The next hand started while a win waited for its face-down kong to be shown.
    KONG_NOT_SHOWN = "kong_not_shown"
    #: The next hand started while a hand with discards made had no result (no win, no washout).
    HAND_ABANDONED = "hand_abandoned"
    WALL_EXHAUSTED = "wall_exhausted"
    WALL_MISMATCH = "wall_mismatch"
    PREMATURE_WASHOUT = "premature_washout"
    NOT_A_FLOWER = "not_a_flower"
    NO_HAND_IN_PROGRESS = "no_hand_in_progress"
    BAD_ACTION = "bad_action"
    UNKNOWN_EVENT = "unknown_event"
    OVERTIME = "overtime"
    #: Raised through a rule set's table hooks (engine.table.rules_api), e.g. Qujing's.
    PUNG_FURITEN = "pung_furiten"
    WIN_FURITEN = "win_furiten"
    MUST_WIN = "must_win"
    TAIL_RULE = "tail_rule"


#: How loud each kind is by default.
DEFAULT_SEVERITY: dict[ViolationKind, Severity] = dict.fromkeys(ViolationKind, Severity.ALERT)
DEFAULT_SEVERITY |= {
    ViolationKind.CLAIM_AFTER_NEXT_DRAW: Severity.WARNING,
    ViolationKind.CLAIM_PRECEDENCE: Severity.WARNING,
    ViolationKind.OVERTIME: Severity.WARNING,
    ViolationKind.UNKNOWN_EVENT: Severity.WARNING,
    ViolationKind.PREMATURE_WASHOUT: Severity.WARNING,
    ViolationKind.HAND_ABANDONED: Severity.WARNING,
}


@dataclass(frozen=True, slots=True)
class Violation:
    """One problem: ``seat`` is the seat at fault (None for table-wide problems)."""

    kind: ViolationKind
    seat: int | None
    detail: str
    severity: Severity = Severity.ALERT
    penalty: int = 0

    @classmethod
    def of(cls, kind: ViolationKind, seat: int | None, detail: str, penalty: int = 0) -> Violation:
        return cls(kind, seat, detail, DEFAULT_SEVERITY[kind], penalty)

    def __str__(self) -> str:
        who = f"seat {self.seat}" if self.seat is not None else "table"
        return f"{self.kind.value} ({who}): {self.detail}"


class IllegalActionError(ValueError):
    """Raised by strict tables; the message quotes the offending action with ``!r``."""

    def __init__(self, action: object, violation: Violation) -> None:
        super().__init__(f"{violation} in {action!r}")
        self.action = action
        self.violation = violation
