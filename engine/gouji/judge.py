"""The checking contract: is a play legal here, does it beat the current play, is it 够级?

:func:`judge_cards` answers for cards; :func:`judge` for one JSON request
``{"current": [...], "play": [...]}`` (``current`` empty or absent for a lead; an optional
``hand``, the player's cards before the play, adds the in-hand and 憋三 checks). ``beats`` is
False for a lead (nothing to beat); ``legal`` for an answer means well formed *and* beating.
A malformed request gives ``error`` (a readable message) instead of an exception.

>>> judge({"current": ["2", "7", "7", "7", "7"], "play": ["8", "8", "8", "8", "8"]}).to_json()
{'legal': True, 'beats': True, 'gouji': False, 'error': None}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.gouji.cards import Card
from engine.gouji.notation import CardNotationError, parse_cards
from engine.gouji.options import GoujiOptions
from engine.gouji.plays import beat_problem, is_gouji, rank_rule_problem, shape_of
from engine.gouji.table import take_cards
from engine.gouji.violations import GoujiViolation
from engine.gouji.violations import GoujiViolationKind as Kind

REQUEST_FIELDS = frozenset({"current", "play", "hand"})


@dataclass(frozen=True, slots=True)
class Judgement:
    """The answer; ``violation`` says why an illegal play is illegal (not part of the JSON)."""

    legal: bool
    beats: bool
    gouji: bool
    error: str | None = None
    violation: GoujiViolation | None = None

    def to_json(self) -> dict[str, Any]:
        return {"legal": self.legal, "beats": self.beats, "gouji": self.gouji, "error": self.error}


def _error(message: str) -> Judgement:
    return Judgement(legal=False, beats=False, gouji=False, error=message)


def judge_cards(
    current: Sequence[Card],
    play: Sequence[Card],
    options: GoujiOptions | None = None,
    hand: Sequence[Card] | None = None,
) -> Judgement:
    options = options or GoujiOptions()
    current_shape = shape_of(current) if current else None
    if isinstance(current_shape, GoujiViolation):
        return _error(f"'current' is not a play: {current_shape.detail}")
    shape = shape_of(play)
    if isinstance(shape, GoujiViolation):
        return Judgement(legal=False, beats=False, gouji=False, violation=shape)
    gouji = is_gouji(shape, options)
    problem = beat_problem(shape, current_shape) if current_shape is not None else None
    beats = current_shape is not None and problem is None
    if hand is not None and take_cards(hand, play) is None:
        problem = problem or GoujiViolation.of(
            Kind.CARDS_NOT_IN_HAND, None, "the play holds cards that are not in 'hand'"
        )
    problem = problem or rank_rule_problem(shape, hand, options)
    return Judgement(legal=problem is None, beats=beats, gouji=gouji, violation=problem)


def judge(request: object, options: GoujiOptions | None = None) -> Judgement:
    """One JSON request judged; a bad request gives a Judgement with ``error`` set."""
    if not isinstance(request, Mapping):
        return _error(f"expected a JSON object, got {request!r}")
    unknown = sorted(set(request) - REQUEST_FIELDS)
    if unknown:
        return _error(f"unknown field(s) {unknown} (known: {sorted(REQUEST_FIELDS)})")
    if "play" not in request:
        return _error('missing \'play\' (a list of cards such as ["8", "8"])')
    try:
        current = parse_cards(_card_field(request, "current", []))
        play = parse_cards(_card_field(request, "play", []))
        hand_field = request.get("hand")
        hand = None if hand_field is None else parse_cards(_card_field(request, "hand", []))
    except CardNotationError as exc:
        return _error(str(exc))
    return judge_cards(current, play, options, hand)


def _card_field(request: Mapping[str, Any], name: str, default: list[str]) -> list[Any]:
    value = request.get(name, default)
    if value is None and name == "current":
        return []
    if not isinstance(value, list):
        raise CardNotationError(
            f'{name!r} must be a list of cards such as ["7h", "BJ"], got {value!r}'
        )
    return value
