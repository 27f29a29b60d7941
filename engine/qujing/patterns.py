"""Qujing hand types as declarative units for the shared evaluator (:mod:`engine.scoring`).

Each unit is a shared :class:`~engine.scoring.evaluator.Pattern` built from a
:class:`~engine.qujing.hands.HandType` (id, names, fans) and one predicate over the shared
:class:`~engine.scoring.context.WinContext`; which unit excludes which is declared here and
applied by the one evaluator. The plain win is not a unit: it is what a legal hand with no unit
scores (0 fans, self-draw only). Options that change a predicate or a value are bound when the
units are built, once per :class:`QujingOptions`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from engine.qujing import hands
from engine.qujing.arrangements import DISCARD_STREAK
from engine.qujing.hands import HandType
from engine.qujing.options import QujingOptions
from engine.qujing.view import HONOURS, KONG_DISCARD, colours, flag_from, own_discards_from
from engine.scoring.context import WinContext
from engine.scoring.decompose import SEVEN_PAIRS, STANDARD
from engine.scoring.evaluator import Pattern
from engine.tiles import Tile

HAND_SHAPES = (STANDARD, SEVEN_PAIRS)
WINDS_AND_DRAGONS = tuple(Tile.parse(t) for t in "ESWNCFP")

#: Units whose fans come from how the tile was won, not from the hand (digest §8.4).
WIN_EVENT_IDS = frozenset({hands.KONG_DISCARD.id, hands.ROBBING_THE_KONG.id})


def _unit(
    hand_type: HandType,
    predicate: Callable[[WinContext], bool],
    *,
    fans: int | None = None,
    excludes: Iterable[HandType] = (),
) -> Pattern:
    points = hand_type.fans if fans is None else fans
    excluded = frozenset(x.id for x in excludes)
    return Pattern(hand_type.id, hand_type.name, hand_type.chinese, points, predicate, excluded)


def _all_pungs(ctx: WinContext) -> bool:
    return ctx.shape == STANDARD and len(ctx.pungs) == 4


def _seven_pairs(ctx: WinContext) -> bool:
    return ctx.shape == SEVEN_PAIRS


def _dragon_seven_pairs(ctx: WinContext) -> bool:
    return ctx.shape == SEVEN_PAIRS and 4 in ctx.counts


def _kong_bloom(ctx: WinContext) -> bool:
    return ctx.shape in HAND_SHAPES and ctx.self_drawn and ctx.kong_replacement


def _kong_discard(ctx: WinContext) -> bool:
    return (
        ctx.shape in HAND_SHAPES
        and not ctx.self_drawn
        and not ctx.robbing_kong
        and flag_from(ctx.extras, KONG_DISCARD)
    )


def _robbing_the_kong(ctx: WinContext) -> bool:
    return ctx.shape in HAND_SHAPES and ctx.robbing_kong


@lru_cache(maxsize=32)
def patterns_for(options: QujingOptions) -> tuple[Pattern, ...]:
    """Every unit under ``options``, in the seed's order."""
    streak = frozenset(
        t for t in WINDS_AND_DRAGONS if options.winds_include_green_dragon or str(t) != "F"
    )

    def one_colour(ctx: WinContext) -> bool:
        present = colours(ctx.counts)
        if ctx.shape not in HAND_SHAPES or len(present) != 1:
            return False
        return options.honours_are_a_colour or HONOURS not in present

    def first_discards(ctx: WinContext, n: int) -> tuple[Tile, ...] | None:
        if ctx.shape != DISCARD_STREAK or ctx.melds:
            return None
        first = own_discards_from(ctx.extras)[:n]
        return first if len(first) == n and all(t in streak for t in first) else None

    def ten_winds(ctx: WinContext) -> bool:
        return first_discards(ctx, 10) is not None

    def seven_winds(ctx: WinContext) -> bool:
        first = first_discards(ctx, 7)
        return first is not None and len(set(first)) == 7

    return (
        _unit(hands.ALL_PUNGS, _all_pungs),
        _unit(hands.ONE_COLOUR, one_colour),
        _unit(hands.SMALL_SEVEN_PAIRS, _seven_pairs),
        _unit(hands.TEN_WINDS, ten_winds, excludes=[hands.SEVEN_WINDS]),
        _unit(hands.SEVEN_WINDS, seven_winds),
        _unit(hands.KONG_BLOOM, _kong_bloom),
        _unit(hands.KONG_DISCARD, _kong_discard),
        _unit(hands.ROBBING_THE_KONG, _robbing_the_kong),
        _unit(
            hands.DRAGON_SEVEN_PAIRS,
            _dragon_seven_pairs,
            fans=options.dragon_seven_pairs_fans,
            excludes=[hands.SMALL_SEVEN_PAIRS],
        ),
    )
