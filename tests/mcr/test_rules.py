"""MCR rule-set behaviour: errors for impossible hands, payments and settlement, the real
Botzone records, and fuzzing that the scorer never raises."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.mcr.ruleset import MCRRules, fan_id_from_chinese
from engine.notation import Hand, parse_hand, parse_tile
from engine.rulesets import WinRequest, find_rules
from engine.tiles import ALL_TILES, KINDS, Meld, MeldKind, RelativeSeat
from tests.mcr.botzone import recorded_wins


def score(hand: str, win: str, **flags: bool | int) -> object:
    return MCRRules().score(WinRequest(parse_hand(hand), parse_tile(win), **flags))  # type: ignore[arg-type]


def test_registered_under_its_aliases() -> None:
    for name in ("mcr", "MCR", "chinese-official", "guobiao"):
        rules = find_rules(name)
        assert rules.name == "mcr"
        assert rules.allows_chow and rules.max_winners_per_discard == 1


@pytest.mark.parametrize(
    ("hand", "win", "flags", "problem"),
    [
        ("11111m456p789s22p", "2p", {}, "5 copies of 1m"),
        ("123m456p789s345s99m", "9m", {}, "needs 14 tiles"),
        ("123m456p789s34s", "5s", {}, "needs 14 tiles"),
        ("123m456p789s135s9m", "9m", {}, "not a winning hand"),
        ("123m456p789s345s1f", "9m", {}, "flowers"),
        ("123m456p789s345s9m", "9m", {"flowers": 9}, "flowers must be 0-8"),
        ("123m456p789s345s9m", "9m", {"robbing_kong": True, "self_drawn": True}, "robbing"),
    ],
)
def test_impossible_hands_give_clear_errors(
    hand: str, win: str, flags: dict[str, bool | int], problem: str
) -> None:
    result = MCRRules().score(WinRequest(parse_hand(hand), parse_tile(win), **flags))  # type: ignore[arg-type]
    assert not result.valid
    assert result.error is not None and problem in result.error
    assert result.payments is None


def test_false_win_under_eight_points_keeps_its_fans() -> None:
    result = MCRRules().score(
        WinRequest(parse_hand("222m456p789s345s9m"), parse_tile("9m"), flowers=3)
    )
    assert not result.valid and result.payments is None
    assert result.error == "false win: 4 points without flowers, 8 needed"
    assert result.total == 7  # flowers count in the total, never toward the minimum


def test_flowers_only_hand_is_chicken_hand_plus_flowers() -> None:
    hand = parse_hand("22mWW [678m<3] [234p<3] [789s<1]")
    result = MCRRules().score(WinRequest(hand, parse_tile("2m"), flowers=2))
    assert [(f.id, f.count) for f in result.fans] == [(43, 1), (81, 2)]
    assert result.valid and result.total == 10


def test_payments_on_discard_and_self_draw() -> None:
    rules = MCRRules()
    hand = parse_hand("123m456p789s11mEE")
    on_discard = rules.score(WinRequest(hand, parse_tile("E"), flowers=2))
    assert on_discard.total == 16
    assert on_discard.to_json()["payments"] == {"discarder": 24, "each_other": 8}
    assert rules.settle(on_discard, winner=1, discarder=3) == (-8, 40, -8, -24)
    drawn = rules.score(WinRequest(hand, parse_tile("E"), self_drawn=True))
    assert drawn.to_json()["payments"] == {"each_other": 8 + drawn.total}
    each = 8 + drawn.total
    assert rules.settle(drawn, winner=0, discarder=None) == (3 * each, -each, -each, -each)


def test_settlement_examples_from_the_procedure_digest() -> None:
    from engine.rulesets import ScoreResult

    rules = MCRRules()
    eight = ScoreResult(total=8, valid=True)
    assert rules.settle(eight, winner=0, discarder=None) == (48, -16, -16, -16)
    assert rules.settle(eight, winner=0, discarder=2) == (32, -8, -16, -8)
    twenty_six = ScoreResult(total=26, valid=True)
    assert rules.settle(twenty_six, winner=3, discarder=1) == (-8, -34, -8, 50)
    with pytest.raises(ValueError, match="invalid"):
        rules.settle(ScoreResult(total=4, valid=False, error="false win"), winner=0, discarder=1)
    with pytest.raises(ValueError, match="winner cannot"):
        rules.settle(eight, winner=2, discarder=2)


def test_robbing_the_kong_konger_pays_as_discarder() -> None:
    rules = MCRRules()
    result = rules.score(
        WinRequest(
            parse_hand("13mWW [567p<3] [789s<1] [EEE<2]"), parse_tile("2m"), robbing_kong=True
        )
    )
    assert 47 in {f.id for f in result.fans}
    assert result.payments is not None and result.payments.discarder == 8 + result.total
    assert sum(rules.settle(result, winner=0, discarder=3)) == 0


def test_impossible_flags_are_dropped_like_the_definitions_say() -> None:
    # robbing a kong of a tile the winner holds, a kong supplement without a kong
    held = score("123m456p789s345s9m", "9m", robbing_kong=True)
    no_kong = score("123m456p789s345s9m", "9m", self_drawn=True, kong_replacement=True)
    assert 47 not in {f.id for f in held.fans}  # type: ignore[attr-defined]
    assert 46 not in {f.id for f in no_kong.fans}  # type: ignore[attr-defined]


def test_live_waits_by_default_reference_waits_on_request() -> None:
    # 99m pair + 78p waits on 6p and 9p, but all four 6p are in the winner's own melds.
    hand = parse_hand("9m78p9m [666p<1] [678m<3] [678p<3]")
    request = WinRequest(hand, parse_tile("9p"), self_drawn=True)
    assert 77 in {f.id for f in MCRRules().score(request).fans}
    assert 77 not in {f.id for f in MCRRules(reference_waits=True).score(request).fans}


def test_chinese_names_resolve_including_botzone_wait_names() -> None:
    assert fan_id_from_chinese("和绝张") == 58
    assert fan_id_from_chinese("独听・边张") == fan_id_from_chinese("边张") == 77
    assert fan_id_from_chinese("单钓将") == 79
    with pytest.raises(KeyError, match="not an MCR fan"):
        fan_id_from_chinese("役满")


def test_every_botzone_win_matches_its_record(shared_dir: Path) -> None:
    wins = recorded_wins((shared_dir / "data/mcr-logs/human-sample.txt").read_text())
    assert len(wins) == 14
    rules = MCRRules()
    for win in wins:
        result = rules.score(win.request)
        recorded = {fan_id_from_chinese(name): n for name, n in win.fans.items()}
        assert {int(f.id): f.count for f in result.fans} == recorded, win.request.hand
        assert result.total == win.total
        assert rules.settle(result, winner=win.winner, discarder=win.discarder) == win.scores


_MELD_KINDS = st.sampled_from(list(MeldKind))


@st.composite
def _melds(draw: st.DrawFn) -> Meld:
    kind = draw(_MELD_KINDS)
    first = draw(st.integers(0, 33))
    if kind is MeldKind.CHOW:
        first = draw(st.sampled_from([i for i in range(27) if i % 9 <= 6]))
        tiles = tuple(KINDS[first + k] for k in range(3))
    else:
        tiles = (KINDS[first],) * kind.size
    source = None if kind is MeldKind.CONCEALED_KONG else RelativeSeat(draw(st.integers(1, 3)))
    return Meld(kind, tiles, source)


@settings(max_examples=400, deadline=None)
@given(
    concealed=st.lists(st.sampled_from(ALL_TILES), max_size=16),
    melds=st.lists(_melds(), max_size=5),
    win=st.sampled_from(ALL_TILES),
    flags=st.fixed_dictionaries(
        {
            name: st.booleans()
            for name in (
                "self_drawn",
                "last_of_kind",
                "last_tile",
                "kong_replacement",
                "robbing_kong",
            )
        }
    ),
    flowers=st.integers(-2, 10),
)
def test_scorer_never_raises(
    concealed: list, melds: list, win: object, flags: dict[str, bool], flowers: int
) -> None:
    request = WinRequest(Hand(tuple(concealed), tuple(melds)), win, flowers=flowers, **flags)  # type: ignore[arg-type]
    result = MCRRules().score(request)
    assert result.valid == (result.error is None)
    if result.valid:
        assert result.payments is not None and result.total >= 8


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(KINDS[:9]), min_size=13, max_size=13), st.sampled_from(KINDS[:9]))
def test_one_suit_hands_never_raise(concealed: list, win: object) -> None:
    # dense one-suit hands exercise the arrangement search hardest
    result = MCRRules().score(WinRequest(Hand(tuple(concealed)), win))  # type: ignore[arg-type]
    assert (result.error is None) == result.valid
