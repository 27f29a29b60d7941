"""Small builders for Gouji tests: cards and shapes from notation."""

from __future__ import annotations

from engine.gouji.cards import Card
from engine.gouji.notation import parse_cards
from engine.gouji.options import GoujiOptions
from engine.gouji.plays import PlayShape, shape_of


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def shape(text: str) -> PlayShape:
    result = shape_of(parse_cards(text))
    assert isinstance(result, PlayShape), result
    return result


DEFAULT = GoujiOptions()
