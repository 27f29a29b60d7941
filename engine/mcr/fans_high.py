"""MCR fans 1-27 (88, 64, 48, 32 and 24 points), as numbered in seed 001.

Names are PyMahjongGB's (English and Chinese), so records and overlays match the reference.
``excludes`` holds the seed's 不计 list plus the fans each one necessarily implies (principle 1).
"""

from __future__ import annotations

from engine.mcr import combinations as sets
from engine.mcr import shapes
from engine.mcr import traits as t
from engine.scoring.context import WinContext
from engine.scoring.decompose import SEVEN_PAIRS, SetKind
from engine.scoring.evaluator import Hit, found, pattern


@pattern(1, "Big Four Winds", "大四喜", 88, excludes={38, 48, 60, 61, 73})
def big_four_winds(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.BIG_FOUR_WINDS))


@pattern(2, "Big Three Dragons", "大三元", 88, excludes={54, 59})
def big_three_dragons(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.BIG_THREE_DRAGONS))


@pattern(3, "All Green", "绿一色", 88, excludes={49, 75})
def all_green(ctx: WinContext) -> Hit:
    return t.all_tiles_in(ctx, t.GREEN)


@pattern(4, "Nine Gates", "九莲宝灯", 88, excludes={22, 56, 62, 75, 76}, reduces={73: 1})
def nine_gates(ctx: WinContext) -> Hit:
    """1112345678999 of one suit concealed before the win (any winning tile of that suit)."""
    if ctx.melds or ctx.shape != "standard":
        return False
    before = list(ctx.concealed)
    before[ctx.win_tile] -= 1
    return any(before[base : base + 9] == [3, 1, 1, 1, 1, 1, 1, 1, 3] for base in (0, 9, 18))


@pattern(5, "Four Kongs", "四杠", 88, excludes={17, 48, 53, 57, 67, 74, 79})
def four_kongs(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.FOUR_KONGS))


@pattern(6, "Seven Shifted Pairs", "连七对", 88, excludes={19, 22, 56, 62, 75, 76, 79})
def seven_shifted_pairs(ctx: WinContext) -> Hit:
    if ctx.shape != SEVEN_PAIRS:
        return False
    firsts = [p.first for p in ctx.pairs]
    low = firsts[0]
    return low < 27 and low % 9 <= 2 and firsts == list(range(low, low + 7))


@pattern(7, "Thirteen Orphans", "十三幺", 88, excludes={18, 51, 56, 62, 79})
def thirteen_orphans(ctx: WinContext) -> Hit:
    return ctx.shape == "thirteen_orphans"


@pattern(8, "All Terminals", "清幺九", 64, excludes={18, 48, 55, 65, 73, 76})
def all_terminals(ctx: WinContext) -> Hit:
    return t.all_tiles_in(ctx, t.TERMINALS)


@pattern(9, "Little Four Winds", "小四喜", 64, excludes={38, 73})
def little_four_winds(ctx: WinContext) -> Hit:
    pair = ctx.pair
    winds = sets.count(ctx, sets.BIG_THREE_WINDS)
    if pair is None or not winds or pair.first not in t.WINDS:
        return False
    return found((*winds[0], pair))


@pattern(10, "Little Three Dragons", "小三元", 64, excludes={54, 59})
def little_three_dragons(ctx: WinContext) -> Hit:
    pair = ctx.pair
    dragons = sets.count(ctx, sets.TWO_DRAGON_PUNGS)
    if pair is None or not dragons or pair.first not in t.DRAGONS:
        return False
    return found((*dragons[0], pair))


@pattern(11, "All Honors", "字一色", 64, excludes={18, 48, 55, 73, 75})
def all_honors(ctx: WinContext) -> Hit:
    return ctx.shape in ("standard", SEVEN_PAIRS) and all(i >= 27 for i in ctx.kinds)


@pattern(12, "Four Concealed Pungs", "四暗刻", 64, excludes={33, 48, 56, 62, 66})
def four_concealed_pungs(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.FOUR_CONCEALED_PUNGS))


@pattern(13, "Pure Terminal Chows", "一色双龙会", 64, excludes={19, 22, 63, 69, 72, 75, 76})
def pure_terminal_chows(ctx: WinContext) -> Hit:
    return ctx.shape == "standard" and sets.pure_terminal_chows(ctx)


@pattern(14, "Quadruple Chow", "一色四同顺", 48, excludes={23, 24, 64, 69})
def quadruple_chow(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.QUADRUPLE_CHOW))


@pattern(15, "Four Pure Shifted Pungs", "一色四节高", 48, excludes={23, 24, 48})
def four_pure_shifted_pungs(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.FOUR_PURE_SHIFTED_PUNGS))


@pattern(16, "Four Pure Shifted Chows", "一色四步高", 32, excludes={30, 71, 72})
def four_pure_shifted_chows(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.FOUR_PURE_SHIFTED_CHOWS))


@pattern(17, "Three Kongs", "三杠", 32, excludes={53, 57, 67, 74})
def three_kongs(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.THREE_KONGS))


@pattern(18, "All Terminals and Honors", "混幺九", 32, excludes={48, 55, 73})
def all_terminals_and_honors(ctx: WinContext) -> Hit:
    return all(t.is_terminal_or_honor(i) for i in ctx.kinds)


@pattern(19, "Seven Pairs", "七对", 24, excludes={56, 62, 79})
def seven_pairs(ctx: WinContext) -> Hit:
    return ctx.shape == SEVEN_PAIRS


@pattern(20, "Greater Honors and Knitted Tiles", "七星不靠", 24, excludes={34, 51, 56, 62})
def greater_honors_and_knitted_tiles(ctx: WinContext) -> Hit:
    return ctx.shape == shapes.GREATER_HONORS_KNITTED


@pattern(21, "All Even Pungs", "全双刻", 24, excludes={48, 68, 76})
def all_even_pungs(ctx: WinContext) -> Hit:
    groups = t.groups(ctx)
    return bool(groups) and all(
        g.kind is not SetKind.CHOW and g.suit < 3 and g.rank % 2 == 0 for g in groups
    )


@pattern(22, "Full Flush", "清一色", 24, excludes={75, 76})
def full_flush(ctx: WinContext) -> Hit:
    return len(t.suits(ctx)) == 1 and not t.has_honors(ctx)


@pattern(23, "Pure Triple Chow", "一色三同顺", 24, excludes={24, 69})
def pure_triple_chow(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.PURE_TRIPLE_CHOW))


@pattern(24, "Pure Shifted Pungs", "一色三节高", 24, excludes={23})
def pure_shifted_pungs(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.PURE_SHIFTED_PUNGS))


@pattern(25, "Upper Tiles", "全大", 24, excludes={36, 76})
def upper_tiles(ctx: WinContext) -> Hit:
    ranks = t.ranks(ctx)
    return ranks is not None and ranks <= {7, 8, 9}


@pattern(26, "Middle Tiles", "全中", 24, excludes={68, 76})
def middle_tiles(ctx: WinContext) -> Hit:
    ranks = t.ranks(ctx)
    return ranks is not None and ranks <= {4, 5, 6}


@pattern(27, "Lower Tiles", "全小", 24, excludes={37, 76})
def lower_tiles(ctx: WinContext) -> Hit:
    ranks = t.ranks(ctx)
    return ranks is not None and ranks <= {1, 2, 3}


FANS = (
    big_four_winds, big_three_dragons, all_green, nine_gates, four_kongs, seven_shifted_pairs,
    thirteen_orphans, all_terminals, little_four_winds, little_three_dragons, all_honors,
    four_concealed_pungs, pure_terminal_chows, quadruple_chow, four_pure_shifted_pungs,
    four_pure_shifted_chows, three_kongs, all_terminals_and_honors, seven_pairs,
    greater_honors_and_knitted_tiles, all_even_pungs, full_flush, pure_triple_chow,
    pure_shifted_pungs, upper_tiles, middle_tiles, lower_tiles,
)  # fmt: skip
