"""From a :class:`~engine.rulesets.WinRequest` to the shared win contexts worth scoring.

Qujing's own checks come first (no flowers, no chow melds, extras readable), then the shared
:func:`~engine.scoring.context.build_contexts` with Qujing's shapes: four sets and a pair (chows
may be formed in hand, never claimed), seven pairs, and the discard-streak hands (ten winds /
seven winds), whose shape is irrelevant: they are offered as one extra arrangement with no sets
whenever the winner made no meld and has an honour streak to show.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.notation import NotationError, format_hand
from engine.qujing.options import QujingOptions
from engine.qujing.view import KONG_DISCARD, flag_from, own_discards_from
from engine.rulesets import WinRequest
from engine.scoring.context import HandError, WinContext, build_contexts
from engine.scoring.decompose import (
    Arrangement,
    Counts,
    TileSet,
    seven_pairs_arrangement,
    standard_arrangements,
)
from engine.tiles import MeldKind

DISCARD_STREAK = "discard_streak"

__all__ = ["DISCARD_STREAK", "HandError", "build_views"]


def build_views(request: WinRequest, options: QujingOptions) -> tuple[WinContext, ...]:
    """Every arrangement of ``request`` as a shared win context; HandError when none exists."""
    hand = request.hand
    text = f"{format_hand(hand)} + {request.win_tile}"
    if request.flowers or request.win_tile.is_flower or any(t.is_flower for t in hand.all_tiles()):
        raise HandError(f"Qujing is played without flowers: {text!r}")
    chows = [m for m in hand.melds if m.kind is MeldKind.CHOW]
    if chows:
        raise HandError(f"Qujing has no chow, but the hand declares {chows[0]}: {text!r}")
    try:
        streak = len(own_discards_from(request.extras)) >= 7
        flag_from(request.extras, KONG_DISCARD)
    except NotationError as exc:
        raise HandError(str(exc)) from None

    def arrange(concealed: Counts, melds: Sequence[TileSet]) -> list[Arrangement]:
        out = standard_arrangements(concealed, melds)
        pairs = seven_pairs_arrangement(concealed, melds)
        if pairs is not None and not (
            options.seven_pairs_all_different and any(n == 4 for n in concealed)
        ):
            out.append(pairs)
        if streak and not melds:
            out.append(Arrangement(DISCARD_STREAK, ()))
        return out

    return build_contexts(request, arrange)
