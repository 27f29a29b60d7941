"""Gouji actions (what players do) and game events (what the table makes of them).

Both are frozen dataclasses; :func:`event_to_json` is their one JSON form (cards in notation).
The service's MQTT envelope (table, epoch, seq, timestamp) is added by the application.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.gouji.cards import Card
from engine.gouji.notation import card_list

GOUJI_SCHEMA = "tilesight.gouji/1"


@dataclass(frozen=True, slots=True)
class Play:
    """A seat lays cards on the table (a lead, an answer or a burn: the table decides)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    """A seat declines to answer the current play."""

    seat: int


GoujiAction = Play | Pass


@dataclass(frozen=True, slots=True)
class CardsPlayed:
    """Cards laid. ``role``: "lead", "follow" (in turn), "answer" (the 对头 of a 够级 play),
    "burn" (烧: another player beats a 够级 play) or "unburn" (解烧: the target beats a burn)."""

    type: ClassVar[str] = "cards_played"
    seat: int
    cards: tuple[Card, ...]
    role: str
    gouji: bool
    tongpai: bool
    cards_left: int


@dataclass(frozen=True, slots=True)
class Passed:
    type: ClassVar[str] = "passed"
    seat: int


@dataclass(frozen=True, slots=True)
class TrickWon:
    """Everybody entitled to answer passed: ``seat`` won the trick and ``leader`` leads next."""

    type: ClassVar[str] = "trick_won"
    seat: int
    leader: int | None


@dataclass(frozen=True, slots=True)
class PointOpened:
    """开点: a 够级 play of ``seat`` stood unbeaten (§11)."""

    type: ClassVar[str] = "point_opened"
    seat: int


@dataclass(frozen=True, slots=True)
class PointFailed:
    """不开点: ``seat`` can no longer open; he owes his 对头 one 点贡 card (§11)."""

    type: ClassVar[str] = "point_failed"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerOut:
    """``seat`` played his last card; ``place`` 1 is 头科 (§9)."""

    type: ClassVar[str] = "player_out"
    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class GameOver:
    """The finishing order (six seats, first out first) and the scores by seat."""

    type: ClassVar[str] = "game_over"
    finish_order: tuple[int, ...]
    scores: tuple[int, ...]
    sweep: bool


GoujiEvent = CardsPlayed | Passed | TrickWon | PointOpened | PointFailed | PlayerOut | GameOver


def event_to_json(event: GoujiEvent | GoujiAction) -> dict[str, Any]:
    """The one JSON form of a Gouji action or event.

    >>> event_to_json(Passed(seat=3))
    {'type': 'passed', 'schema': 'tilesight.gouji/1', 'seat': 3}
    """
    kind = getattr(event, "type", type(event).__name__.lower())
    out: dict[str, Any] = {"type": kind, "schema": GOUJI_SCHEMA}
    for field in dataclasses.fields(event):
        value = getattr(event, field.name)
        if field.name == "cards":
            value = card_list(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[field.name] = value
    return out
