"""Target winning hands for the simulator, and the plan that brings one player to it.

Every target is a 4-sets-plus-pair shape worth at least 8 MCR points whatever else happens
(melds claimed or concealed): Pure Straight (16), Mixed Triple Chow (8), Mixed Straight + Dragon
Pung (8 + 2), All Pungs + Dragon Pung (6 + 2), Half Flush + Dragon Pung (6 + 2). Each also scores
under Zung Jung (nine-tile straight, three similar sequences, dragon pung, all pungs, mixed
one-suit). A plan says which tiles the winner is dealt, which arrive by draws, which sets are
claimed from discards, and whether one pung becomes a kong (concealed, exposed on a discard, or
added to a claimed pung).
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.tiles import COPIES_PER_KIND, KINDS, NUMBERED_SUITS, MeldKind, Suit, Tile

DRAGONS = tuple(t for t in KINDS if t.suit is Suit.DRAGON)
HONOURS = tuple(t for t in KINDS if t.is_honor)


@dataclass(frozen=True, slots=True)
class TargetSet:
    kind: MeldKind  # CHOW, PUNG or KONG (a kong's concealment is decided by the plan)
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class TargetHand:
    pattern: str
    sets: tuple[TargetSet, ...]
    pair: Tile

    def tiles(self) -> Counter[Tile]:
        out: Counter[Tile] = Counter({self.pair: 2})
        for s in self.sets:
            out.update(s.tiles)
        return out


class KongMode(enum.Enum):
    CONCEALED = "concealed"  # dealt three, draws the fourth
    EXPOSED = "exposed"  # dealt three, claims the fourth from a discard
    ADDED = "added"  # claims a pung, later draws the fourth


@dataclass(slots=True)
class ClaimPlan:
    """A set the winner completes by claiming ``tile`` from a discard."""

    set_index: int
    verb: MeldKind  # CHOW, PUNG or KONG (exposed)
    tile: Tile
    carrier: int | None = None  # the seat that will discard it (fixed for a chow: upper seat)
    done: bool = False


@dataclass(slots=True)
class WinnerPlan:
    seat: int
    target: TargetHand
    dealt: list[Tile]
    draw_needs: list[Tile]  # tiles to draw, before the win tile
    win_tile: Tile
    win_by_discard: bool
    claims: list[ClaimPlan]
    kong_set: int | None = None
    kong_mode: KongMode | None = None
    added_kong_tile: Tile | None = None  # needs the pung claimed first
    added_kong_drawn: bool = False
    broken: bool = False
    melded_sets: set[int] = field(default_factory=set)


def _chow(suit: Suit, start: int) -> TargetSet:
    return TargetSet(MeldKind.CHOW, tuple(Tile(suit, start + i) for i in range(3)))


def _pung(tile: Tile) -> TargetSet:
    return TargetSet(MeldKind.PUNG, (tile, tile, tile))


def _any_set(rng: random.Random) -> TargetSet:
    if rng.random() < 0.5:
        return _chow(rng.choice(NUMBERED_SUITS), rng.randint(1, 7))
    return _pung(rng.choice(KINDS))


def _pure_straight(rng: random.Random) -> tuple[list[TargetSet], Tile]:
    suit = rng.choice(NUMBERED_SUITS)
    return [_chow(suit, 1), _chow(suit, 4), _chow(suit, 7), _any_set(rng)], rng.choice(KINDS)


def _mixed_triple_chow(rng: random.Random) -> tuple[list[TargetSet], Tile]:
    start = rng.randint(1, 7)
    sets = [_chow(s, start) for s in NUMBERED_SUITS]
    return [*sets, _any_set(rng)], rng.choice(KINDS)


def _mixed_straight(rng: random.Random) -> tuple[list[TargetSet], Tile]:
    suits = list(NUMBERED_SUITS)
    rng.shuffle(suits)
    # the dragon pung also keeps it a scoring hand under Zung Jung, which has no mixed straight
    sets = [_chow(suits[i], 1 + 3 * i) for i in range(3)]
    return [*sets, _pung(rng.choice(DRAGONS))], rng.choice(KINDS)


def _all_pungs_dragon(rng: random.Random) -> tuple[list[TargetSet], Tile]:
    kinds = rng.sample([t for t in KINDS if t.suit is not Suit.DRAGON], 4)
    return [_pung(rng.choice(DRAGONS))] + [_pung(t) for t in kinds[:3]], kinds[3]


def _half_flush_dragon(rng: random.Random) -> tuple[list[TargetSet], Tile]:
    suit = rng.choice(NUMBERED_SUITS)
    sets = [_pung(rng.choice(DRAGONS))]
    for _ in range(3):
        if rng.random() < 0.6:
            sets.append(_chow(suit, rng.randint(1, 7)))
        else:
            sets.append(_pung(rng.choice([Tile(suit, r) for r in range(1, 10)] + list(HONOURS))))
    return sets, rng.choice([Tile(suit, r) for r in range(1, 10)] + list(HONOURS))


PATTERNS: dict[str, Callable[[random.Random], tuple[list[TargetSet], Tile]]] = {
    "pure_straight": _pure_straight,
    "mixed_triple_chow": _mixed_triple_chow,
    "mixed_straight": _mixed_straight,
    "all_pungs_dragon_pung": _all_pungs_dragon,
    "half_flush_dragon_pung": _half_flush_dragon,
}


def choose_target(rng: random.Random) -> TargetHand:
    """A random target of a random pattern, with no kind used more than four times."""
    while True:
        pattern = rng.choice(sorted(PATTERNS))
        sets, pair = PATTERNS[pattern](rng)
        target = TargetHand(pattern, tuple(sets), pair)
        if max(target.tiles().values()) <= COPIES_PER_KIND:
            return target


def plan_winner(rng: random.Random, seat: int, dealer: int) -> WinnerPlan:
    """A target and the way to it: what is dealt, drawn and claimed."""
    target = choose_target(rng)
    sets = list(target.sets)
    kong_set: int | None = None
    kong_mode: KongMode | None = None
    pungs = [i for i, s in enumerate(sets) if s.kind is MeldKind.PUNG]
    if pungs and rng.random() < 0.4:
        kong_set = rng.choice(pungs)
        kong_mode = rng.choice(list(KongMode))
        tile = sets[kong_set].tiles[0]
        if target.tiles()[tile] < COPIES_PER_KIND:
            sets[kong_set] = TargetSet(MeldKind.KONG, (tile,) * 4)
            target = TargetHand(target.pattern, tuple(sets), target.pair)
        else:
            kong_set = kong_mode = None
    claims: list[ClaimPlan] = []
    for i in rng.sample(range(4), 4):
        if len(claims) >= 2 or rng.random() > 0.45:
            continue
        s = sets[i]
        if i == kong_set and kong_mode is KongMode.CONCEALED:
            continue
        if i == kong_set and kong_mode is KongMode.EXPOSED:
            claims.append(ClaimPlan(i, MeldKind.KONG, s.tiles[0]))
        elif s.kind is MeldKind.CHOW:
            claims.append(ClaimPlan(i, MeldKind.CHOW, rng.choice(s.tiles), carrier=(seat + 3) % 4))
        else:
            claims.append(ClaimPlan(i, MeldKind.PUNG, s.tiles[0]))
    if (
        kong_set is not None
        and kong_mode is KongMode.ADDED
        and not any(c.set_index == kong_set for c in claims)
    ):
        claims.append(ClaimPlan(kong_set, MeldKind.PUNG, sets[kong_set].tiles[0]))
    if (
        kong_set is not None
        and kong_mode is KongMode.EXPOSED
        and not any(c.set_index == kong_set for c in claims)
    ):
        claims.append(ClaimPlan(kong_set, MeldKind.KONG, sets[kong_set].tiles[0]))
    held: Counter[Tile] = target.tiles()
    for c in claims:
        held[c.tile] -= 1
    special: list[Tile] = []  # the kong's fourth tile when it must be drawn
    if kong_set is not None and kong_mode in (KongMode.CONCEALED, KongMode.ADDED):
        special.append(sets[kong_set].tiles[0])
        held[sets[kong_set].tiles[0]] -= 1
    claimed_sets = {c.set_index for c in claims}
    free = [
        t for i, s in enumerate(sets) if i not in claimed_sets and i != kong_set for t in s.tiles
    ]
    free += [target.pair, target.pair]
    rng.shuffle(free)
    hand_size = 14 if seat == dealer else 13
    count = min(len(free), max(1, sum(held.values()) - hand_size, rng.randint(2, 4)))
    needs = free[:count]
    for t in needs:
        held[t] -= 1
    win_tile = needs.pop(rng.randrange(len(needs)))
    concealed_kong = kong_mode is KongMode.CONCEALED and bool(special)
    return WinnerPlan(
        seat=seat,
        target=target,
        dealt=list(held.elements()),
        draw_needs=[*special, *needs] if concealed_kong else needs,
        win_tile=win_tile,
        win_by_discard=rng.random() < 0.45,
        claims=claims,
        kong_set=kong_set,
        kong_mode=kong_mode,
        added_kong_tile=special[0] if kong_mode is KongMode.ADDED and special else None,
    )
