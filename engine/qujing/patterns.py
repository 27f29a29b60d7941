"""Qujing hand types as small declarative units: ``applies(view) -> int`` and ``excludes``.

Each unit names its :class:`~engine.qujing.hands.HandType` (id, names, fans); which unit excludes
which is declared here and applied by the evaluator, never by an if/elif chain. The plain win is
not a unit: it is what a legal hand with no unit scores (0 fans, self-draw only).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.qujing import hands
from engine.qujing.hands import HandType
from engine.qujing.view import QjView, Shape
from engine.tiles import Suit, Tile

_WINDS = tuple(Tile(Suit.WIND, r) for r in Suit.WIND.ranks)
_RED, _GREEN, _WHITE = (Tile(Suit.DRAGON, r) for r in Suit.DRAGON.ranks)
_HAND_SHAPES = (Shape.REGULAR, Shape.SEVEN_PAIRS)


@dataclass(frozen=True, slots=True)
class Pattern:
    """Base unit: the hand type it scores and the ids of the hand types it makes redundant."""

    hand_type: HandType
    excludes: frozenset[str] = frozenset()

    @property
    def id(self) -> str:
        return self.hand_type.id

    def fans(self, view: QjView) -> int:
        """Fans per count (only dragon seven pairs reads an option)."""
        return self.hand_type.fans

    def applies(self, view: QjView) -> int:
        raise NotImplementedError


class AllPungs(Pattern):
    def applies(self, view: QjView) -> int:
        return int(view.shape is Shape.REGULAR and view.all_triplets)


class OneColour(Pattern):
    def applies(self, view: QjView) -> int:
        colours = view.colours
        if view.shape not in _HAND_SHAPES or len(colours) != 1:
            return 0
        return int(view.options.honours_are_a_colour or None not in colours)


class SmallSevenPairs(Pattern):
    def applies(self, view: QjView) -> int:
        return int(view.shape is Shape.SEVEN_PAIRS)


class DragonSevenPairs(Pattern):
    def fans(self, view: QjView) -> int:
        return view.options.dragon_seven_pairs_fans

    def applies(self, view: QjView) -> int:
        return int(view.shape is Shape.SEVEN_PAIRS and view.quads_in_pairs > 0)


def honour_streak_tiles(view: QjView) -> frozenset[Tile]:
    """The honours that count for ten winds / seven winds under the options in force."""
    dragons = (_RED, _GREEN, _WHITE) if view.options.winds_include_green_dragon else (_RED, _WHITE)
    return frozenset(_WINDS + dragons)


class TenWinds(Pattern):
    def applies(self, view: QjView) -> int:
        first = view.own_discards[:10]
        honours = honour_streak_tiles(view)
        return int(
            view.shape is Shape.DISCARD_STREAK
            and not view.has_melds
            and len(first) == 10
            and all(t in honours for t in first)
        )


class SevenWinds(Pattern):
    def applies(self, view: QjView) -> int:
        first = view.own_discards[:7]
        honours = honour_streak_tiles(view)
        return int(
            view.shape is Shape.DISCARD_STREAK
            and not view.has_melds
            and len(set(first)) == 7
            and all(t in honours for t in first)
        )


class KongBloom(Pattern):
    def applies(self, view: QjView) -> int:
        return int(view.shape in _HAND_SHAPES and view.self_drawn and view.kong_replacement)


class KongDiscard(Pattern):
    def applies(self, view: QjView) -> int:
        return int(
            view.shape in _HAND_SHAPES
            and not view.self_drawn
            and view.kong_discard
            and not view.robbing_kong
        )


class RobbingTheKong(Pattern):
    def applies(self, view: QjView) -> int:
        return int(view.shape in _HAND_SHAPES and not view.self_drawn and view.robbing_kong)


#: Every unit, in the seed's order.
PATTERNS: tuple[Pattern, ...] = (
    AllPungs(hands.ALL_PUNGS),
    OneColour(hands.ONE_COLOUR),
    SmallSevenPairs(hands.SMALL_SEVEN_PAIRS),
    TenWinds(hands.TEN_WINDS, excludes=frozenset({hands.SEVEN_WINDS.id})),
    SevenWinds(hands.SEVEN_WINDS),
    KongBloom(hands.KONG_BLOOM),
    KongDiscard(hands.KONG_DISCARD),
    RobbingTheKong(hands.ROBBING_THE_KONG),
    DragonSevenPairs(hands.DRAGON_SEVEN_PAIRS, excludes=frozenset({hands.SMALL_SEVEN_PAIRS.id})),
)
#: Units whose fans come from how the tile was won, not from the hand (digest §8.4).
WIN_EVENT_IDS = frozenset({hands.KONG_DISCARD.id, hands.ROBBING_THE_KONG.id})
