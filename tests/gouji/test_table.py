"""The game state machine: turns, burns, 通牌, violations as values, 开点, the end of a game."""

from __future__ import annotations

import pytest

from engine.gouji.events import (
    CardsPlayed,
    GameOver,
    Pass,
    Passed,
    Play,
    PlayerOut,
    PointFailed,
    PointOpened,
    TrickWon,
    event_to_json,
)
from engine.gouji.options import GoujiOptions
from engine.gouji.table import GoujiGame
from engine.gouji.violations import GoujiViolationKind, IllegalPlayError
from tests.gouji.helpers import cards

BURN_HANDS = ["K K 5 5", "A A 6 6", "4 4 7 7", "2 2 8 8", "9 9 4 4", "T T 6 6"]


def game(hands: list[str], leader: int = 0, **options: object) -> GoujiGame:
    return GoujiGame(
        [cards(h) for h in hands],
        leader,
        GoujiOptions(**options),  # type: ignore[arg-type]
    )


def play(table: GoujiGame, seat: int, text: str) -> list[object]:
    step = table.apply(Play(seat, cards(text)))
    assert step.violations == (), step.violations
    return list(step.events)


def test_burn_unburn_and_the_trick_section_7() -> None:
    table = game(BURN_HANDS)
    assert play(table, 0, "K K")[0] == CardsPlayed(0, cards("K K"), "lead", True, False, 2)
    assert table.queue == [3, 2, 4, 1, 5]
    for seat in (3, 2, 4):
        assert table.apply(Pass(seat)).events == (Passed(seat),)
    burn = play(table, 1, "A A")[0]
    assert isinstance(burn, CardsPlayed) and burn.role == "burn"
    assert table.queue == [3, 0, 5]  # 2 and 4 passed: no burning after a pass
    unburn = play(table, 3, "2 2")[0]
    assert isinstance(unburn, CardsPlayed) and unburn.role == "unburn"
    assert table.queue == [0, 5, 1]
    table.apply(Pass(0))
    table.apply(Pass(5))
    assert table.apply(Pass(1)).events == (Passed(1), TrickWon(3, 3))
    assert table.opened == {3} and table.to_act == 3


def test_violations_are_values_and_a_wrong_play_costs_the_turn() -> None:
    """Art. 8(1), Art. 30: a wrong play cancels the right to play; the 下手 plays instead."""
    table = game(BURN_HANDS)
    step = table.apply(Pass(0))
    assert [v.kind for v in step.violations] == [GoujiViolationKind.PASS_ON_LEAD]
    play(table, 0, "5 5")
    step = table.apply(Play(4, cards("9 9")))
    assert [v.kind for v in step.violations] == [GoujiViolationKind.OUT_OF_TURN]
    step = table.apply(Play(1, cards("K K")))
    assert [v.kind for v in step.violations] == [GoujiViolationKind.CARDS_NOT_IN_HAND]
    assert table.to_act == 1  # a misread is ignored
    step = table.apply(Play(1, cards("A 6")))
    assert [v.kind for v in step.violations] == [GoujiViolationKind.MIXED_RANKS]
    assert step.violations[0].seat == 1 and step.events == (Passed(1),)
    step = table.apply(Play(2, cards("4 4")))
    assert [v.kind for v in step.violations] == [GoujiViolationKind.NOT_HIGHER]
    assert table.to_act == 3 and len(table.hands[2]) == 4


def test_a_wrong_lead_passes_the_lead_on() -> None:
    table = game(BURN_HANDS)
    step = table.apply(Play(0, cards("K 5")))
    assert step.violations and table.to_act == 1 and table.current is None


def test_strict_tables_raise() -> None:
    table = GoujiGame([cards(h) for h in BURN_HANDS], 0, strict=True)
    with pytest.raises(IllegalPlayError, match="out_of_turn"):
        table.apply(Play(2, cards("4 4")))


def test_tongpai_only_opposite_and_the_lead_moves_on_section_7() -> None:
    """Art. 13: only the 对头 may answer a 通牌; the finished winner's lead passes on."""
    table = game(["K K", "A A 6", "4 7", "8 9", "9 4", "T 6"])
    events = play(table, 0, "K K")
    assert events[1] == PlayerOut(0, 1)
    step = table.apply(Play(1, cards("A A")))
    assert [v.kind for v in step.violations] == [GoujiViolationKind.TONGPAI_ANSWER]
    assert table.apply(Pass(3)).events == (Passed(3), TrickWon(0, 1))


def test_a_whole_game_and_its_finishing_order_section_9() -> None:
    table = game(["3", "4", "5", "6", "7", "8"])
    play(table, 0, "3")
    play(table, 3, "6")  # the 对头 answers the 通牌, and goes out too
    assert table.to_act == 4
    play(table, 4, "7")
    table.apply(Pass(1))
    play(table, 5, "8")
    table.apply(Pass(2))
    events = play(table, 1, "4")
    assert events[-1] == GameOver((0, 3, 4, 5, 1, 2), (4, -2, -4, 2, 0, 0), False)
    assert table.over and table.result and table.result.alliances == (0, 0)
    step = table.apply(Play(2, cards("5")))
    assert [v.kind for v in step.violations] == [GoujiViolationKind.GAME_OVER]


def test_a_sweep_ends_the_game_section_10() -> None:
    table = game(["3", "4 4", "5", "6 6", "7", "8 8"])
    play(table, 0, "3")
    table.apply(Pass(3))
    play(table, 1, "4")
    play(table, 2, "5")
    table.apply(Pass(5))
    play(table, 3, "6")
    events = play(table, 4, "7")
    assert isinstance(events[-1], GameOver)
    assert events[-1].finish_order == (0, 2, 4, 1, 3, 5) and events[-1].sweep


def test_opening_the_point_section_11() -> None:
    """§11: a 够级 play that stands opens; the 对头 of a finisher who never opened fails."""
    table = game(["K K 5 5", "6 6 9", "7 7 8", "8 8 9", "Q", "T T 9"], kaidian=True)
    play(table, 0, "K K")
    assert table.queue == [3]  # nobody has opened: nobody may burn
    assert table.apply(Pass(3)).events == (Passed(3), PointOpened(0), TrickWon(0, 0))
    play(table, 0, "5")
    for seat in (1, 2, 3):
        table.apply(Pass(seat))
    events = play(table, 4, "Q")
    assert events[1:] == [
        PlayerOut(4, 1),
        PointFailed(1, "his 对头 (seat 4) went out before he opened"),
    ]


def test_second_place_ends_every_chance_to_open_section_11() -> None:
    table = game(["K", "4", "5", "6", "7", "8"], kaidian=True)
    play(table, 0, "K")  # 头科; a single K is no 够级 play, so nobody opens
    assert table.apply(Pass(3)).events[-1] == TrickWon(0, 1)
    events = play(table, 1, "4")  # 二科: everyone but the 头科 who has not opened fails
    failed = [e.seat for e in events if isinstance(e, PointFailed)]
    assert failed == [4, 1, 2, 5] and table.point_failures == [3, 4, 1, 2, 5]


def test_report_at_ten_cards_section_8() -> None:
    table = game(["3 " * 11, "4 " * 10, "5", "6", "7", "8"])
    assert table.report(0) is None and table.report(1) == 10
    assert game(["3 " * 5, "4", "5", "6", "7", "8"], bie_san=True).report(0) is None


def test_events_have_one_json_form() -> None:
    event = CardsPlayed(0, cards("K Ks"), "lead", True, False, 3)
    assert event_to_json(event) == {
        "type": "cards_played",
        "schema": "tilesight.gouji/1",
        "seat": 0,
        "cards": ["K", "Ks"],
        "role": "lead",
        "gouji": True,
        "tongpai": False,
        "cards_left": 3,
    }
