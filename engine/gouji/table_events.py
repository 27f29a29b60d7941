"""A Gouji table's actions and its published events, in the service's envelope.

The game's own events (:mod:`engine.gouji.events`) carry no envelope; a table at the service
needs the one every mahjong event has (``event_id``, ``table``, ``(epoch, seq)``,
``timestamp``), its own versioned schema id (:data:`GOUJI_EVENT_SCHEMA`) and one JSON form
(``engine.events.to_dict``). Actions reuse ``engine.actions``: they are journaled, bounded and
read back like mahjong's. ``game_started.hands`` is concealed: blanked on public topics, as a
mahjong deal's tiles are; ``violation`` is referee-only (``private/events/``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from engine.actions import Action, register_action
from engine.events import Event

GOUJI_EVENT_SCHEMA = "tilesight.gouji-event/1"


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class GoujiStart(Action):
    """A game starts: six hands (card notation, by seat) and the seat that leads first."""

    name: ClassVar[str] = "gouji_start"
    hands: tuple[str, ...]
    leader: int
    revolutionary: int | None = None


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class GoujiPlay(Action):
    """A seat lays cards (notation, e.g. ``"8 8 8 2"``): a lead, an answer or a burn;
    ``camera``: read by the table's card camera, not entered."""

    name: ClassVar[str] = "gouji_play"
    seat: int
    cards: str
    camera: bool = False


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class GoujiPass(Action):
    """A seat passes; ``inferred``: no camera saw it, a later seat's play (or the trick
    gathered) shows it (a card camera cannot see a pass)."""

    name: ClassVar[str] = "gouji_pass"
    seat: int
    inferred: bool = False


for _action in (GoujiStart, GoujiPlay, GoujiPass):
    register_action(_action)


@dataclasses.dataclass(frozen=True, kw_only=True)
class GoujiEvent(Event):
    """Base of the events a Gouji table publishes."""

    schema: ClassVar[str] = GOUJI_EVENT_SCHEMA


@dataclasses.dataclass(frozen=True, kw_only=True)
class GameStarted(GoujiEvent):
    """``hands`` (concealed: null on public topics) by seat; ``match`` the alliances' points."""

    type: ClassVar[str] = "game_started"
    private_fields: ClassVar[tuple[str, ...]] = ("hands",)
    game_number: int
    leader: int
    revolutionary: int | None = None
    cards_left: tuple[int, ...] = ()
    match: tuple[int, ...] = (0, 0)
    hands: tuple[str, ...] | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class CardsPlayed(GoujiEvent):
    """``role``: lead, follow, answer (the 对头 of a 够级 play), burn (烧) or unburn (解烧);
    ``report``: 报牌, the seat holds ten cards or fewer (not under 憋三); ``camera``: the
    play was read by the table's card camera (false: entered as ``cmd/action``)."""

    type: ClassVar[str] = "cards_played"
    seat: int
    cards: tuple[str, ...]
    role: str
    gouji: bool
    tongpai: bool
    cards_left: int
    report: bool
    trick_leader: int
    camera: bool = False


@dataclasses.dataclass(frozen=True, kw_only=True)
class Passed(GoujiEvent):
    """``inferred``: the pass was not seen but inferred from the next play (a card camera)."""

    type: ClassVar[str] = "passed"
    seat: int
    inferred: bool = False


@dataclasses.dataclass(frozen=True, kw_only=True)
class TrickWon(GoujiEvent):
    """``seat`` won the trick; ``leader`` leads the next (null: nobody is left to)."""

    type: ClassVar[str] = "trick_won"
    seat: int
    leader: int | None


@dataclasses.dataclass(frozen=True, kw_only=True)
class PointOpened(GoujiEvent):
    type: ClassVar[str] = "point_opened"
    seat: int


@dataclasses.dataclass(frozen=True, kw_only=True)
class PointFailed(GoujiEvent):
    type: ClassVar[str] = "point_failed"
    seat: int
    reason: str


@dataclasses.dataclass(frozen=True, kw_only=True)
class PlayerOut(GoujiEvent):
    """``place`` 1 (头科) … 6 (大落), ``place_name`` its Chinese name."""

    type: ClassVar[str] = "player_out"
    seat: int
    place: int
    place_name: str


@dataclasses.dataclass(frozen=True, kw_only=True)
class GameOver(GoujiEvent):
    """Scores by seat, the alliances' game totals (seats 0/2/4, 1/3/5), the match after it."""

    type: ClassVar[str] = "game_over"
    game_number: int
    finish_order: tuple[int, ...]
    scores: tuple[int, ...]
    alliances: tuple[int, ...]
    sweep: bool
    match: tuple[int, ...]
    match_winner: int | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class GoujiViolationRaised(GoujiEvent):
    """An illegal play or action, for the referee (``private/events/violation``)."""

    type: ClassVar[str] = "violation"
    kind: str
    seat: int | None
    detail: str
    severity: str
    action: dict[str, Any] | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class GoujiCorrectionApplied(GoujiEvent):
    """A referee superseded the action behind event ``supersedes`` with ``replacement`` (null:
    dropped it) and the games were replayed; the new ``state`` follows (as mahjong's)."""

    type: ClassVar[str] = "correction_applied"
    supersedes: str
    replacement: dict[str, Any] | None = None
    reason: str = ""


@dataclasses.dataclass(frozen=True, kw_only=True)
class GoujiTableFault(GoujiEvent):
    type: ClassVar[str] = "table_fault"
    code: str
    detail: str = ""


@dataclasses.dataclass(frozen=True, kw_only=True)
class GoujiCommandHandled(GoujiEvent):
    """A referee command the service ran (as mahjong's ``command_handled``)."""

    type: ClassVar[str] = "command_handled"
    verb: str
    outcome: str
    account: str | None = None
    correlation: str | None = None
    alert: str | None = None
    note: str = ""
    error: str = ""
    result: str = ""
