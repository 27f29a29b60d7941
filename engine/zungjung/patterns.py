"""The 44 Zung Jung v3.3 patterns as units of the shared evaluator, plus the chicken fallback.

Each predicate has the one signature ``applies(ctx) -> Hit`` over the shared
:class:`~engine.scoring.context.WinContext` (read through :func:`~engine.zungjung.facts.facts`).
Which pattern hides which is declared data (:func:`declared_excludes`): inside a series the higher
variant excludes the lower ones (digest §1.1 rule 2); the irregular hands exclude what they may
not count (§1.2); a listed limit (a pattern worth the limit or more) excludes everything worth no
more than itself, so only the single highest one is scored (§1.1 rule 4). Values come from a
:class:`~engine.zungjung.values.ValueTable`, never from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from engine.scoring.context import WinContext
from engine.scoring.decompose import SetKind
from engine.scoring.evaluator import Found, Hit, Pattern, found
from engine.tiles import NUMBERED_SUITS, Suit
from engine.zungjung.facts import facts
from engine.zungjung.values import CHICKEN, PATTERNS, ValueTable, series_of

_PREDICATES: dict[str, Callable[[WinContext], Hit]] = {}


def _unit(pid: str) -> Callable[[Callable[[WinContext], Hit]], Callable[[WinContext], Hit]]:
    def register(fn: Callable[[WinContext], Hit]) -> Callable[[WinContext], Hit]:
        _PREDICATES[pid] = fn
        return fn

    return register


def _sets_if(flag: bool, ctx: WinContext, kind: str = "all") -> Hit:
    """One instance made of the hand's sets (so overlays can show them), or 0."""
    if not flag:
        return 0
    f = facts(ctx)
    chosen = {"all": f.sets, "chows": f.chows, "triplets": f.triplets}[kind]
    return found(chosen) if chosen else 1


# -- 1 Trivial ---------------------------------------------------------------------------------
_unit("1.1")(lambda ctx: _sets_if(facts(ctx).regular and len(facts(ctx).chows) == 4, ctx))
_unit("1.2")(lambda ctx: facts(ctx).regular and facts(ctx).concealed_hand)
_unit("1.3")(lambda ctx: all(t.is_numbered and 2 <= t.rank <= 8 for t in facts(ctx).tiles))

# -- 2 One suit --------------------------------------------------------------------------------
_unit("2.1.1")(lambda ctx: len(facts(ctx).suits) == 1 and facts(ctx).has_honor)
_unit("2.1.2")(lambda ctx: len(facts(ctx).suits) == 1 and not facts(ctx).has_honor)
_unit("2.2")(lambda ctx: facts(ctx).nine_gates)


# -- 3 Honours ---------------------------------------------------------------------------------
@_unit("3.1")
def value_honor(ctx: WinContext) -> Hit:
    f = facts(ctx)
    sets = [s for s in f.triplets if s.tiles[0].suit is Suit.DRAGON or s.tiles[0] == f.seat_wind]
    return Found(tuple((s,) for s in sets))


def _honors(ctx: WinContext, suit: Suit, triplets: int, pair: bool) -> Hit:
    f = facts(ctx)
    sets = [s for s in f.triplets if s.tiles[0].suit is suit]
    pair_ok = f.pair is not None and f.pair.suit is suit
    if len(sets) < triplets or (pair and not pair_ok):
        return 0
    return found([*sets, *([f.pair_set] if pair and f.pair_set else [])])


_unit("3.2.1")(lambda ctx: _honors(ctx, Suit.DRAGON, 2, pair=True))
_unit("3.2.2")(lambda ctx: _honors(ctx, Suit.DRAGON, 3, pair=False))
_unit("3.3.1")(lambda ctx: _honors(ctx, Suit.WIND, 2, pair=True))
_unit("3.3.2")(lambda ctx: _honors(ctx, Suit.WIND, 3, pair=False))
_unit("3.3.3")(lambda ctx: _honors(ctx, Suit.WIND, 3, pair=True))
_unit("3.3.4")(lambda ctx: _honors(ctx, Suit.WIND, 4, pair=False))
_unit("3.4")(
    lambda ctx: not facts(ctx).thirteen_terminals and all(t.is_honor for t in facts(ctx).tiles)
)

# -- 4 Triplets and kong -----------------------------------------------------------------------
_unit("4.1")(lambda ctx: _sets_if(facts(ctx).regular and len(facts(ctx).triplets) == 4, ctx))


def _concealed_triplets(ctx: WinContext, n: int) -> Hit:
    sets = [s for s in facts(ctx).triplets if s.concealed]
    return found(sets) if len(sets) >= n else 0


def _kongs(ctx: WinContext, n: int) -> Hit:
    sets = [s for s in facts(ctx).sets if s.kind is SetKind.KONG]
    return found(sets) if len(sets) >= n else 0


_unit("4.2.1")(lambda ctx: _concealed_triplets(ctx, 2))
_unit("4.2.2")(lambda ctx: _concealed_triplets(ctx, 3))
_unit("4.2.3")(lambda ctx: _concealed_triplets(ctx, 4))
_unit("4.3.1")(lambda ctx: _kongs(ctx, 1))
_unit("4.3.2")(lambda ctx: _kongs(ctx, 2))
_unit("4.3.3")(lambda ctx: _kongs(ctx, 3))
_unit("4.3.4")(lambda ctx: _kongs(ctx, 4))


# -- 5 Identical sets (only sequences can be identical) ----------------------------------------
def _identical(ctx: WinContext, size: int, groups: int) -> Hit:
    f = facts(ctx)
    chosen = [
        s
        for first, n in f.chow_counts.items()
        if n >= size
        for s in [c for c in f.chows if c.first == first][: size * (n // size)]
    ]
    return found(chosen) if len(chosen) >= size * groups else 0


_unit("5.1.1")(lambda ctx: _identical(ctx, 2, 1))
_unit("5.1.2")(lambda ctx: _identical(ctx, 2, 2))
_unit("5.1.3")(lambda ctx: _identical(ctx, 3, 1))
_unit("5.1.4")(lambda ctx: _identical(ctx, 4, 1))


# -- 6 Similar sets (all three suits present) --------------------------------------------------
def _similar(ctx: WinContext, chows: bool) -> Hit:
    f = facts(ctx)
    ranks = [f.chow_ranks(s) if chows else f.triplet_ranks(s) for s in NUMBERED_SUITS]
    common = ranks[0] & ranks[1] & ranks[2]
    return _sets_if(bool(common), ctx, "chows" if chows else "triplets")


_unit("6.1")(lambda ctx: _similar(ctx, chows=True))
_unit("6.2.2")(lambda ctx: _similar(ctx, chows=False))


@_unit("6.2.1")
def small_three_similar_triplets(ctx: WinContext) -> Hit:
    f = facts(ctx)
    pair = f.pair
    if pair is None or not pair.is_numbered:
        return 0
    return all(pair.rank in f.triplet_ranks(s) for s in NUMBERED_SUITS if s is not pair.suit)


# -- 7 Consecutive sets (one suit) -------------------------------------------------------------
_unit("7.1")(lambda ctx: any({1, 4, 7} <= facts(ctx).chow_ranks(s) for s in NUMBERED_SUITS))


def _triplet_run(ctx: WinContext) -> int:
    f = facts(ctx)
    best = 0
    for suit in NUMBERED_SUITS:
        ranks = f.triplet_ranks(suit)
        for start in ranks:
            length = 0
            while start + length in ranks:
                length += 1
            best = max(best, length)
    return best


_unit("7.2.1")(lambda ctx: _triplet_run(ctx) >= 3)
_unit("7.2.2")(lambda ctx: _triplet_run(ctx) >= 4)


# -- 8 Terminals -------------------------------------------------------------------------------
@_unit("8.1.1")
def mixed_lesser_terminals(ctx: WinContext) -> Hit:
    f = facts(ctx)
    groups = [s.tiles for s in f.sets] + ([(f.pair,)] if f.pair else [])
    return f.regular and all(any(t.is_terminal_or_honor for t in g) for g in groups)


@_unit("8.1.2")
def pure_lesser_terminals(ctx: WinContext) -> Hit:
    f = facts(ctx)
    groups = [s.tiles for s in f.sets] + ([(f.pair,)] if f.pair else [])
    return f.regular and all(any(t.is_terminal for t in g) for g in groups)


@_unit("8.1.3")
def mixed_greater_terminals(ctx: WinContext) -> Hit:
    f = facts(ctx)
    shape_ok = f.seven_pairs or (f.regular and len(f.triplets) == 4)
    return shape_ok and all(t.is_terminal_or_honor for t in f.tiles)


_unit("8.1.4")(lambda ctx: all(t.is_terminal for t in facts(ctx).tiles))

# -- 9 Incidental bonuses ----------------------------------------------------------------------
_unit("9.1.1")(lambda ctx: ctx.last_tile and ctx.self_drawn)
_unit("9.1.2")(lambda ctx: ctx.last_tile and not ctx.self_drawn)
_unit("9.2")(lambda ctx: ctx.kong_replacement and ctx.self_drawn)
_unit("9.3")(lambda ctx: ctx.robbing_kong)
_unit("9.4.1")(lambda ctx: facts(ctx).heaven)
_unit("9.4.2")(lambda ctx: facts(ctx).earth)

# -- 10 Irregular hands ------------------------------------------------------------------------
_unit("10.1")(lambda ctx: facts(ctx).thirteen_terminals)
_unit("10.2")(lambda ctx: facts(ctx).seven_pairs)

#: Seven Pairs cannot count patterns that need sets (digest §1.2); irregular hands never count 1.2.
_SEVEN_PAIRS_BARS = frozenset(
    {"1.1", "1.2", "3.1", "3.2", "3.3", "4.1", "4.2", "4.3", "5.1", "6.1", "6.2", "7.1", "7.2"}
    | {"8.1.1", "8.1.2"}
)


def declared_excludes(table: ValueTable) -> Mapping[str, frozenset[str]]:
    """pattern id -> the ids it hides when it counts, for the values of ``table``."""
    out: dict[str, set[str]] = {pid: set() for pid in PATTERNS}
    lower: dict[str, list[str]] = {}
    for pid in PATTERNS:  # table order lists each series from its lowest variant up
        out[pid].update(lower.setdefault(series_of(pid), []))
        lower[series_of(pid)].append(pid)
    out["10.2"] |= {
        p for p in PATTERNS if p in _SEVEN_PAIRS_BARS or series_of(p) in _SEVEN_PAIRS_BARS
    }
    out["10.1"] |= {"1.2", "8.1.3"}
    for pid in PATTERNS:
        if table.value(pid) >= table.limit:  # a listed limit stands alone
            out[pid] |= {p for p in PATTERNS if p != pid and table.value(p) <= table.value(pid)}
    return MappingProxyType({pid: frozenset(ids) for pid, ids in out.items()})


def build_patterns(table: ValueTable) -> tuple[Pattern, ...]:
    """The 44 units valued by ``table``, in table order, then the chicken-hand fallback."""
    excludes = declared_excludes(table)
    units = tuple(
        Pattern(
            info.id,
            info.name,
            info.chinese,
            table.value(info.id),
            _PREDICATES[info.id],
            excludes=frozenset(excludes[info.id]),
        )
        for info in PATTERNS.values()
    )
    chicken = Pattern(
        CHICKEN.id,
        CHICKEN.name,
        CHICKEN.chinese,
        table.chicken,
        lambda ctx: facts(ctx).regular,
        fallback=True,
    )
    return (*units, chicken)


assert set(_PREDICATES) == set(PATTERNS), set(PATTERNS) ^ set(_PREDICATES)
