"""Typed Gouji violations: illegal plays recorded as values, as :mod:`engine.violations` does.

A table fed by a camera sees impossible things (a play out of turn, a card nobody holds); each
becomes a :class:`GoujiViolation` and the table keeps going. Art. 8(1) and Art. 30: a wrong play
costs the offender his right to play this turn. Strict tables raise :class:`IllegalPlayError`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.violations import Severity


class GoujiViolationKind(enum.Enum):
    EMPTY_PLAY = "empty_play"
    #: Cards of different natural ranks in one play (§5.1; only 2s and jokers may accompany).
    MIXED_RANKS = "mixed_ranks"
    #: Not as many cards as the play to beat (§5.4).
    WRONG_COUNT = "wrong_count"
    #: Core rank not higher than the play to beat (§5.4 逐级).
    NOT_HIGHER = "not_higher"
    #: The play to beat has jokers attached that this play does not cover (§5).
    JOKERS_NOT_COVERED = "jokers_not_covered"
    #: 憋三 (§14): 3s split, with wilds, or not the player's last cards.
    THREES_RULE = "threes_rule"
    #: 买四 (§14): 4s split or with wilds.
    FOURS_RULE = "fours_rule"
    CARDS_NOT_IN_HAND = "cards_not_in_hand"
    OUT_OF_TURN = "out_of_turn"
    #: Only the 对头 may answer a 通牌 (§7, Art. 13).
    TONGPAI_ANSWER = "tongpai_answer"
    #: A burn by a player not entitled to it (passed already, not opened).
    BURN_NOT_ALLOWED = "burn_not_allowed"
    PASS_ON_LEAD = "pass_on_lead"
    PLAYER_OUT = "player_out"
    GAME_OVER = "game_over"
    BAD_ACTION = "bad_action"
    #: A correction names an event no game action made (engine/gouji/corrections.py).
    UNKNOWN_EVENT = "unknown_event"
    #: A correction whose replayed history is illegal: refused, nothing changed.
    CORRECTION_REFUSED = "correction_refused"


#: How loud each kind is: everything is for a referee, a pass on the lead only noted.
DEFAULT_SEVERITY: dict[GoujiViolationKind, Severity] = dict.fromkeys(
    GoujiViolationKind, Severity.ALERT
)
DEFAULT_SEVERITY |= {
    GoujiViolationKind.PASS_ON_LEAD: Severity.WARNING,
    GoujiViolationKind.GAME_OVER: Severity.WARNING,
    GoujiViolationKind.UNKNOWN_EVENT: Severity.WARNING,
    GoujiViolationKind.CORRECTION_REFUSED: Severity.WARNING,
}


@dataclass(frozen=True, slots=True)
class GoujiViolation:
    """One problem; ``seat`` is the seat at fault (None for a problem with no seat)."""

    kind: GoujiViolationKind
    seat: int | None
    detail: str
    severity: Severity = Severity.ALERT

    @classmethod
    def of(cls, kind: GoujiViolationKind, seat: int | None, detail: str) -> GoujiViolation:
        return cls(kind, seat, detail, DEFAULT_SEVERITY[kind])

    def __str__(self) -> str:
        who = f"seat {self.seat}" if self.seat is not None else "table"
        return f"{self.kind.value} ({who}): {self.detail}"


class IllegalPlayError(ValueError):
    """Raised by strict Gouji tables; the message quotes the offending action with ``!r``."""

    def __init__(self, action: object, violation: GoujiViolation) -> None:
        super().__init__(f"{violation} in {action!r}")
        self.action = action
        self.violation = violation
