"""MCR fans made by combining sets, with the non-separation, non-identical and account-once
principles applied; and the kong / concealed-pung series.

The principles are not expressible as pairwise exclusions, so this module works them out once
per arrangement (cached in ``ctx.cache``) and the fan predicates read the result:

* four chows: a four-chow fan takes all four; else a three-chow fan takes three and the fourth
  may pair once with one of them (Pure Double > Mixed Double > Short Straight > Two Terminal);
  else at most three pairwise fans, one less for each chow related to no other, trimming
  repeated fans first (so 123m 789m 123s 789s scores 3, never 4);
* three chows: a three-chow fan, else at most two pairwise fans;
* pungs likewise: a four-pung fan, else the first three-pung fan plus one pairing of the free
  pung, else every pairwise fan (Double Pung, Two Dragon Pungs);
* kongs: one fan of the kong series, plus the concealed-pung fan the kongs leave room for.

This mirrors the reference calculator's reading of the 1998 rules, so that results agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.scoring.context import WinContext
from engine.scoring.decompose import HONOR_BASE, SetKind, TileSet

Instances = list[tuple[TileSet, ...]]
Table = dict[int, Instances]

BIG_FOUR_WINDS, BIG_THREE_DRAGONS, FOUR_KONGS, FOUR_CONCEALED_PUNGS = 1, 2, 5, 12
QUADRUPLE_CHOW, FOUR_PURE_SHIFTED_PUNGS, FOUR_PURE_SHIFTED_CHOWS, THREE_KONGS = 14, 15, 16, 17
PURE_TRIPLE_CHOW, PURE_SHIFTED_PUNGS, PURE_STRAIGHT, PURE_SHIFTED_CHOWS = 23, 24, 28, 30
TRIPLE_PUNG, THREE_CONCEALED_PUNGS, BIG_THREE_WINDS, MIXED_STRAIGHT = 32, 33, 38, 39
MIXED_TRIPLE_CHOW, MIXED_SHIFTED_PUNGS, MIXED_SHIFTED_CHOWS = 41, 42, 50
TWO_CONCEALED_KONGS, TWO_DRAGON_PUNGS, TWO_MELDED_KONGS = 53, 54, 57
DOUBLE_PUNG, TWO_CONCEALED_PUNGS, CONCEALED_KONG = 65, 66, 67
PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS = 69, 70, 71, 72
MELDED_KONG = 74
_PAIRWISE_CHOW_FANS = (PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS)


def set_fans(ctx: WinContext) -> Table:
    """The combination and kong fans of this arrangement, by fan id (computed once)."""
    table: Table | None = ctx.cache.get("mcr.sets")
    if table is None:
        table = {}
        chows = sorted(ctx.chows, key=lambda s: s.first)
        pungs = sorted(ctx.pungs, key=lambda s: s.first)
        if not (pure_terminal_chows(ctx) or three_suited_terminal_chows(ctx)):
            _chow_fans(chows, table)
        _pung_fans(pungs, table)
        _kong_fans(pungs, table)
        ctx.cache["mcr.sets"] = table
    return table


def pure_terminal_chows(ctx: WinContext) -> bool:
    """123 123 789 789 of one suit with a pair of 5 in that suit."""
    chows, pair = ctx.chows, ctx.pair
    if len(chows) != 4 or pair is None or pair.rank != 5:
        return False
    if any(c.suit != pair.suit for c in chows):
        return False
    return sorted(c.rank for c in chows) == [1, 1, 7, 7]


def three_suited_terminal_chows(ctx: WinContext) -> bool:
    """123 and 789 in each of two suits with a pair of 5 in the third."""
    chows, pair = ctx.chows, ctx.pair
    if len(chows) != 4 or pair is None or pair.rank != 5 or pair.suit > 2:
        return False
    others = {0, 1, 2} - {pair.suit}
    return sorted((c.suit, c.rank) for c in chows) == sorted((s, r) for s in others for r in (1, 7))


def count(ctx: WinContext, fan_id: int) -> Instances:
    return set_fans(ctx).get(fan_id, [])


def _add(table: Table, fan: int | None, *sets: TileSet) -> None:
    if fan is not None:
        table.setdefault(fan, []).append(sets)


def _mid(s: TileSet) -> int:
    return s.rank + 1  # rank of a chow's middle tile


def _same_suit(*sets: TileSet) -> bool:
    return len({s.suit for s in sets}) == 1


def _four_chows(a: TileSet, b: TileSet, c: TileSet, d: TileSet) -> int | None:
    if _same_suit(a, b, c, d):
        steps = {b.first - a.first, c.first - b.first, d.first - c.first}
        if steps in ({1}, {2}):
            return FOUR_PURE_SHIFTED_CHOWS
        if steps == {0}:
            return QUADRUPLE_CHOW
    return None


def _three_chows(a: TileSet, b: TileSet, c: TileSet) -> int | None:
    ranks = sorted((_mid(a), _mid(b), _mid(c)))
    if len({a.suit, b.suit, c.suit}) == 3:
        if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
            return MIXED_SHIFTED_CHOWS
        if ranks[0] == ranks[2]:
            return MIXED_TRIPLE_CHOW
        if ranks == [2, 5, 8]:
            return MIXED_STRAIGHT
        return None
    if not _same_suit(a, b, c):
        return None
    steps = (b.first - a.first, c.first - b.first)
    if steps == (3, 3):
        return PURE_STRAIGHT
    if steps in ((1, 1), (2, 2)):
        return PURE_SHIFTED_CHOWS
    if steps == (0, 0):
        return PURE_TRIPLE_CHOW
    return None


def _two_chows(a: TileSet, b: TileSet) -> int | None:
    if a.suit != b.suit:
        return MIXED_DOUBLE_CHOW if a.rank == b.rank else None
    gap = abs(a.first - b.first)
    if gap == 3:
        return SHORT_STRAIGHT
    if {a.rank, b.rank} == {1, 7}:
        return TWO_TERMINAL_CHOWS
    return PURE_DOUBLE_CHOW if gap == 0 else None


def _chow_fans(chows: Sequence[TileSet], table: Table) -> None:
    if len(chows) == 4:
        four = _four_chows(*chows)
        if four is not None:
            _add(table, four, *chows)
            return
        for free in (3, 2, 1, 0):
            trio = [c for i, c in enumerate(chows) if i != free]
            three = _three_chows(*trio)
            if three is not None:
                _add(table, three, *trio)
                _extra_chow(trio, chows[free], table)
                return
        pairs = [(a, b) for i, a in enumerate(chows) for b in chows[i + 1 :]]
        related = sum(any(_two_chows(c, o) for o in chows if o is not c) for c in chows)
        _account_once(pairs, related - 1, table)
    elif len(chows) == 3:
        three = _three_chows(*chows)
        if three is not None:
            _add(table, three, *chows)
            return
        a, b, c = chows
        _account_once([(a, b), (a, c), (b, c)], 2, table)
    elif len(chows) == 2:
        _add(table, _two_chows(*chows), *chows)


def _extra_chow(trio: Sequence[TileSet], free: TileSet, table: Table) -> None:
    """The chow left out of a three-chow fan may combine once, with the best partner."""
    found = {_two_chows(other, free): other for other in reversed(trio)}
    for fan in _PAIRWISE_CHOW_FANS:
        if fan in found:
            _add(table, fan, found[fan], free)
            return


def _account_once(pairs: Sequence[tuple[TileSet, TileSet]], limit: int, table: Table) -> None:
    """Keep at most ``limit`` pairwise fans, first trimming repeats, from the last kind back."""
    kept: dict[int, Instances] = {}
    for a, b in pairs:
        fan = _two_chows(a, b)
        if fan is not None:
            kept.setdefault(fan, []).append((a, b))
    total = sum(len(v) for v in kept.values())
    for keep in (1, 0):
        for fan in reversed(_PAIRWISE_CHOW_FANS):
            while total > limit and len(kept.get(fan, ())) > keep:
                kept[fan].pop()
                total -= 1
    for fan in _PAIRWISE_CHOW_FANS:
        if kept.get(fan):
            table[fan] = kept[fan]


def _is_dragon(s: TileSet) -> bool:
    return s.first >= HONOR_BASE + 4


def _is_wind(s: TileSet) -> bool:
    return HONOR_BASE <= s.first < HONOR_BASE + 4


def _four_pungs(a: TileSet, b: TileSet, c: TileSet, d: TileSet) -> int | None:
    if a.suit < 3 and _same_suit(a, b, c, d) and d.first - a.first == 3 and len({a, b, c, d}) == 4:
        return FOUR_PURE_SHIFTED_PUNGS
    if all(_is_wind(s) for s in (a, b, c, d)):
        return BIG_FOUR_WINDS
    return None


def _three_pungs(a: TileSet, b: TileSet, c: TileSet) -> int | None:
    if all(s.suit < 3 for s in (a, b, c)):
        ranks = sorted((a.rank, b.rank, c.rank))
        if len({a.suit, b.suit, c.suit}) == 3:
            if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
                return MIXED_SHIFTED_PUNGS
            return TRIPLE_PUNG if ranks[0] == ranks[2] else None
        if _same_suit(a, b, c) and (b.first - a.first, c.first - b.first) == (1, 1):
            return PURE_SHIFTED_PUNGS
        return None
    if all(_is_wind(s) for s in (a, b, c)):
        return BIG_THREE_WINDS
    if all(_is_dragon(s) for s in (a, b, c)):
        return BIG_THREE_DRAGONS
    return None


def _two_pungs(a: TileSet, b: TileSet) -> int | None:
    if a.suit < 3 and b.suit < 3:
        return DOUBLE_PUNG if a.rank == b.rank else None
    return TWO_DRAGON_PUNGS if _is_dragon(a) and _is_dragon(b) else None


def _pung_fans(pungs: Sequence[TileSet], table: Table) -> None:
    if len(pungs) == 4:
        four = _four_pungs(*pungs)
        if four is not None:
            _add(table, four, *pungs)
            return
    if len(pungs) >= 3:
        for free in range(len(pungs) - 1, -1, -1) if len(pungs) == 4 else (None,):
            trio = [p for i, p in enumerate(pungs) if i != free]
            three = _three_pungs(*trio)
            if three is not None:
                _add(table, three, *trio)
                if free is not None:
                    for other in trio:
                        fan = _two_pungs(other, pungs[free])
                        if fan is not None:
                            _add(table, fan, other, pungs[free])
                            break
                return
    for i, a in enumerate(pungs):
        for b in pungs[i + 1 :]:
            _add(table, _two_pungs(a, b), a, b)


def _kong_fans(pungs: Sequence[TileSet], table: Table) -> None:
    """One kong-series fan, and the concealed-pung fan the concealed sets reach."""
    kongs = [p for p in pungs if p.kind is SetKind.KONG]
    melded = [k for k in kongs if not k.concealed]
    hidden_kongs = [k for k in kongs if k.concealed]
    hidden = [p for p in pungs if p.concealed]
    if len(kongs) == 4:
        _add(table, FOUR_KONGS, *kongs)
    elif len(kongs) == 3:
        _add(table, THREE_KONGS, *kongs)
    elif len(melded) == 2:
        _add(table, TWO_MELDED_KONGS, *melded)
    elif len(hidden_kongs) == 2:
        _add(table, TWO_CONCEALED_KONGS, *hidden_kongs)
    else:
        # One melded and one concealed kong: the 81 fans have no combined fan, both count.
        for k in melded:
            _add(table, MELDED_KONG, k)
        for k in hidden_kongs:
            _add(table, CONCEALED_KONG, k)
    concealed_fan = {2: TWO_CONCEALED_PUNGS, 3: THREE_CONCEALED_PUNGS, 4: FOUR_CONCEALED_PUNGS}
    _add(table, concealed_fan.get(len(hidden)), *hidden)
