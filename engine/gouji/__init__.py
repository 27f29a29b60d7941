"""Gouji (够级, seed 003): the six-player card game of the seeds, as a pure rules engine.

Cards and notation (:mod:`.cards`, :mod:`.notation`), plays and 够级 (:mod:`.plays`), the response
order and burning (:mod:`.responses`), the game state machine (:mod:`.table`), opening and dealing
(:mod:`.opening`), tribute (:mod:`.tribute`), scoring and the match (:mod:`.scoring`), options and
named variants (:mod:`.options`) and a seeded simulator (:mod:`.simulate`). The rules and every
option are in ``docs/rules-gouji.md``; the digest is ``shared/rules/gouji.md``.
"""

from engine.gouji.cards import Card, Rank, Suit, full_deck
from engine.gouji.events import Pass, Play, event_to_json
from engine.gouji.judge import Judgement, judge, judge_cards
from engine.gouji.notation import CardNotationError, format_cards, parse_card, parse_cards
from engine.gouji.options import GoujiOptionError, GoujiOptions, find_variant
from engine.gouji.plays import PlayShape, beats, is_gouji, shape_of
from engine.gouji.scoring import GameResult, MatchScore, settle_finish_order
from engine.gouji.simulate import simulate_game, simulate_match
from engine.gouji.table import GoujiGame
from engine.gouji.violations import GoujiViolation, GoujiViolationKind, IllegalPlayError

__all__ = [
    "Card",
    "CardNotationError",
    "GameResult",
    "GoujiGame",
    "GoujiOptionError",
    "GoujiOptions",
    "GoujiViolation",
    "GoujiViolationKind",
    "IllegalPlayError",
    "Judgement",
    "MatchScore",
    "Pass",
    "Play",
    "PlayShape",
    "Rank",
    "Suit",
    "beats",
    "event_to_json",
    "find_variant",
    "format_cards",
    "full_deck",
    "is_gouji",
    "judge",
    "judge_cards",
    "parse_card",
    "parse_cards",
    "settle_finish_order",
    "shape_of",
    "simulate_game",
    "simulate_match",
]
