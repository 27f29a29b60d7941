"""The concrete events a :class:`engine.table.Table` emits (serialised by :mod:`engine.events`).

Events carry private information (a drawn tile, dealt tiles) only in fields listed in
``private_fields``; :func:`public_form` blanks them for public topics and overlays.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from engine.events import Event
from engine.tiles import Meld, Tile, Wind


@dataclasses.dataclass(frozen=True, kw_only=True)
class TableEvent(Event):
    """Base of table events: the private fields listed here are blanked in the public form."""

    private_fields: ClassVar[tuple[str, ...]] = ()


@dataclasses.dataclass(frozen=True, kw_only=True)
class HandStarted(TableEvent):
    type: ClassVar[str] = "hand_started"
    hand_number: int
    procedure: str
    dealer: int
    prevalent_wind: Wind
    dice: tuple[int, ...] = ()
    scores: tuple[int, ...] = (0, 0, 0, 0)


@dataclasses.dataclass(frozen=True, kw_only=True)
class TilesDealt(TableEvent):
    type: ClassVar[str] = "tiles_dealt"
    private_fields: ClassVar[tuple[str, ...]] = ("tiles",)
    seat: int
    count: int
    tiles: tuple[Tile, ...] | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class TileDrawn(TableEvent):
    type: ClassVar[str] = "tile_drawn"
    private_fields: ClassVar[tuple[str, ...]] = ("tile",)
    seat: int
    replacement: bool = False
    tile: Tile | None = None
    live_left: int | None = None
    sea_bottom: bool = False


@dataclasses.dataclass(frozen=True, kw_only=True)
class TileDiscarded(TableEvent):
    """A discard; ``inferred``: no camera read it, the next state shows it; ``tile`` null: unseen.

    A discard is inferred from a claim of it or from the next seat playing; one whose tile was
    never seen is not in the river (it cannot be claimed)."""

    type: ClassVar[str] = "tile_discarded"
    seat: int
    tile: Tile | None
    row: int
    col: int
    river_bottom: bool = False
    inferred: bool = False


@dataclasses.dataclass(frozen=True, kw_only=True)
class MeldClaimed(TableEvent):
    """A chow or pung of a discard (``from_seat`` the discarder)."""

    type: ClassVar[str] = "meld_claimed"
    seat: int
    meld: Meld
    from_seat: int


@dataclasses.dataclass(frozen=True, kw_only=True)
class KongDeclared(TableEvent):
    """``kind``: exposed (from a discard), concealed or added (to an own pung); ``meld`` None: a
    concealed kong laid face down, its kind not seen (``kong_shown`` names it later)."""

    type: ClassVar[str] = "kong_declared"
    seat: int
    meld: Meld | None
    kind: str
    from_seat: int | None = None
    #: Score changes the rule set pays for the kong (e.g. Qujing's exposed kong); None: none.
    deltas: tuple[int, ...] | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class KongShown(TableEvent):
    """A concealed kong laid face down turned face up: ``meld`` is now known."""

    type: ClassVar[str] = "kong_shown"
    seat: int
    meld: Meld


@dataclasses.dataclass(frozen=True, kw_only=True)
class ClaimOverridden(TableEvent):
    """A claim undone by a higher-precedence claim on the same discard."""

    type: ClassVar[str] = "claim_overridden"
    seat: int
    by_seat: int
    meld: Meld | None = None
    #: The undone kong's payment given back (None: there was none).
    deltas: tuple[int, ...] | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class FlowerReplaced(TableEvent):
    type: ClassVar[str] = "flower_replaced"
    seat: int
    flower: Tile


@dataclasses.dataclass(frozen=True, kw_only=True)
class WinDeclared(TableEvent):
    """A valid win: ``score`` is ScoreResult.to_json(), ``deltas`` the four score changes.

    The changes the win causes: a robbed kong's payment given back is included.
    ``win_tile_inferred``: a self-drawn win whose draw no one saw (a camera-only table); the
    engine took the tile of the hand that scores the most (engine.win_tile_choice).
    ``hand_tile_inferred``: a tile of the hand no camera read (the hand read one short), taken
    as the one making the least-scoring legal win (engine.win_tile_choice.unread_tile)."""

    type: ClassVar[str] = "win_declared"
    seat: int
    win_tile: Tile | None
    self_drawn: bool
    win_tile_inferred: bool = False
    hand_tile_inferred: Tile | None = None
    discarder: int | None = None
    robbing_kong: bool = False
    kong_replacement: bool = False
    last_tile: bool = False
    last_of_kind: bool = False
    hand: str | None = None
    score: dict[str, Any] | None = None
    deltas: tuple[int, ...] | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class WinScored(TableEvent):
    """A win published unscored (a kong still face down) scored once its kongs were shown.

    ``win_event`` is that ``win_declared``'s event_id; ``hand``, ``score`` and ``deltas`` are
    what it lacked. A ``hand_ended`` with the hand's new deltas and totals follows when the hand
    had already ended."""

    type: ClassVar[str] = "win_scored"
    seat: int
    win_event: str
    hand: str
    score: dict[str, Any]
    deltas: tuple[int, ...] | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class WashoutDeclared(TableEvent):
    type: ClassVar[str] = "washout"
    live_left: int | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class ViolationRaised(TableEvent):
    type: ClassVar[str] = "violation"
    kind: str
    seat: int | None
    detail: str
    severity: str
    penalty: int = 0
    action: dict[str, Any] | None = None


@dataclasses.dataclass(frozen=True, kw_only=True)
class Overtime(TableEvent):
    """A WSOM time-limit breach: ``penalty`` points, deducted at the end of the hand."""

    type: ClassVar[str] = "overtime"
    seat: int
    scope: str
    seconds: float
    penalty: int


@dataclasses.dataclass(frozen=True, kw_only=True)
class TableFaultRaised(TableEvent):
    type: ClassVar[str] = "table_fault"
    code: str
    detail: str = ""


@dataclasses.dataclass(frozen=True, kw_only=True)
class CorrectionApplied(TableEvent):
    """The action behind ``supersedes`` was replaced (or dropped) and the state rebuilt."""

    type: ClassVar[str] = "correction_applied"
    supersedes: str
    replacement: dict[str, Any] | None = None
    reason: str = ""


@dataclasses.dataclass(frozen=True, kw_only=True)
class HandEnded(TableEvent):
    """``result``: win or washout; ``deltas`` include penalties; ``scores`` are the new totals."""

    type: ClassVar[str] = "hand_ended"
    hand_number: int
    result: str
    winners: tuple[int, ...] = ()
    deltas: tuple[int, ...] = (0, 0, 0, 0)
    penalties: tuple[int, ...] = (0, 0, 0, 0)
    scores: tuple[int, ...] = (0, 0, 0, 0)


@dataclasses.dataclass(frozen=True, kw_only=True)
class CommandHandled(TableEvent):
    """A command (``cmd/<verb>``) the service executed: who sent it, its correlation data and
    the outcome (``ok`` or ``error``); for ``ack`` the acknowledged alert's event_id; ``result``
    the result sent in the response, as compact JSON text."""

    type: ClassVar[str] = "command_handled"
    verb: str
    outcome: str
    account: str | None = None
    correlation: str | None = None
    alert: str | None = None
    note: str = ""
    error: str = ""
    result: str = ""


#: Action fields that hold concealed tiles (a drawn tile, a dealt hand, the wall order).
CONCEALED_ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "draw": ("tile",),
    "deal": ("tiles",),
    "hand_start": ("wall",),
    "gouji_start": ("hands",),  # a Gouji game's six hands
}


def public_action(action: dict[str, Any]) -> dict[str, Any]:
    """An action's JSON form with its concealed fields blanked (a correction's replacement)."""
    concealed = CONCEALED_ACTION_FIELDS.get(str(action.get("action")), ())
    return {k: None if k in concealed else v for k, v in action.items()}


def public_form(event: Event) -> Event:
    """The event with its private fields blanked (for public topics and overlays)."""
    blanks: dict[str, Any] = dict.fromkeys(getattr(event, "private_fields", ()))
    # a mahjong or a Gouji table's correction_applied: both carry the replacing action
    replacement = (
        getattr(event, "replacement", None) if event.type == "correction_applied" else None
    )
    if isinstance(replacement, dict):
        blanks["replacement"] = public_action(replacement)
    return dataclasses.replace(event, **blanks) if blanks else event
