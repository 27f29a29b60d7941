"""WSOM and national time limits: boundaries of the 15 s units, the hand total, the grace period."""

from __future__ import annotations

import pytest

from engine.procedures import LOG, NATIONAL, WSOM
from engine.timing import (
    NATIONAL_LIMITS,
    NO_LIMITS,
    WSOM_LIMITS,
    ClockError,
    Overtime,
    OvertimeKind,
    TurnClock,
    limits_for,
)

START = 1_000.0  # hand start; turns below begin after the 15 s grace unless stated


def one_turn(
    seconds: float, *, seat: int = 1, begin: float = START + 60.0
) -> list[tuple[str, int, int]]:
    clock = TurnClock(WSOM_LIMITS, START)
    clock.on_turn_start(seat, begin)
    return [
        (o.kind.value, o.units, o.penalty_points) for o in clock.on_discard(seat, begin + seconds)
    ]


@pytest.mark.parametrize(
    "seconds, expected",
    [
        (0.0, []),
        (14.99, []),
        (15.0, []),
        (15.01, [("discard", 1, 5)]),
        (30.0, [("discard", 1, 5)]),
        (30.01, [("discard", 2, 10)]),
        (45.001, [("discard", 3, 15)]),
    ],
)
def test_per_discard_boundaries(seconds: float, expected: list[tuple[str, int, int]]) -> None:
    assert one_turn(seconds) == expected


def test_first_15_seconds_of_a_hand_are_not_counted() -> None:
    assert one_turn(30.0, begin=START) == []  # 15 s grace + 15 s counted
    assert one_turn(30.5, begin=START) == [("discard", 1, 5)]
    assert one_turn(20.0, begin=START + 5.0) == []


def test_hand_limit_adds_units_incrementally_and_both_penalties_apply() -> None:
    clock = TurnClock(WSOM_LIMITS, START)
    t = START + 15.0
    for _ in range(12):  # 12 turns of 15 s = exactly 180 s: no overtime yet
        clock.on_turn_start(2, t)
        assert clock.on_discard(2, t + 15.0) == []
        t += 60.0
    assert clock.used(2) == pytest.approx(180.0)
    clock.on_turn_start(2, t)
    over = clock.on_discard(2, t + 16.0)  # 1 s over the turn; the hand total is 196 s: 16 s over
    assert [(o.kind, o.units, o.penalty_points) for o in over] == [
        (OvertimeKind.DISCARD, 1, 5),
        (OvertimeKind.HAND, 2, 10),
    ]
    assert over[1].seconds_over == pytest.approx(16.0)
    clock.on_turn_start(2, t + 100)
    assert clock.on_discard(2, t + 105) == []  # 201 s: 21 s over, still the second unit
    clock.on_turn_start(2, t + 200)
    later = clock.on_discard(2, t + 210)  # 211 s: 31 s over, a third unit
    assert [(o.kind, o.units, o.penalty_points) for o in later] == [(OvertimeKind.HAND, 1, 5)]
    assert clock.used(2) == pytest.approx(211.0)


def test_a_kong_splits_the_turn_but_the_time_counts_for_the_hand() -> None:
    clock = TurnClock(WSOM_LIMITS, START)
    clock.on_turn_start(3, START + 100)
    clock.on_turn_start(3, START + 112)  # kong declared, replacement drawn: a new turn
    assert clock.on_discard(3, START + 126) == []  # 14 s in the new turn
    assert clock.used(3) == pytest.approx(26.0)


def test_hand_units_crossed_during_a_kong_are_reported_at_the_discard() -> None:
    clock = TurnClock(WSOM_LIMITS, START, dealer=0)
    clock.on_turn_start(0, START + 15)
    clock.on_turn_start(0, START + 15 + 190)  # 190 s then a kong
    over = clock.on_discard(0, START + 15 + 191)
    assert [(o.kind, o.units) for o in over] == [(OvertimeKind.HAND, 1)]


def test_discard_out_of_turn_is_a_clear_error_and_win_on_discard_is_untimed() -> None:
    clock = TurnClock(WSOM_LIMITS, START)
    clock.on_turn_start(1, START + 20)
    with pytest.raises(ClockError, match=r"seat 2 .* seat 1's"):
        clock.on_discard(2, START + 21)
    assert clock.on_win(3, START + 22) == []  # a win on a discard: not seat 3's turn
    assert clock.on_win(1, START + 40) == [Overtime(1, OvertimeKind.DISCARD, 5.0, 1, 5)]


def test_national_first_discard_30_seconds_then_15_without_points() -> None:
    clock = TurnClock(NATIONAL_LIMITS, START, dealer=2)
    clock.on_turn_start(2, START)
    assert clock.on_discard(2, START + 30) == []
    clock.on_turn_start(3, START + 31)
    over = clock.on_discard(3, START + 47)
    assert [(o.kind, o.units, o.penalty_points) for o in over] == [(OvertimeKind.DISCARD, 1, 0)]
    late = TurnClock(NATIONAL_LIMITS, START, dealer=2)
    late.on_turn_start(2, START)
    assert [o.kind for o in late.on_discard(2, START + 30.5)] == [OvertimeKind.FIRST_DISCARD]


def test_limits_per_procedure() -> None:
    assert limits_for(WSOM) is WSOM_LIMITS
    assert limits_for(NATIONAL) is NATIONAL_LIMITS
    assert limits_for(LOG) is NO_LIMITS


def test_national_pung_within_3_seconds_and_penalty_totals() -> None:
    clock = TurnClock(NATIONAL_LIMITS, START, dealer=0)
    assert clock.on_pung(2, START + 10, START + 13) == []
    late = clock.on_pung(3, START + 20, START + 23.5)
    assert [(o.kind, o.seat, o.seconds_over) for o in late] == [(OvertimeKind.PUNG_CLAIM, 3, 0.5)]
    assert clock.current_turn == 3
    wsom = TurnClock(WSOM_LIMITS, START)
    assert wsom.on_pung(1, START + 30, START + 40) == []  # no pung limit in WSOM
    wsom.on_discard(1, START + 80)  # the pung began a 40 s turn: 25 s over = 2 units
    assert wsom.penalty_points(1) == 10 and wsom.penalty_points(0) == 0
