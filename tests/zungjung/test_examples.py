"""Every worked example of the Zung Jung digest (§3), as golden cases.

Digest notation is translated to Tilesight's: b -> s (bamboo), c -> m (characters), d -> p (dots),
Rd/Gd/Wd -> C/F/P. Seat is South unless the example says otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.notation import parse_hand, parse_tile
from engine.rulesets import WinRequest, find_rules
from engine.tiles import Wind
from engine.zungjung import ZungJung

SOUTH, EAST, WEST = Wind.SOUTH, Wind.EAST, Wind.WEST
DISCARD: dict[str, Any] = {}
SELF: dict[str, Any] = {"self_drawn": True}
KWAN = "[CCC] 11222333p 99m"  # examples 4-7: Kwan's Freedom of Count hand

# (example, hand, winning tile, flags, total, {pattern id: count} of the chosen arrangement)
EXAMPLES: list[tuple[str, str, str, dict[str, Any], int, dict[str, int]]] = [
    ("1", "222s444m666p888pW", "W", SELF, 160, {"4.2.3": 1, "1.2": 1, "4.1": 1}),
    ("2", "[CCC] FFF 123m 456s P", "P", DISCARD, 60, {"3.2.1": 1, "3.1": 2}),
    ("3", "[CCC] [FFF] PPP 23s 55m", "4s", DISCARD, 160, {"3.2.2": 1, "3.1": 3}),
    ("4", KWAN, "1p", DISCARD, 170, {"5.1.3": 1, "8.1.1": 1, "3.1": 1}),
    ("5", KWAN, "1p", SELF, 170, {}),
    ("6", KWAN, "4p", DISCARD, 20, {"5.1.1": 1, "3.1": 1}),
    ("7", KWAN, "9m", DISCARD, 45, {"4.1": 1, "3.1": 1, "4.2.1": 1}),
    ("8a", "111222p 33p 99m [CCC]", "3p", DISCARD, 170, {"5.1.3": 1, "8.1.1": 1, "3.1": 1}),
    ("8b", "111222p 33p 99m [CCC]", "3p", SELF, 170, {}),
    (
        "9",
        "[FFF] [999m] 222m 555m 8m",
        "8m",
        DISCARD,
        85,
        {"2.1.1": 1, "4.1": 1, "3.1": 1, "4.2.1": 1},
    ),
    ("10", "234s 567s 345m 456p 8p", "8p", DISCARD, 15, {"1.1": 1, "1.2": 1, "1.3": 1}),
    ("12", "1112345678999s", "5s", SELF, 480, {"2.2": 1}),
    ("13", "EESSWWNNCCFFP", "P", DISCARD, 320, {"3.4": 1}),
    (
        "14",
        "{1111s} [3333s] [5555s] 777s 9s",
        "9s",
        SELF,
        235,
        {"2.1.2": 1, "4.1": 1, "4.3.3": 1, "4.2.1": 1},
    ),
    (
        "15",
        "{1111s} {2222s} 333s 555s 7s",
        "7s",
        SELF,
        320,
        {"2.1.2": 1, "4.1": 1, "4.2.3": 1, "4.3.2": 1, "7.2.1": 1, "1.2": 1},
    ),
    ("16a", "[SSS] 123s 456m 789p E", "E", DISCARD, 10, {"3.1": 1}),
    (
        "17a",
        "222s 444m 66p 789m 99p",
        "6p",
        {"self_drawn": True, "seat_wind": EAST},
        35,
        {"4.2.2": 1, "1.2": 1},
    ),
    ("17b", "222s 444m 66p 789m 99p", "6p", {"seat_wind": EAST}, 10, {"4.2.1": 1, "1.2": 1}),
    (
        "18",
        "[111s] [999m] 111p CC EE",
        "C",
        {"seat_wind": EAST},
        140,
        {"8.1.3": 1, "4.1": 1, "3.1": 1},
    ),
    ("19", "112233s 556677m 9p", "9p", DISCARD, 70, {"5.1.2": 1, "1.1": 1, "1.2": 1}),
    (
        "20",
        "223344s 667788s 5s",
        "5s",
        SELF,
        155,
        {"5.1.2": 1, "1.1": 1, "1.2": 1, "1.3": 1, "2.1.2": 1},
    ),
    ("21", "EEE SSS WW 234s 77m", "7m", DISCARD, 50, {"3.3.1": 1, "3.1": 1, "1.2": 1, "4.2.1": 1}),
    ("22", "444s 444m 4p 678m EEE", "4p", DISCARD, 65, {"6.2.1": 1, "4.2.2": 1, "1.2": 1}),
    ("23", "123s 789m 111p 999p 9s", "9s", DISCARD, 60, {"8.1.2": 1, "4.2.1": 1, "1.2": 1}),
    (
        "24",
        "123456789s 45m NN",
        "6m",
        {"robbing_kong": True},
        60,
        {"7.1": 1, "1.1": 1, "1.2": 1, "9.3": 1},
    ),
    (
        "25",
        "[CCCC] 234s 567m 34p 99m",
        "5p",
        {"self_drawn": True, "kong_replacement": True, "last_tile": True},
        35,
        {"3.1": 1, "4.3.1": 1, "9.1.1": 1, "9.2": 1},
    ),
    ("26", "19s19m19pESWNCFP", "P", DISCARD, 160, {"10.1": 1}),
    (
        "27",
        "123s 456s 234m 567p 9p",
        "9p",
        {"self_drawn": True, "seat_wind": EAST, "extras": {"blessing_of_heaven": True}},
        165,
        {"9.4.1": 1, "1.1": 1, "1.2": 1},
    ),
    ("28", "EEESSSWWWNNNC", "C", SELF, 400, {"3.3.4": 1}),
    ("29", "CCCFFFPPPEEES", "S", {"seat_wind": EAST}, 320, {"3.4": 1}),
]


def request(hand: str, win: str, flags: dict[str, Any]) -> WinRequest:
    options = {"seat_wind": SOUTH} | flags
    return WinRequest(parse_hand(hand), parse_tile(win), **options)


@pytest.fixture(scope="module")
def rules() -> ZungJung:
    found = find_rules("zung-jung")
    assert isinstance(found, ZungJung)
    return found


Example = tuple[str, str, str, dict[str, Any], int, dict[str, int]]


@pytest.mark.parametrize("case", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_worked_example(rules: ZungJung, case: Example) -> None:
    _, hand, win, flags, total, patterns = case
    result = rules.score(request(hand, win, flags))
    assert result.valid, result.error
    assert result.total == total
    if patterns:  # ties (examples 5, 8b) may list either arrangement
        assert {f.id: f.count for f in result.fans} == patterns


def test_example_11_chicken_hand_is_a_false_win_under_the_minimum(rules: ZungJung) -> None:
    req = request("[234s] 567s 345m 66p 99p", "6p", DISCARD)
    result = rules.score(req)
    assert not result.valid
    assert result.total == 1
    assert "chicken" in (result.error or "")
    assert [f.id for f in result.fans] == ["chicken"]
    standard = ZungJung(minimum=0).score(req)
    assert standard.valid and standard.total == 1
    assert standard.payments is not None and standard.payments.to_json()["each_other"] == 1


def test_example_16b_seat_wind_decides_value_honor() -> None:
    result = ZungJung(minimum=0).score(request("[SSS] 123s 456m 789p E", "E", {"seat_wind": WEST}))
    assert result.total == 1 and [f.id for f in result.fans] == ["chicken"]


def test_example_14_and_15_sets_are_reported(rules: ZungJung) -> None:
    result = rules.score(request("{1111s} [3333s] [5555s] 777s 9s", "9s", SELF))
    kongs = next(f for f in result.fans if f.id == "4.3.3")
    assert sorted(len(g) for g in kongs.tiles) == [4, 4, 4]
    assert kongs.name == "Three Kong" and kongs.chinese == "三槓" and kongs.points == 120


def test_example_24_robbed_konger_pays_130(rules: ZungJung) -> None:
    history = [(0, "1m"), (1, "2m"), (2, "6m")]  # the added kong tile is seat 2's "discard"
    extras = {"discards": history, "seat": 3}
    result = rules.score(
        request("123456789s 45m NN", "6m", {"robbing_kong": True, "extras": extras})
    )
    assert result.total == 60
    assert rules.settle(result, winner=3, discarder=2) == (-25, -25, -130, 180)


def test_freedom_of_count_prefers_two_identical_sequences_twice_over_seven_pairs(
    rules: ZungJung,
) -> None:
    result = rules.score(request("112233s 556677m 9p", "9p", DISCARD))
    assert "10.2" not in {f.id for f in result.fans}


def test_seven_pairs_with_four_identical_tiles(rules: ZungJung) -> None:
    result = rules.score(request("1111s 3355m 77p 99p E", "E", DISCARD))
    assert result.valid and {f.id: f.count for f in result.fans} == {"10.2": 1}
    assert result.total == 30


@pytest.mark.parametrize(
    ("hand", "win", "total", "ids"),
    [
        # zjmj engine.test.ts, original mode: Pure One-Suit alone
        ("[234s] 456678s 111s 9s", "9s", 80, ["2.1.2"]),
        # zjmj: a "Five Suits" hand has no v3.3 pattern at all (a chicken hand)
        ("[123s] [EEE] 456m 777p C", "C", 1, ["chicken"]),
    ],
)
def test_reference_implementation_cases(hand: str, win: str, total: int, ids: list[str]) -> None:
    result = ZungJung(minimum=0).score(request(hand, win, DISCARD))
    assert result.total == total
    assert [f.id for f in result.fans] == ids
