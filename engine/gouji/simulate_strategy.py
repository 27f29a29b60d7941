"""The simulator's players: simple, deterministic given the random generator, always legal.

A leader plays all his cards of his lowest rank (never his 3s under 憋三 until only they are
left). An answerer plays the cheapest play that beats the current one — the lowest core, as few
wild cards as possible — never against an ally, and sometimes keeps his wilds back.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.gouji.cards import NATURAL_RANKS, Card, Rank, sort_cards
from engine.gouji.options import GoujiOptions
from engine.gouji.plays import PlayShape, beats, rank_rule_problem, shape_of

_WILD_ORDER = (Rank.TWO, Rank.SMALL_JOKER, Rank.BIG_JOKER)


def _of_rank(hand: Sequence[Card], rank: Rank) -> list[Card]:
    return [card for card in sort_cards(hand) if card.rank is rank]


def choose_lead(hand: Sequence[Card], options: GoujiOptions) -> tuple[Card, ...]:
    """All cards of the lowest rank held (3s last under 憋三)."""
    ranks = sorted({card.rank for card in hand})
    if options.bie_san and len(ranks) > 1 and Rank.THREE in ranks:
        ranks.remove(Rank.THREE)
    return tuple(_of_rank(hand, ranks[0]))


def _legal(
    cards: list[Card], current: PlayShape, hand: Sequence[Card], options: GoujiOptions
) -> bool:
    shape = shape_of(cards)
    return (
        isinstance(shape, PlayShape)
        and beats(shape, current)
        and rank_rule_problem(shape, hand, options) is None
    )


def _cover(jokers: list[Card], needed: Sequence[Rank]) -> list[Card] | None:
    """The cheapest jokers that cover ``needed`` (highest first), or None."""
    pool = sorted(jokers, key=lambda c: c.rank)
    chosen: list[Card] = []
    for need in needed:
        match = next((c for c in pool if c.rank >= need), None)
        if match is None:
            return None
        pool.remove(match)
        chosen.append(match)
    return chosen


def _natural_candidate(hand: Sequence[Card], core: Rank, current: PlayShape) -> list[Card] | None:
    size = current.size
    jokers = [c for c in hand if c.rank.is_joker]
    cover = _cover(jokers, current.jokers)
    if cover is None:
        return None
    naturals = _of_rank(hand, core)[: size - len(cover)]
    if not naturals:
        return None
    used = set(map(id, cover))
    spare = [c for c in hand if c.rank.is_wild and id(c) not in used]
    spare.sort(key=lambda c: _WILD_ORDER.index(c.rank))
    fill = spare[: size - len(cover) - len(naturals)]
    play = naturals + cover + fill
    return play if len(play) == size else None


def _wild_candidates(hand: Sequence[Card], current: PlayShape) -> list[list[Card]]:
    size = current.size
    twos, small, big = (_of_rank(hand, rank) for rank in _WILD_ORDER)
    candidates: list[list[Card]] = []
    cover = _cover(small + big, current.jokers)
    if twos and cover is not None:
        used = set(map(id, cover))
        rest = [c for c in small + big if id(c) not in used]
        base = twos[: size - len(cover)]
        candidates.append(base + cover + rest[: size - len(cover) - len(base)])
    for n_small in range(min(size, len(small)), -1, -1):
        if size - n_small <= len(big):
            candidates.append(small[:n_small] + big[: size - n_small])
    return candidates


def choose_answer(
    hand: Sequence[Card],
    current: PlayShape,
    options: GoujiOptions,
    rng: random.Random,
    *,
    keep_wilds: float = 0.4,
) -> tuple[Card, ...] | None:
    """The cheapest legal play on ``current``, or None to pass."""
    candidates: list[list[Card]] = []
    for core in NATURAL_RANKS:
        if core > current.core:
            play = _natural_candidate(hand, core, current)
            if play is not None:
                candidates.append(play)
    candidates += _wild_candidates(hand, current)
    legal = [play for play in candidates if _legal(play, current, hand, options)]
    if not legal:
        return None
    play = min(legal, key=lambda p: (sum(c.rank.is_wild for c in p), max(c.rank for c in p)))
    wilds = sum(card.rank.is_wild for card in play)
    if wilds and len(play) < len(hand) and (wilds >= 3 or rng.random() < keep_wilds):
        return None
    return tuple(play)
