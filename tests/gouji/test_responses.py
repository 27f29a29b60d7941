"""The response order after a play (digest §5.7, §7; seed Art. 8(5), Art. 9, Art. 13)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import pytest

from engine.gouji.options import GoujiOptions
from engine.gouji.responses import Duel, Responses, response_order

ALL = tuple(range(6))


def order(
    player: int,
    *,
    gouji: bool = True,
    tongpai: bool = False,
    duel: Duel | None = None,
    active: Collection[int] = ALL,
    finished: Sequence[int] = (),
    passed: Collection[int] = (),
    opened: Collection[int] = (),
    options: GoujiOptions | None = None,
) -> Responses:
    return response_order(
        player,
        gouji=gouji,
        tongpai=tongpai,
        duel=duel,
        active=active,
        finished=finished,
        passed=passed,
        opened=opened,
        options=options or GoujiOptions(),
    )


def test_ordinary_play_goes_round() -> None:
    """§5.3: in turn, counter-clockwise, one by one."""
    assert order(4, gouji=False) == Responses((5, 0, 1, 2, 3), None)


@pytest.mark.parametrize(
    ("priority", "expected"),
    [
        ("gouji-alliance", (3, 2, 4, 1, 5)),  # seed Art. 9 read literally
        ("target-alliance", (3, 1, 5, 2, 4)),
        ("playing-order", (3, 1, 2, 4, 5)),
    ],
)
def test_gouji_play_the_opposite_answers_first_then_burners(
    priority: str, expected: tuple[int, ...]
) -> None:
    """§7: only the 对头 answers a 够级 play normally; the others may burn, by priority."""
    options = GoujiOptions(burn_priority=priority)  # type: ignore[arg-type]
    assert order(0, options=options) == Responses(expected, Duel(0, 3))


def test_a_burn_keeps_the_target_who_may_unburn_first() -> None:
    """§7: the 对头 may cancel a burn (解烧); the others, the 够级 player too, counter-burn."""
    assert order(1, duel=Duel(0, 3)) == Responses((3, 2, 4, 0, 5), Duel(0, 3))


def test_the_opposite_answering_attacks_his_own_opposite() -> None:
    assert order(3, duel=Duel(0, 3)) == Responses((0, 5, 1, 4, 2), Duel(3, 0))


def test_no_burn_after_passing_nor_before_opening() -> None:
    """§7 [WD]: no burning after passing in the trick, nor (with 开点) before opening."""
    assert order(0, passed={2}).order == (3, 4, 1, 5)
    options = GoujiOptions(kaidian=True)
    assert order(0, opened={1, 3}, options=options).order == (3, 1)
    assert order(0, options=GoujiOptions(burning=False)).order == (3,)


def test_tongpai_only_the_opposite_section_7() -> None:
    """Art. 13 / Art. 31 通牌不烧: only the 对头 may answer a play that empties the hand."""
    assert order(0, tongpai=True, active=(1, 2, 3, 4, 5)) == Responses((3,), None)
    assert order(0, tongpai=True, active=(1, 2, 4, 5)).order == ()
    everyone = GoujiOptions(tongpai_only_opposite=False)
    assert order(0, tongpai=True, gouji=False, active=(1, 2, 3, 4, 5), options=everyone).order == (
        1,
        2,
        3,
        4,
        5,
    )


def test_no_head_and_after_two_out_play_is_plain_section_7() -> None:
    """§7 [TCY]: with the 对头 out (无头) 够级 is no attack; after 头科 and 二科 play is in turn."""
    assert order(0, active=(0, 1, 2, 4, 5), finished=(3,)) == Responses((1, 2, 4, 5), None)
    assert order(0, active=(0, 1, 2, 3), finished=(4, 5)) == Responses((1, 2, 3), None)
