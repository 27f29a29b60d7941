"""From a :class:`~engine.rulesets.WinRequest` to the Qujing views worth scoring.

Validation first (no flowers, no chow melds, 14 tiles counting each kong as 3, at most four
copies of a kind), then one view per way the hand can win: four sets and a pair (chows may be
formed in hand, never claimed), seven pairs, and the discard-streak hands, whose shape is
irrelevant. Errors quote the hand and never raise past :func:`build_views`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from engine.notation import NotationError, format_hand
from engine.qujing.options import QujingOptions
from engine.qujing.view import KONG_DISCARD, QjView, Shape, flag_from, own_discards_from
from engine.rulesets import WinRequest
from engine.tiles import KINDS, MeldKind, Tile, excess_copies

HAND_SIZE = 14


class HandError(ValueError):
    """A declared hand that cannot be a Qujing hand; the message quotes it."""


def build_views(request: WinRequest, options: QujingOptions) -> tuple[QjView, ...]:
    """Every arrangement of ``request`` as a view; empty when the tiles do not form a win."""
    hand = request.hand
    text = f"{format_hand(hand)} + {request.win_tile}"
    everything = (*hand.all_tiles(), request.win_tile)
    if any(t.is_flower for t in everything):
        raise HandError(f"Qujing is played without flowers: {text!r}")
    chows = [m for m in hand.melds if m.kind is MeldKind.CHOW]
    if chows:
        raise HandError(f"Qujing has no chow, but the hand declares {chows[0]}: {text!r}")
    size = len(hand.concealed) + 1 + 3 * len(hand.melds)
    if size != HAND_SIZE:
        raise HandError(
            f"a winning hand has {HAND_SIZE} tiles (a kong counting 3), got {size}: {text!r}"
        )
    extra = excess_copies(everything)
    if extra:
        tile, count = next(iter(extra.items()))
        raise HandError(f"{count} copies of {tile} (at most 4): {text!r}")
    try:
        own_discards = own_discards_from(request.extras)
        kong_discard = flag_from(request.extras, KONG_DISCARD)
    except NotationError as exc:
        raise HandError(str(exc)) from None

    def view(shape: Shape, *, all_triplets: bool = False, quads: int = 0) -> QjView:
        return QjView(
            shape=shape,
            tiles=everything,
            all_triplets=all_triplets,
            quads_in_pairs=quads,
            has_melds=bool(hand.melds),
            self_drawn=request.self_drawn,
            kong_replacement=request.kong_replacement,
            robbing_kong=request.robbing_kong,
            kong_discard=kong_discard,
            own_discards=own_discards,
            options=options,
        )

    counts = Counter((*hand.concealed, request.win_tile))
    out: list[QjView] = []
    melds_are_triplets = all(m.kind is not MeldKind.CHOW for m in hand.melds)
    regular = sorted(set(_set_kinds(_dense(counts))), reverse=True)
    out += [view(Shape.REGULAR, all_triplets=t and melds_are_triplets) for t in regular]
    if not hand.melds and all(n % 2 == 0 for n in counts.values()):
        quads = sum(1 for n in counts.values() if n == 4)
        if not (quads and options.seven_pairs_all_different):
            out.append(view(Shape.SEVEN_PAIRS, quads=quads))
    if not hand.melds and own_discards:
        out.append(view(Shape.DISCARD_STREAK))
    return tuple(out)


def _dense(counts: Counter[Tile]) -> list[int]:
    return [counts.get(kind, 0) for kind in KINDS]


def _set_kinds(counts: list[int]) -> Iterator[bool]:
    """For each way ``counts`` splits into sets and one pair: whether every set is a triplet."""
    for i, n in enumerate(counts):
        if n >= 2:
            counts[i] -= 2
            yield from _sets_only(counts, 0, all_triplets=True)
            counts[i] += 2


def _sets_only(counts: list[int], start: int, *, all_triplets: bool) -> Iterator[bool]:
    i = next((k for k in range(start, len(counts)) if counts[k]), None)
    if i is None:
        yield all_triplets
        return
    if counts[i] >= 3:
        counts[i] -= 3
        yield from _sets_only(counts, i, all_triplets=all_triplets)
        counts[i] += 3
    tile = KINDS[i]
    if tile.is_numbered and tile.rank <= 7 and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        yield from _sets_only(counts, i, all_triplets=False)
        for k in (i, i + 1, i + 2):
            counts[k] += 1
