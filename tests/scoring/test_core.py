"""The shared scoring core: arrangements, the win context and the declarative evaluator."""

from __future__ import annotations

from engine.notation import parse_hand, parse_tile, parse_tiles
from engine.rulesets import WinRequest
from engine.scoring.context import CLOSED, EDGE, SINGLE, WinContext, build_contexts
from engine.scoring.decompose import (
    SEVEN_PAIRS,
    SetKind,
    common_arrangements,
    counts_of,
    has_split,
    meld_set,
    seven_pairs_arrangement,
    standard_arrangements,
    thirteen_orphans_arrangement,
)
from engine.scoring.evaluator import Hit, evaluate, found, pattern


def arrangements(text: str) -> list[list[str]]:
    return sorted(
        sorted(str(s) for s in a.sets)
        for a in standard_arrangements(counts_of(parse_tiles(text)), ())
    )


def test_standard_arrangements_are_complete_and_unique() -> None:
    assert arrangements("111222333m789pEE") == [
        ["111m", "222m", "333m", "789p", "EE"],
        ["123m", "123m", "123m", "789p", "EE"],
    ]
    assert arrangements("1112345678999m") == []  # 13 tiles
    assert len(arrangements("11122233344455m")) == 4
    assert arrangements("12m456p789s345s99m") == []


def test_melds_stay_fixed() -> None:
    hand = parse_hand("123m 456p 55p [789s<1] {EEEE}")
    melds = tuple(meld_set(m) for m in hand.melds)
    found_ = standard_arrangements(counts_of(hand.concealed), melds)
    assert len(found_) == 1
    kinds = [(s.kind, s.declared, s.concealed) for s in found_[0].sets]
    assert kinds[:2] == [(SetKind.CHOW, True, False), (SetKind.KONG, True, True)]


def test_special_shapes() -> None:
    pairs = seven_pairs_arrangement(counts_of(parse_tiles("11223344556666m")), ())
    assert pairs is not None and pairs.shape == SEVEN_PAIRS and len(pairs.sets) == 7
    orphans = thirteen_orphans_arrangement(counts_of(parse_tiles("19m19s19pESWNCFPP")), ())
    assert orphans is not None and str(orphans.sets[0]) == "PP"
    assert thirteen_orphans_arrangement(counts_of(parse_tiles("19m19s19pESWNCFF9m")), ()) is None
    shapes = {a.shape for a in common_arrangements(counts_of(parse_tiles("22334455667788s")), ())}
    assert shapes == {"standard", "seven_pairs"}
    assert has_split(counts_of(parse_tiles("123m")), 1, with_pair=False)
    assert not has_split(counts_of(parse_tiles("124m")), 1, with_pair=False)


def contexts(hand: str, win: str, **flags: bool) -> tuple[WinContext, ...]:
    return build_contexts(
        WinRequest(parse_hand(hand), parse_tile(win), **flags), common_arrangements
    )


def test_waits_and_positions() -> None:
    (edge,) = contexts("12m456p789s345s99m", "3m")
    assert edge.waits == {parse_tile("3m").index} and edge.positions == {EDGE}
    assert [str(s) for s in edge.win_sets] == ["123m"]
    (closed,) = contexts("13m456p789s345s99m", "2m")
    assert closed.positions == {CLOSED} and closed.unique_wait
    (single,) = contexts("123m456p789s345s9m", "9m")
    assert single.positions == {SINGLE}
    two_sided = contexts("23m456p789s345s99m", "4m")[0]
    assert len(two_sided.waits) == 2 and not two_sided.unique_wait


def test_discard_completing_a_pung_makes_it_exposed_unless_a_chow_can_take_it() -> None:
    (ctx,) = contexts("111m456p789s345s9m", "1m".replace("1m", "9m"))
    assert all(p.concealed for p in ctx.pungs)
    shanpon = contexts("11m99p456p789s345s", "1m")[0]
    assert [p.concealed for p in shanpon.pungs] == [False]
    drawn = contexts("11m99p456p789s345s", "1m", self_drawn=True)[0]
    assert [p.concealed for p in drawn.pungs] == [True]
    # 1m can complete the 123m chow instead: the 111m-free reading keeps pungs concealed
    chow_reading = [c for c in contexts("1123m456p789s999s", "1m") if c.chows[0].first == 0]
    assert chow_reading and all(p.concealed for p in chow_reading[0].pungs)


def test_flags_follow_the_definitions() -> None:
    (auto,) = contexts("78p123m456sEE [999p<1]", "9p")
    assert auto.last_of_kind  # the other three are in the winner's own exposed pung
    (held,) = contexts("123m456p789s345s9m", "9m", last_of_kind=True, robbing_kong=True)
    assert not held.last_of_kind and not held.robbing_kong
    (supplement,) = contexts("22mWW [678m<3] [234p<3] [7777s<1]", "2m", kong_replacement=True)
    assert supplement.self_drawn and supplement.kong_replacement


@pattern(1, "Big", "大", 10, excludes={3})
def big(ctx: WinContext) -> Hit:
    return len(ctx.chows) >= 3


@pattern(2, "Per chow", "顺", 2, absorbs={4})
def per_chow(ctx: WinContext) -> Hit:
    return found(*([c] for c in ctx.chows[:1]))


@pattern(3, "Excluded", "排", 5)
def excluded(ctx: WinContext) -> Hit:
    return True


@pattern(4, "Each chow", "每", 1, reduces={})
def each_chow(ctx: WinContext) -> Hit:
    return found(*([c] for c in ctx.chows))


@pattern(5, "Fallback", "无", 8, fallback=True)
def fallback(ctx: WinContext) -> Hit:
    return True


@pattern(6, "Bonus", "花", 1, bonus=True)
def bonus(ctx: WinContext) -> Hit:
    return ctx.flowers


@pattern(7, "Reducer", "减", 3, reduces={4: 1})
def reducer(ctx: WinContext) -> Hit:
    return ctx.shape == SEVEN_PAIRS or len(ctx.chows) == 4


def test_evaluator_applies_declared_exclusions() -> None:
    patterns = [big, per_chow, excluded, each_chow, fallback, bonus, reducer]
    hand = WinRequest(parse_hand("123m456p789s345s9m"), parse_tile("9m"), flowers=2)
    best = evaluate(patterns, build_contexts(hand, common_arrangements))
    assert best is not None
    got = {f.id: f.count for f in best.fans}
    # Excluded: removed by Big. Each chow (4): Reducer (3 points, applied before Per chow)
    # drops its first instance, 123m, which is the one Per chow would have absorbed.
    assert got == {1: 1, 2: 1, 4: 3, 6: 2, 7: 1}
    assert best.total == 10 + 2 + 3 + 2 + 3 and best.bonus == 2 and best.base == 18
    assert best.fans[1].tiles == (tuple(parse_tiles("123m")),)


def test_fallback_only_when_nothing_else_counts_and_bonus_does_not_block_it() -> None:
    hand = WinRequest(parse_hand("111m999p555sEEE9s"), parse_tile("9s"), flowers=1)
    best = evaluate([big, fallback, bonus], build_contexts(hand, common_arrangements))
    assert best is not None
    assert [(f.id, f.count) for f in best.fans] == [(5, 1), (6, 1)]


def test_highest_arrangement_wins() -> None:
    @pattern("p", "Pungs", "刻", 3)
    def pungs(ctx: WinContext) -> Hit:
        return len(ctx.pungs)

    hand = WinRequest(parse_hand("111222333m789pE"), parse_tile("E"))
    best = evaluate([pungs], build_contexts(hand, common_arrangements))
    assert best is not None and best.total == 9
