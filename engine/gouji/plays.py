"""Plays, beating and 够级 (digest §5, §6): the core / attached 2s / attached jokers model.

A play is one or more cards of one natural rank (the *core*) to which 2s and jokers may be
attached as wild members; a play of 2s (with jokers) has a core of 2s, a play of jokers only a
core of its lowest joker. A new play beats the current one when it has as many cards, a strictly
higher core, and every joker attached to the current play is covered, highest first, by an equal
or higher joker of the new play (its core jokers count when its core is jokers). Attached 2s only
fill the count.

>>> five_sevens = shape_of(parse_cards("2 7 7 7 7"))
>>> beats(shape_of(parse_cards("8 8 8 8 8")), five_sevens)
True
>>> is_gouji(shape_of(parse_cards("2 2 Q Q Q")), GoujiOptions())
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.gouji.cards import Card, Rank
from engine.gouji.notation import RANK_SYMBOLS, parse_cards
from engine.gouji.options import GoujiOptions
from engine.gouji.violations import GoujiViolation
from engine.gouji.violations import GoujiViolationKind as Kind

__all__ = ["PlayShape", "beat_problem", "beats", "is_gouji", "parse_cards", "shape_of"]


@dataclass(frozen=True, slots=True)
class PlayShape:
    """What counts in a play: its core rank and count, attached 2s and jokers (highest first)."""

    core: Rank
    core_count: int
    twos: int = 0
    jokers: tuple[Rank, ...] = ()

    @property
    def size(self) -> int:
        return self.core_count + self.twos + len(self.jokers)

    @property
    def covering_jokers(self) -> tuple[Rank, ...]:
        """Jokers that cover the current play's attached jokers, highest first."""
        core = (self.core,) * self.core_count if self.core.is_joker else ()
        return tuple(sorted(self.jokers + core, reverse=True))

    @property
    def has_wilds_attached(self) -> bool:
        return self.twos > 0 or bool(self.jokers)

    def __str__(self) -> str:
        parts = [RANK_SYMBOLS[self.core]] * self.core_count + ["2"] * self.twos
        return " ".join(parts + [RANK_SYMBOLS[j] for j in self.jokers])


def shape_of(cards: Sequence[Card]) -> PlayShape | GoujiViolation:
    """The shape of a play, or the violation that makes it no play at all."""
    if not cards:
        return GoujiViolation.of(Kind.EMPTY_PLAY, None, "a play needs at least one card")
    counts = Counter(card.rank for card in cards)
    naturals = sorted(rank for rank in counts if rank.is_natural)
    if len(naturals) > 1:
        ranks = " ".join(RANK_SYMBOLS[r] for r in naturals)
        return GoujiViolation.of(
            Kind.MIXED_RANKS, None, f"cards of ranks {ranks} in one play (only 2s and jokers mix)"
        )
    small, big = counts[Rank.SMALL_JOKER], counts[Rank.BIG_JOKER]
    if naturals:
        core, attached_twos, jokers = naturals[0], counts[Rank.TWO], (big, small)
    elif counts[Rank.TWO]:
        core, attached_twos, jokers = Rank.TWO, 0, (big, small)
    elif small:
        core, attached_twos, jokers = Rank.SMALL_JOKER, 0, (big, 0)
    else:
        core, attached_twos, jokers = Rank.BIG_JOKER, 0, (0, 0)
    attached = (Rank.BIG_JOKER,) * jokers[0] + (Rank.SMALL_JOKER,) * jokers[1]
    return PlayShape(core, counts[core], attached_twos, attached)


def beat_problem(new: PlayShape, current: PlayShape) -> GoujiViolation | None:
    """Why ``new`` does not beat ``current`` (None when it does)."""
    if new.size != current.size:
        return GoujiViolation.of(
            Kind.WRONG_COUNT, None, f"{new.size} cards against {current.size}: {new} on {current}"
        )
    if new.core <= current.core:
        return GoujiViolation.of(
            Kind.NOT_HIGHER,
            None,
            f"core {RANK_SYMBOLS[new.core]} does not top "
            f"{RANK_SYMBOLS[current.core]}: {new} on {current}",
        )
    cover = new.covering_jokers
    needed = current.jokers
    if len(cover) < len(needed) or any(c < n for c, n in zip(cover, needed, strict=False)):
        return GoujiViolation.of(
            Kind.JOKERS_NOT_COVERED, None, f"the jokers of {current} are not covered by {new}"
        )
    return None


def beats(new: PlayShape, current: PlayShape) -> bool:
    """Whether ``new`` may be laid on ``current`` (a strict order on plays of one size)."""
    return beat_problem(new, current) is None


def is_gouji(shape: PlayShape, options: GoujiOptions) -> bool:
    """A 够级 play (§6): the core rank reaches its minimum count, attached 2s and jokers
    included; with ``joker_attached_is_gouji`` any play with a joker attached."""
    if options.joker_attached_is_gouji and shape.jokers:
        return True
    minimum = options.gouji_minimum(shape.core)
    return minimum is not None and shape.size >= minimum


def rank_rule_problem(
    shape: PlayShape, hand: Sequence[Card] | None, options: GoujiOptions
) -> GoujiViolation | None:
    """憋三 / 买四 (§14): 3s (and with 买四 4s) are played whole and bare; 3s go out last.

    ``hand`` is the player's cards before the play; without it only the bare rule is checked.
    """
    if not options.bie_san:
        return None
    for rank, kind, name in (
        (Rank.THREE, Kind.THREES_RULE, "3s"),
        (Rank.FOUR, Kind.FOURS_RULE, "4s"),
    ):
        if shape.core is not rank or (rank is Rank.FOUR and not options.buy_fours):
            continue
        if shape.has_wilds_attached:
            return GoujiViolation.of(kind, None, f"{name} may not take 2s or jokers: {shape}")
        if hand is None:
            return None
        held = sum(1 for card in hand if card.rank is rank)
        if shape.core_count != held:
            return GoujiViolation.of(
                kind, None, f"{name} may not be split: {shape.core_count} of {held} played"
            )
        if rank is Rank.THREE and len(hand) != held:
            return GoujiViolation.of(kind, None, "3s must be the last cards played (憋三)")
    return None
