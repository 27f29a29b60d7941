"""MCR fans 28-54 (16, 12, 8 and 6 points), as numbered in seed 001."""

from __future__ import annotations

from engine.mcr import combinations as sets
from engine.mcr import shapes
from engine.mcr import traits as t
from engine.scoring.context import WinContext
from engine.scoring.evaluator import Hit, found, pattern


@pattern(28, "Pure Straight", "清龙", 16)
def pure_straight(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.PURE_STRAIGHT))


@pattern(29, "Three-Suited Terminal Chows", "三色双龙会", 16, excludes={63, 70, 72, 76})
def three_suited_terminal_chows(ctx: WinContext) -> Hit:
    return ctx.shape == "standard" and sets.three_suited_terminal_chows(ctx)


@pattern(30, "Pure Shifted Chows", "一色三步高", 16)
def pure_shifted_chows(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.PURE_SHIFTED_CHOWS))


@pattern(31, "All Five", "全带五", 16, excludes={68, 76})
def all_five(ctx: WinContext) -> Hit:
    groups = t.groups(ctx)
    return bool(groups) and all(t.group_has(g, t.FIVES) for g in groups)


@pattern(32, "Triple Pung", "三同刻", 16, excludes={65})
def triple_pung(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.TRIPLE_PUNG))


@pattern(33, "Three Concealed Pungs", "三暗刻", 16, excludes={66})
def three_concealed_pungs(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.THREE_CONCEALED_PUNGS))


@pattern(34, "Lesser Honors and Knitted Tiles", "全不靠", 12, excludes={51, 56, 62})
def lesser_honors_and_knitted_tiles(ctx: WinContext) -> Hit:
    return ctx.shape == shapes.LESSER_HONORS_KNITTED


@pattern(35, "Knitted Straight", "组合龙", 12)
def knitted_straight(ctx: WinContext) -> Hit:
    """Three knitted pieces with a set and a pair, or all nine inside Lesser Honors and Knitted
    Tiles (the reference's reading; the seed is silent)."""
    if ctx.shape == shapes.KNITTED_STRAIGHT:
        return found(ctx.sets[:3])
    numbered = sum(1 for i in ctx.kinds if i < 27)
    return ctx.shape == shapes.LESSER_HONORS_KNITTED and numbered == 9


@pattern(36, "Upper Four", "大于五", 12, excludes={76})
def upper_four(ctx: WinContext) -> Hit:
    ranks = t.ranks(ctx)
    return ranks is not None and ranks <= {6, 7, 8, 9}


@pattern(37, "Lower Four", "小于五", 12, excludes={76})
def lower_four(ctx: WinContext) -> Hit:
    ranks = t.ranks(ctx)
    return ranks is not None and ranks <= {1, 2, 3, 4}


@pattern(38, "Big Three Winds", "三风刻", 12, absorbs={73})
def big_three_winds(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.BIG_THREE_WINDS))


@pattern(39, "Mixed Straight", "花龙", 8)
def mixed_straight(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.MIXED_STRAIGHT))


@pattern(40, "Reversible Tiles", "推不倒", 8, excludes={75})
def reversible_tiles(ctx: WinContext) -> Hit:
    return t.all_tiles_in(ctx, t.REVERSIBLE)


@pattern(41, "Mixed Triple Chow", "三色三同顺", 8, excludes={70})
def mixed_triple_chow(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.MIXED_TRIPLE_CHOW))


@pattern(42, "Mixed Shifted Pungs", "三色三节高", 8)
def mixed_shifted_pungs(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.MIXED_SHIFTED_PUNGS))


@pattern(43, "Chicken Hand", "无番和", 8, fallback=True)
def chicken_hand(ctx: WinContext) -> Hit:
    return True


@pattern(44, "Last Tile Draw", "妙手回春", 8, excludes={80})
def last_tile_draw(ctx: WinContext) -> Hit:
    return ctx.last_tile and ctx.self_drawn


@pattern(45, "Last Tile Claim", "海底捞月", 8)
def last_tile_claim(ctx: WinContext) -> Hit:
    return ctx.last_tile and not ctx.self_drawn


@pattern(46, "Out with Replacement Tile", "杠上开花", 8, excludes={80})
def out_with_replacement_tile(ctx: WinContext) -> Hit:
    return ctx.kong_replacement


@pattern(47, "Robbing The Kong", "抢杠和", 8, excludes={58})
def robbing_the_kong(ctx: WinContext) -> Hit:
    return ctx.robbing_kong


@pattern(48, "All Pungs", "碰碰和", 6)
def all_pungs(ctx: WinContext) -> Hit:
    return ctx.shape == "standard" and len(ctx.pungs) == 4


@pattern(49, "Half Flush", "混一色", 6, excludes={75})
def half_flush(ctx: WinContext) -> Hit:
    return len(t.suits(ctx)) == 1 and t.has_honors(ctx)


@pattern(50, "Mixed Shifted Chows", "三色三步高", 6)
def mixed_shifted_chows(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.MIXED_SHIFTED_CHOWS))


@pattern(51, "All Types", "五门齐", 6)
def all_types(ctx: WinContext) -> Hit:
    kinds = ctx.kinds
    has_wind = any(i in t.WINDS for i in kinds)
    has_dragon = any(i in t.DRAGONS for i in kinds)
    return len(t.suits(ctx)) == 3 and has_wind and has_dragon


@pattern(52, "Melded Hand", "全求人", 6, excludes={79})
def melded_hand(ctx: WinContext) -> Hit:
    """Four exposed sets and the pair completed on a discard."""
    exposed = [m for m in ctx.melds if not m.concealed]
    return len(exposed) == 4 and not ctx.self_drawn


@pattern(53, "Two Concealed Kongs", "双暗杠", 6, excludes={66, 67})
def two_concealed_kongs(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.TWO_CONCEALED_KONGS))


@pattern(54, "Two Dragons Pungs", "双箭刻", 6, excludes={59})
def two_dragons_pungs(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.TWO_DRAGON_PUNGS))


FANS = (
    pure_straight, three_suited_terminal_chows, pure_shifted_chows, all_five, triple_pung,
    three_concealed_pungs, lesser_honors_and_knitted_tiles, knitted_straight, upper_four,
    lower_four, big_three_winds, mixed_straight, reversible_tiles, mixed_triple_chow,
    mixed_shifted_pungs, chicken_hand, last_tile_draw, last_tile_claim,
    out_with_replacement_tile, robbing_the_kong, all_pungs, half_flush, mixed_shifted_chows,
    all_types, melded_hand, two_concealed_kongs, two_dragons_pungs,
)  # fmt: skip
