"""Golden hands: at least one for each of the 81 fans, plus the tricky combinations.

Each expected fan list (id -> count) was checked against the PyMahjongGB reference calculator,
which ``test_golden_hands_agree_with_reference`` re-checks whenever it is installed.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.mcr.ruleset import FANS, MCRRules
from engine.notation import parse_hand, parse_tile
from engine.rulesets import WinRequest
from engine.tiles import Wind

# (fan the case is for, hand without the winning tile, winning tile, flags, expected fans)
GOLDEN: list[tuple[int, str, str, dict[str, Any], dict[int, int]]] = [
    (1, "EEESSSWWWNNN2m", "2m", {}, {1: 1, 12: 1, 49: 1, 79: 1}),
    (2, "CCCFFFPP123m55p", "P", {}, {2: 1, 62: 1, 66: 1, 75: 1}),
    (3, "223344666s88sFF", "F", {}, {3: 1, 59: 1, 62: 1, 69: 1}),
    (4, "1112345678999m", "5m", {}, {4: 1, 66: 1, 73: 1}),
    (5, "N [1111m<1] [2222p<2] {3333s} [EEEE<3]", "N", {}, {5: 1, 42: 1, 60: 1, 61: 1, 73: 1}),
    (6, "2233445566778s", "8s", {"self_drawn": True}, {6: 1, 68: 1, 80: 1}),
    (7, "19m19s19pESWNCFP", "E", {}, {7: 1}),
    (8, "111m999m111s99s99p", "9p", {}, {8: 1, 33: 1, 62: 1}),
    (9, "EEESSSWWWN123m", "N", {}, {9: 1, 33: 1, 49: 1, 55: 1, 60: 1, 61: 1, 62: 1, 79: 1}),
    (10, "CCCFFFP123m456p", "P", {}, {10: 1, 62: 1, 66: 1, 75: 1, 79: 1}),
    (11, "EEESSSCCCFFPP", "P", {}, {10: 1, 11: 1, 33: 1, 60: 1, 61: 1, 62: 1}),
    (12, "111m333p555s777m9p", "9p", {}, {12: 1, 73: 1, 76: 1, 79: 1}),
    (13, "1122337788995m", "5m", {}, {13: 1, 62: 1, 79: 1}),
    (14, "234234234234m9p", "9p", {}, {14: 1, 62: 1, 63: 1, 75: 1, 79: 1}),
    (15, "111222333444p7s", "7s", {}, {12: 1, 15: 1, 73: 1, 75: 1, 76: 1, 79: 1}),
    (16, "123234345456s9m", "9m", {}, {16: 1, 62: 1, 63: 1, 75: 1, 79: 1}),
    (17, "45p99s [1111m<1] [2222p<2] [3333s<3]", "6p", {}, {17: 1, 42: 1, 73: 1, 76: 1}),
    (18, "111m999pEEENN11s", "N", {}, {18: 1, 33: 1, 60: 1, 61: 1, 62: 1}),
    (19, "1133557m22pEECC", "7m", {}, {19: 1, 75: 1}),
    (20, "147m25s3pESWNCFP", "8s", {}, {20: 1}),
    (21, "222m444p666s888m2p", "2p", {}, {12: 1, 21: 1}),
    (22, "123456789m22m55m", "5m", {}, {22: 1, 28: 1, 62: 1, 64: 1}),
    (23, "234234m567p9p [234m<3]", "9p", {}, {23: 1, 63: 1, 75: 1, 79: 1}),
    (24, "333444555p789s2m", "2m", {}, {24: 1, 33: 1, 62: 1, 76: 1, 79: 1}),
    (25, "789m789p777s88s99p", "8s", {}, {25: 1, 62: 1, 70: 1}),
    (26, "456m456p456s555m6p", "6p", {}, {26: 1, 41: 1, 62: 1, 64: 1}),
    (27, "123m123p123s111m2p", "2p", {}, {27: 1, 41: 1, 62: 1, 64: 1, 73: 1, 78: 1}),
    (28, "123456789m123p5s", "5s", {}, {28: 1, 62: 1, 63: 1, 70: 1, 79: 1}),
    (29, "123789m123789p5s", "5s", {}, {29: 1, 62: 1, 79: 1}),
    (30, "123234345m678p9s", "9s", {}, {30: 1, 62: 1, 63: 1, 79: 1}),
    (31, "345m456p567s555m5p", "5p", {}, {31: 1, 50: 1, 62: 1, 64: 1, 78: 1}),
    (32, "222m222p222s567m9s", "9s", {}, {32: 1, 33: 1, 62: 1, 76: 1, 79: 1}),
    (33, "222m444p666s567m9s", "9s", {}, {33: 1, 62: 1, 76: 1, 79: 1}),
    (34, "147m258s36pESWNC", "P", {}, {34: 1}),
    (35, "147m258s369p123m5m", "5m", {}, {35: 1, 62: 1, 63: 1, 79: 1}),
    (36, "678m678p999s66s88m", "6s", {}, {36: 1, 62: 1, 70: 1, 73: 1}),
    (37, "123m234p444s11s33m", "3m", {}, {37: 1, 62: 1, 64: 1, 66: 1}),
    (
        38,
        "EEESSSWWW123m5p",
        "5p",
        {"seat_wind": "N", "prevalent_wind": "N"},
        {33: 1, 38: 1, 62: 1, 75: 1, 79: 1},
    ),
    (
        39,
        "123m456p789s11mEE",
        "E",
        {"seat_wind": "S", "prevalent_wind": "W"},
        {39: 1, 62: 1, 73: 1},
    ),
    (40, "123p345p888p456s9s", "9s", {}, {40: 1, 62: 1, 76: 1, 79: 1}),
    (41, "123m123p123s456m9s", "9s", {}, {41: 1, 62: 1, 63: 1, 71: 1, 79: 1}),
    (42, "222m333p444s567m9s", "9s", {}, {33: 1, 42: 1, 62: 1, 76: 1, 79: 1}),
    (43, "22mWW [678m<3] [234p<3] [789s<1]", "2m", {}, {43: 1}),
    (
        44,
        "22mWW [678m<3] [234p<3] [789s<1]",
        "2m",
        {"self_drawn": True, "last_tile": True},
        {44: 1},
    ),
    (45, "22mWW [678m<3] [234p<3] [789s<1]", "2m", {"last_tile": True}, {45: 1}),
    (
        46,
        "22mWW [678m<3] [234p<3] [7777s<1]",
        "2m",
        {"self_drawn": True, "kong_replacement": True},
        {46: 1, 74: 1},
    ),
    (
        47,
        "13mWW [567p<3] [789s<1] [EEE<2]",
        "2m",
        {"robbing_kong": True},
        {47: 1, 60: 1, 61: 1, 78: 1},
    ),
    (48, "777s99mEE [222m<1] [555p<2]", "E", {}, {48: 1, 60: 1, 61: 1}),
    (49, "123456789mEEES", "S", {}, {28: 1, 49: 1, 60: 1, 61: 1, 62: 1, 79: 1}),
    (50, "123m234p345s678m9s", "9s", {}, {50: 1, 62: 1, 63: 1, 79: 1}),
    (51, "123m456p789sEEEC", "C", {}, {39: 1, 51: 1, 60: 1, 61: 1, 62: 1, 79: 1}),
    (52, "C [123m<3] [456p<3] [789s<3] [EEE<1]", "C", {}, {39: 1, 51: 1, 52: 1, 60: 1, 61: 1}),
    (53, "345s678s9s {1111m} {2222p}", "9s", {}, {53: 1, 62: 1, 71: 1, 73: 1, 76: 1}),
    (54, "CCCFFF123m456p9s", "9s", {}, {54: 1, 62: 1, 66: 1, 79: 1}),
    (55, "123m789p111sEEE9s", "9s", {}, {55: 1, 60: 1, 61: 1, 62: 1, 66: 1, 73: 1, 79: 1}),
    (56, "123m456p789s345s9m", "9m", {"self_drawn": True}, {39: 1, 56: 1, 63: 1, 79: 1}),
    (57, "345s678s9s [1111m<1] [2222p<2]", "9s", {}, {57: 1, 71: 1, 73: 1, 76: 1}),
    (58, "123m456p789s34s99m", "5s", {"last_of_kind": True}, {39: 1, 58: 1, 62: 1, 63: 1}),
    (59, "CCC123m456p789s9s", "9s", {}, {39: 1, 59: 1, 62: 1}),
    (60, "SSS123m456p789s9s", "9s", {"prevalent_wind": "S"}, {39: 1, 60: 1, 62: 1}),
    (61, "WWW123m456p789s9s", "9s", {"seat_wind": "W"}, {39: 1, 61: 1, 62: 1}),
    (62, "123m456p789s345s9m", "9m", {}, {39: 1, 62: 1, 63: 1, 79: 1}),
    (63, "123m456p789s34s55m", "2s", {}, {39: 1, 62: 1, 63: 1}),
    (64, "123345444m678p9p", "9p", {}, {62: 1, 64: 1, 75: 1, 76: 1}),
    (65, "222m222p567s789s1m", "1m", {}, {62: 1, 65: 1, 66: 1, 76: 1}),
    (66, "222m444p567s789s1m", "1m", {}, {62: 1, 66: 1, 76: 1}),
    (67, "123p456s789s1m {5555m}", "1m", {}, {62: 1, 67: 1, 71: 1, 76: 1, 79: 1}),
    (68, "234m345p456s66s88m", "8m", {}, {50: 1, 62: 1, 68: 1}),
    (69, "223344m567p678s9s", "9s", {}, {62: 1, 63: 1, 69: 1}),
    (70, "234m234p678s999sE", "E", {}, {62: 1, 70: 1, 73: 1, 79: 1}),
    (71, "234567m234p999sE", "E", {}, {62: 1, 70: 1, 71: 1, 73: 1, 79: 1}),
    (72, "123789m456p999sE", "E", {}, {62: 1, 72: 1, 73: 1, 79: 1}),
    (73, "111m456p789s345s9m", "9m", {}, {62: 1, 73: 1, 76: 1, 79: 1}),
    (74, "123p456s789s1m [5555m<1]", "1m", {}, {71: 1, 74: 1, 76: 1, 79: 1}),
    (75, "123m456m789p345p9m", "9m", {}, {62: 1, 63: 1, 71: 1, 75: 1, 79: 1}),
    (76, "222m456p789s345s9m", "9m", {}, {62: 1, 76: 1, 79: 1}),
    (77, "12m456p789s345s99m", "3m", {}, {39: 1, 62: 1, 63: 1, 77: 1}),
    (78, "13m456p789s345s99m", "2m", {}, {39: 1, 62: 1, 63: 1, 78: 1}),
    (79, "123m456p789s345s9m", "9m", {}, {39: 1, 62: 1, 63: 1, 79: 1}),
    (80, "22mWW [678m<3] [234p<3] [789s<1]", "2m", {"self_drawn": True}, {80: 1}),
    (81, "123m456p789s345s9m", "9m", {"flowers": 3}, {39: 1, 62: 1, 63: 1, 79: 1, 81: 3}),
    (30, "123234345678m9p", "9p", {}, {30: 1, 62: 1, 63: 1, 71: 1, 75: 1, 79: 1}),
    (72, "123789m123789sE", "E", {}, {55: 1, 62: 1, 70: 2, 72: 1, 75: 1, 79: 1}),
    (64, "111123444456m9p", "9p", {}, {62: 1, 64: 2, 66: 1, 71: 1, 73: 1, 75: 1, 76: 1, 79: 1}),
    (58, "78p123m456sEE [999p<1]", "9p", {}, {39: 1, 58: 1, 64: 1, 73: 1}),
    (35, "147m258s369p5s [123m<3]", "5s", {}, {35: 1, 63: 1, 79: 1}),
    (34, "147m258s369pESWC", "F", {}, {34: 1, 35: 1}),
    (4, "1112345678999p", "9p", {"self_drawn": True}, {4: 1, 28: 1, 64: 1, 80: 1}),
    (42, "222m333p444sE [678s<3]", "E", {}, {33: 1, 42: 1, 79: 1}),
    (6, "3344556677889p", "9p", {}, {6: 1}),
    # one melded + one concealed kong: the seed's two fans, PyMahjongGB's fan 82 (documented)
    (67, "345s678s9s [1111m<1] {2222p}", "9s", {}, {67: 1, 71: 1, 73: 1, 74: 1, 76: 1}),
    # ties between equal totals, settled as the reference calculator does
    (23, "2233344445556m", "2m", {}, {22: 1, 23: 1, 62: 1, 63: 1, 64: 1, 68: 1}),
    (
        63,
        "6p64s5p45s56p55s4p65s",
        "4p",
        {"self_drawn": True},
        {26: 1, 31: 1, 56: 1, 63: 1, 64: 1, 69: 2, 70: 1, 75: 1},
    ),
]


def request(hand: str, win: str, flags: dict[str, Any]) -> WinRequest:
    options = dict(flags)
    for key in ("seat_wind", "prevalent_wind"):
        if key in options:
            options[key] = Wind.parse(options[key])
    return WinRequest(parse_hand(hand), parse_tile(win), **options)


def test_every_fan_has_a_golden_hand() -> None:
    assert {case[0] for case in GOLDEN} == set(range(1, 82))
    shown = {fan for case in GOLDEN for fan in case[4]}
    assert shown == set(range(1, 82)), sorted(set(range(1, 82)) - shown)


@pytest.mark.parametrize(("fan", "hand", "win", "flags", "expected"), GOLDEN)
def test_golden_hand(
    fan: int, hand: str, win: str, flags: dict[str, Any], expected: dict[int, int]
) -> None:
    result = MCRRules().score(request(hand, win, flags))
    assert {int(f.id): f.count for f in result.fans} == expected
    assert fan in expected
    by_id = {f.id: f for f in FANS}
    assert result.total == sum(by_id[i].points * n for i, n in expected.items())
    flowers = flags.get("flowers", 0)
    assert result.valid == (result.total - flowers >= 8)


def test_golden_hands_agree_with_reference() -> None:
    mahjong_gb = pytest.importorskip("MahjongGB")
    from tests.mcr.handgen import RandomWin

    by_name = {f.name: int(f.id) for f in FANS}
    for _fan, hand, win, flags, expected in GOLDEN:
        args = RandomWin(request(hand, win, flags)).reference_args()
        fans: dict[int, int] = {}
        for _points, count, _chinese, english in mahjong_gb.MahjongFanCalculator(
            **args, verbose=True
        ):
            if english == "Concealed Kong and Melded Kong":  # docs/scoring.md, difference 1
                fans[74], fans[67] = 1, 1
            else:
                fans[by_name[english]] = count
        assert fans == expected, hand
