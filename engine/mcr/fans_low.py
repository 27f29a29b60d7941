"""MCR fans 55-81 (4, 2 and 1 points, and the flowers), as numbered in seed 001."""

from __future__ import annotations

from engine.mcr import combinations as sets
from engine.mcr import shapes
from engine.mcr import traits as t
from engine.scoring.context import CLOSED, EDGE, SINGLE, WinContext
from engine.scoring.decompose import SetKind
from engine.scoring.evaluator import Hit, found, pattern


@pattern(55, "Outside Hand", "全带幺", 4)
def outside_hand(ctx: WinContext) -> Hit:
    groups = t.groups(ctx)
    return bool(groups) and all(t.group_has(g, t.TERMINALS_AND_HONORS) for g in groups)


@pattern(56, "Fully Concealed Hand", "不求人", 4, excludes={80})
def fully_concealed_hand(ctx: WinContext) -> Hit:
    return ctx.fully_concealed and ctx.self_drawn


@pattern(57, "Two Melded Kongs", "双明杠", 4, excludes={74})
def two_melded_kongs(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.TWO_MELDED_KONGS))


@pattern(58, "Last Tile", "和绝张", 4)
def last_tile(ctx: WinContext) -> Hit:
    return ctx.last_of_kind


@pattern(59, "Dragon Pung", "箭刻", 2)
def dragon_pung(ctx: WinContext) -> Hit:
    return found(*([p] for p in t.dragon_pungs(ctx)))


@pattern(60, "Prevalent Wind", "圈风刻", 2, absorbs={73})
def prevalent_wind(ctx: WinContext) -> Hit:
    wind = 27 + int(ctx.prevalent_wind)
    return found(*([p] for p in ctx.pungs if p.first == wind))


@pattern(61, "Seat Wind", "门风刻", 2, absorbs={73})
def seat_wind(ctx: WinContext) -> Hit:
    wind = 27 + int(ctx.seat_wind)
    return found(*([p] for p in ctx.pungs if p.first == wind))


@pattern(62, "Concealed Hand", "门前清", 2)
def concealed_hand(ctx: WinContext) -> Hit:
    return ctx.fully_concealed and not ctx.self_drawn


@pattern(63, "All Chows", "平和", 2, excludes={76})
def all_chows(ctx: WinContext) -> Hit:
    """Four chows (a knitted straight counts as three) and a pair of numbered tiles."""
    pair = ctx.pair
    if pair is None or pair.suit > 2 or ctx.shape not in ("standard", shapes.KNITTED_STRAIGHT):
        return False
    return all(s.kind is SetKind.CHOW for s in t.non_knitted_sets(ctx))


@pattern(64, "Tile Hog", "四归一", 2)
def tile_hog(ctx: WinContext) -> Hit:
    """Each kind whose four tiles are all in the hand without being a kong."""
    kongs = {k.first for k in ctx.kongs}
    hogs = [i for i in ctx.kinds if ctx.counts[i] == 4 and i not in kongs]
    return found(*([s for s in ctx.sets if i in s.indices] for i in hogs))


@pattern(65, "Double Pung", "双同刻", 2)
def double_pung(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.DOUBLE_PUNG))


@pattern(66, "Two Concealed Pungs", "双暗刻", 2)
def two_concealed_pungs(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.TWO_CONCEALED_PUNGS))


@pattern(67, "Concealed Kong", "暗杠", 2)
def concealed_kong(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.CONCEALED_KONG))


@pattern(68, "All Simples", "断幺", 2, excludes={76})
def all_simples(ctx: WinContext) -> Hit:
    return not any(t.is_terminal_or_honor(i) for i in ctx.kinds)


@pattern(69, "Pure Double Chow", "一般高", 1)
def pure_double_chow(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.PURE_DOUBLE_CHOW))


@pattern(70, "Mixed Double Chow", "喜相逢", 1)
def mixed_double_chow(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.MIXED_DOUBLE_CHOW))


@pattern(71, "Short Straight", "连六", 1)
def short_straight(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.SHORT_STRAIGHT))


@pattern(72, "Two Terminal Chows", "老少副", 1)
def two_terminal_chows(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.TWO_TERMINAL_CHOWS))


@pattern(73, "Pung of Terminals or Honors", "幺九刻", 1)
def pung_of_terminals_or_honors(ctx: WinContext) -> Hit:
    """Per pung of 1s, 9s or winds (a dragon pung scores Dragon Pung instead)."""
    return found(*([p] for p in ctx.pungs if p.first in t.TERMINALS or p.first in t.WINDS))


@pattern(74, "Melded Kong", "明杠", 1)
def melded_kong(ctx: WinContext) -> Hit:
    return found(*sets.count(ctx, sets.MELDED_KONG))


@pattern(75, "One Voided Suit", "缺一门", 1)
def one_voided_suit(ctx: WinContext) -> Hit:
    return len(t.suits(ctx)) == 2


@pattern(76, "No Honors", "无字", 1)
def no_honors(ctx: WinContext) -> Hit:
    return not t.has_honors(ctx)


def _wait(ctx: WinContext, kind: str) -> Hit:
    """Edge, closed or single wait (in that order of preference) - only when the hand waited on
    this one tile; the set the winning tile completed is the evidence."""
    wait = next((w for w in (EDGE, CLOSED, SINGLE) if w in ctx.positions), None)
    if wait != kind or not ctx.unique_wait:
        return False
    win = ctx.win_tile
    for s in ctx.sets:
        if s.declared or win not in s.indices:
            continue
        middle = s.kind is SetKind.CHOW and win == s.first + 1
        if (kind == EDGE and s.kind is SetKind.CHOW and not middle) or (
            (kind == CLOSED and middle) or (kind == SINGLE and s.kind is SetKind.PAIR)
        ):
            return found([s])
    return True


@pattern(77, "Edge Wait", "独听・边张", 1)
def edge_wait(ctx: WinContext) -> Hit:
    return _wait(ctx, EDGE)


@pattern(78, "Closed Wait", "独听・嵌张", 1)
def closed_wait(ctx: WinContext) -> Hit:
    return _wait(ctx, CLOSED)


@pattern(79, "Single Wait", "独听・单钓", 1)
def single_wait(ctx: WinContext) -> Hit:
    return _wait(ctx, SINGLE)


@pattern(80, "Self-Drawn", "自摸", 1)
def self_drawn(ctx: WinContext) -> Hit:
    return ctx.self_drawn


@pattern(81, "Flower Tiles", "花牌", 1, bonus=True)
def flower_tiles(ctx: WinContext) -> Hit:
    return ctx.flowers


FANS = (
    outside_hand, fully_concealed_hand, two_melded_kongs, last_tile, dragon_pung, prevalent_wind,
    seat_wind, concealed_hand, all_chows, tile_hog, double_pung, two_concealed_pungs,
    concealed_kong, all_simples, pure_double_chow, mixed_double_chow, short_straight,
    two_terminal_chows, pung_of_terminals_or_honors, melded_kong, one_voided_suit, no_honors,
    edge_wait, closed_wait, single_wait, self_drawn, flower_tiles,
)  # fmt: skip
