"""Qujing hand types and payments as data and pure functions (digest §5-§7).

A hand with ``n >= 1`` fans is worth ``3 * 2**(n-1)`` from each opponent when self-drawn and
``4 * 2**(n-1)`` from the discarder alone on a discard; a plain win (0 fans) is self-draw only and
worth 1 from each opponent. Settlement never depends on anything but these numbers, so the
worked examples of seed 002 are checked directly against :func:`payments_for`.

>>> payments_for(2, self_drawn=False).discarder  # one colour + all pungs on a discard
8
>>> payments_for(3, self_drawn=True).each_other  # ... + kong bloom, self-drawn
12
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rulesets import Payments, ScoreResult

SEATS = 4


@dataclass(frozen=True, slots=True)
class HandType:
    """One Qujing hand type: a stable id, its names and how many fans it adds."""

    id: str
    name: str
    chinese: str
    fans: int
    definition: str


PLAIN_WIN = HandType(
    "plain-win", "Plain Win", "平胡", 0, "a winning hand with no fan; self-draw only"
)
ALL_PUNGS = HandType("all-pungs", "All Pungs", "碰碰胡", 1, "four pungs or kongs and a pair")
ONE_COLOUR = HandType(
    "one-colour", "One Colour", "清一色", 1, "every tile of one colour (万, 条, 筒 or honours)"
)
SMALL_SEVEN_PAIRS = HandType(
    "small-seven-pairs", "Small Seven Pairs", "小七对", 1, "seven pairs, no pung or kong made"
)
TEN_WINDS = HandType(
    "ten-winds",
    "Ten Old Heads / Ten Winds",
    "十老头/十风",
    1,
    "the player's first ten discards are honours (repeats allowed), no pung or kong made",
)
SEVEN_WINDS = HandType(
    "seven-winds",
    "Seven Winds",
    "七风",
    1,
    "the player's first seven discards are seven different honours, no pung or kong made",
)
KONG_BLOOM = HandType(
    "kong-bloom", "Kong Bloom", "杠上花", 1, "winning on one's own kong replacement tile"
)
KONG_DISCARD = HandType(
    "kong-discard",
    "Kong Discard",
    "杠上炮",
    1,
    "winning on the discard a konger makes after his replacement draw",
)
ROBBING_THE_KONG = HandType(
    "robbing-the-kong",
    "Robbing the Kong",
    "抢杠胡",
    1,
    "winning on the tile another player adds to his pung",
)
DRAGON_SEVEN_PAIRS = HandType(
    "dragon-seven-pairs",
    "Dragon Seven Pairs",
    "龙七对",
    2,
    "seven pairs with four identical tiles among them; replaces small seven pairs",
)

#: Every hand type in the order of the seed's table.
HAND_TYPES: tuple[HandType, ...] = (
    PLAIN_WIN,
    ALL_PUNGS,
    ONE_COLOUR,
    SMALL_SEVEN_PAIRS,
    TEN_WINDS,
    SEVEN_WINDS,
    KONG_BLOOM,
    KONG_DISCARD,
    ROBBING_THE_KONG,
    DRAGON_SEVEN_PAIRS,
)
HAND_TYPES_BY_ID: dict[str, HandType] = {h.id: h for h in HAND_TYPES}


def hand_value(fans: int, *, self_drawn: bool) -> int:
    """What one payer owes for ``fans`` fans (the seed's 3 x 2 x 2 ... / 4 x 2 x 2 ...)."""
    if fans < 0:
        raise ValueError(f"a hand cannot have {fans!r} fans")
    if fans == 0:
        if not self_drawn:
            raise ValueError("a plain win (0 fans) may only be self-drawn")
        return 1
    return (3 if self_drawn else 4) << (fans - 1)


def payments_for(fans: int, *, self_drawn: bool) -> Payments:
    """Payments in the shared shape: self-drawn, each opponent pays; else the discarder alone."""
    value = hand_value(fans, self_drawn=self_drawn)
    if self_drawn:
        return Payments(each_other=value)
    return Payments(each_other=0, discarder=value)


def settle_payments(
    payments: Payments, *, winner: int, discarder: int | None
) -> tuple[int, int, int, int]:
    """Score changes for seats 0-3 (summing to zero) for one winner."""
    _check_seat(winner, "winner")
    changes = [0] * SEATS
    if payments.discarder is None:
        for seat in range(SEATS):
            if seat != winner:
                changes[seat] -= payments.each_other
                changes[winner] += payments.each_other
        return _four(changes)
    if discarder is None:
        raise ValueError("a win paid by the discarder needs the discarder's seat")
    _check_seat(discarder, "discarder")
    if discarder == winner:
        raise ValueError(f"seat {winner} cannot win on its own discard")
    changes[discarder] -= payments.discarder
    changes[winner] += payments.discarder
    return _four(changes)


def settle_many(
    results: list[tuple[int, ScoreResult]], *, discarder: int | None
) -> tuple[int, int, int, int]:
    """Several winners on one discard (一炮多响): the discarder pays each by his own hand."""
    total = [0] * SEATS
    for winner, result in results:
        if not result.valid or result.payments is None:
            continue
        for seat, change in enumerate(
            settle_payments(result.payments, winner=winner, discarder=discarder)
        ):
            total[seat] += change
    return _four(total)


def kong_payment(
    amount_from_discarder: int, amount_from_each: int, *, konger: int, discarder: int | None
) -> tuple[int, int, int, int]:
    """Score changes for a kong: a claimed kong's discarder pays, otherwise each other seat."""
    _check_seat(konger, "konger")
    changes = [0] * SEATS
    if discarder is not None:
        _check_seat(discarder, "discarder")
        changes[discarder] -= amount_from_discarder
        changes[konger] += amount_from_discarder
    else:
        for seat in range(SEATS):
            if seat != konger:
                changes[seat] -= amount_from_each
                changes[konger] += amount_from_each
    return _four(changes)


def _check_seat(seat: int, role: str) -> None:
    if not 0 <= seat < SEATS:
        raise ValueError(f"{role} seat must be 0-3, got {seat!r}")


def _four(values: list[int]) -> tuple[int, int, int, int]:
    return (values[0], values[1], values[2], values[3])
