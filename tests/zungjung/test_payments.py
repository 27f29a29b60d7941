"""Payment and same-round immunity cases of the digest (§2.1, §2.2, §2.4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.zungjung.payments import (
    DiscardHistoryError,
    find_responsible,
    responsible_payment,
    split_payments,
)

# (value, winner, responsible or None for self-draw / nobody responsible, expected deltas)
PAYMENT_CASES = [
    (70, 0, 2, (210, -25, -160, -25)),
    (20, 1, 0, (-20, 60, -20, -20)),
    (100, 3, None, (-100, -100, -100, 300)),
    (30, 0, 1, (90, -40, -25, -25)),
    (25, 0, 1, (75, -25, -25, -25)),
    (1, 0, 1, (3, -1, -1, -1)),
    (320, 0, 1, (960, -910, -25, -25)),
    (480, 0, 1, (1440, -1390, -25, -25)),
    (160, 0, None, (480, -160, -160, -160)),
    (60, 0, 1, (180, -130, -25, -25)),  # example 24: robbing a kong, the konger pays 130
]


@pytest.mark.parametrize(("value", "winner", "responsible", "deltas"), PAYMENT_CASES)
def test_digest_payment_vectors(
    value: int, winner: int, responsible: int | None, deltas: tuple[int, ...]
) -> None:
    assert split_payments(value, winner=winner, responsible=responsible) == deltas


@given(st.integers(0, 480), st.integers(0, 3), st.none() | st.integers(0, 3))
def test_winner_always_collects_three_times_value(
    value: int, winner: int, responsible: int | None
) -> None:
    if responsible == winner:
        responsible = None
    deltas = split_payments(value, winner=winner, responsible=responsible)
    assert sum(deltas) == 0
    assert deltas[winner] == 3 * value
    if responsible is not None:
        assert -deltas[responsible] == responsible_payment(value)[0]


def test_responsible_shares() -> None:
    assert responsible_payment(25) == (25, 25)
    assert responsible_payment(26) == (28, 25)


@pytest.mark.parametrize(
    ("log", "expected", "immune"),
    [
        ([(0, "1s"), (1, "2m"), (2, "3p")], 2, ()),
        ([(3, "5s"), (0, "3p"), (1, "2m"), (2, "3p")], 0, (2,)),
        ([(3, "3p"), (1, "2m"), (2, "3p")], None, (2,)),
        # the window starts at the winner's *previous* discard: older drops do not count
        ([(0, "3p"), (3, "5s"), (1, "3p"), (2, "3p")], 1, (2,)),
        # the winner has not discarded yet: the window starts with the hand
        ([(0, "3p"), (1, "3p"), (2, "3p")], 0, (1, 2)),
        # the winner threw the tile long ago, then another tile: that old discard grants nothing
        ([(3, "3p"), (0, "1m"), (3, "9m"), (2, "3p")], 2, ()),
    ],
)
def test_same_round_immunity(
    log: list[tuple[int, str]], expected: int | None, immune: tuple[int, ...]
) -> None:
    outcome = find_responsible(log, winner=3, win_tile="3p")
    assert outcome.responsible == expected
    assert outcome.immune == immune
    assert outcome.reason


@pytest.mark.parametrize(
    ("log", "tile", "message"),
    [
        ([], "3p", "empty"),
        ([(0, "3p"), (1, "2m")], "3p", "not the winning tile"),
        ([(0, "1m"), (3, "3p")], "3p", "made by the winner"),
        ([(5, "3p")], "3p", "seat must be 0-3"),
        ([(1, "3x")], "3x", "'3x'"),
        ([(1, 3)], "3p", "not a tile"),
        ("1p2p", "3p", "list of (seat, tile)"),
        ([(1,)], "3p", "(seat, tile) pair"),
        ([(1, "1f")], "1f", "flower"),
    ],
)
def test_malformed_history_gets_a_clear_error(log: object, tile: str, message: str) -> None:
    with pytest.raises(DiscardHistoryError, match=message.replace("(", r"\(").replace(")", r"\)")):
        find_responsible(log, winner=3, win_tile=tile)  # type: ignore[arg-type]


@given(
    st.lists(
        st.tuples(st.integers(-1, 5), st.sampled_from(["1m", "3p", "E", "x", "", "1f"])),
        max_size=12,
    ),
    st.integers(0, 3),
)
def test_fuzzed_histories_never_crash(log: list[tuple[int, str]], winner: int) -> None:
    try:
        outcome = find_responsible(log, winner=winner, win_tile="3p")
    except DiscardHistoryError:
        return
    assert outcome.responsible in (None, 0, 1, 2, 3)
    assert outcome.responsible != winner
