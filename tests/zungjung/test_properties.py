"""Property tests on random winning hands and fuzzing of the Zung Jung scorer."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.notation import Hand
from engine.rulesets import WinRequest, find_rules
from engine.scoring.context import build_contexts
from engine.scoring.decompose import common_arrangements
from engine.scoring.evaluator import evaluate
from engine.tiles import KINDS, Meld, MeldKind, Wind
from engine.zungjung import ZungJung

RULES = ZungJung()
OPEN = ZungJung(minimum=0)


def random_winning_request(rng: random.Random) -> WinRequest:
    """Four sets and a pair (some declared) or, now and then, Seven Pairs / Thirteen Terminals."""
    roll = rng.random()
    if roll < 0.08:
        kinds = rng.sample(range(34), 7)
        tiles = [KINDS[k] for k in kinds for _ in range(2)]
        return _request(rng, tiles, [])
    if roll < 0.12:
        orphans = [KINDS[i] for i in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)]
        return _request(rng, [*orphans, rng.choice(orphans)], [])
    used = [0] * 34
    concealed: list[Any] = []
    melds: list[Meld] = []
    for _ in range(200):  # retry until four sets fit the copies left
        if len(melds) + len(concealed) // 3 == 4:
            break
        kind = rng.choice(["chow", "pung", "pung", "kong"] if rng.random() < 0.5 else ["chow"])
        first = rng.randrange(27 if kind == "chow" else 34)
        if kind == "chow" and first % 9 > 6:
            continue
        need = {"chow": [first, first + 1, first + 2], "pung": [first] * 3, "kong": [first] * 4}
        idx = need[kind]
        if any(used[i] + idx.count(i) > 4 for i in set(idx)):
            continue
        for i in idx:
            used[i] += 1
        tiles = tuple(KINDS[i] for i in idx)
        if kind == "kong":
            melds.append(Meld(rng.choice([MeldKind.KONG, MeldKind.CONCEALED_KONG]), tiles))
        elif rng.random() < 0.3:
            melds.append(Meld(MeldKind.CHOW if kind == "chow" else MeldKind.PUNG, tiles))
        else:
            concealed.extend(tiles)
    pair = rng.choice([i for i in range(34) if used[i] <= 2])
    concealed += [KINDS[pair]] * 2
    return _request(rng, concealed, melds)


def _request(rng: random.Random, tiles: list[Any], melds: list[Meld]) -> WinRequest:
    rng.shuffle(tiles)
    win = tiles.pop()
    self_drawn = rng.random() < 0.5
    return WinRequest(
        Hand(tuple(tiles), tuple(melds)),
        win,
        self_drawn=self_drawn,
        seat_wind=Wind(rng.randrange(4)),
        last_tile=rng.random() < 0.1,
        robbing_kong=not self_drawn and rng.random() < 0.05,
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_chosen_arrangement_is_the_best_and_within_the_limits(rng: random.Random) -> None:
    request = random_winning_request(rng)
    result = OPEN.score(request)
    assert result.valid, (str(request.hand), request.win_tile, result.error)
    values = [
        OPEN.limited(e)
        for ctx in build_contexts(request, common_arrangements)
        if (e := evaluate(OPEN.patterns, [ctx])) is not None
    ]
    assert result.total == max(values)
    assert all(result.total >= v for v in values)
    assert 1 <= result.total <= 480
    listed = [f for f in result.fans if f.points >= 320]
    if listed:  # a listed limit stands alone
        assert len(result.fans) == 1
    else:
        assert result.total == min(320, sum(f.points * f.count for f in result.fans))
    series = [".".join(str(f.id).split(".")[:2]) for f in result.fans]
    assert len(series) == len(set(series))  # at most one pattern per series


@settings(max_examples=100, deadline=None)
@given(st.randoms(use_true_random=False))
def test_self_draw_never_scores_less_and_tile_order_does_not_matter(rng: random.Random) -> None:
    request = random_winning_request(rng)
    base = {f: getattr(request, f) for f in ("hand", "win_tile", "seat_wind")}
    by_discard = OPEN.score(WinRequest(**base))
    by_draw = OPEN.score(WinRequest(**base, self_drawn=True))
    assert by_draw.total >= by_discard.total
    shuffled = list(request.hand.concealed)
    rng.shuffle(shuffled)
    base_rest = {"win_tile": request.win_tile, "seat_wind": request.seat_wind}
    again = OPEN.score(WinRequest(Hand(tuple(shuffled), request.hand.melds), **base_rest))
    assert again.total == by_discard.total


_FLAGS = st.fixed_dictionaries(
    {
        "self_drawn": st.booleans(),
        "robbing_kong": st.booleans(),
        "kong_replacement": st.booleans(),
        "flowers": st.integers(-1, 3),
    }
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(KINDS), max_size=16), st.sampled_from(KINDS), _FLAGS)
def test_fuzzed_requests_never_crash(tiles: list[Any], win: Any, flags: dict[str, Any]) -> None:
    extras = {"discards": [(0, win)], "seat": 1}
    request = WinRequest(Hand(tuple(tiles)), win, extras=extras, **flags)
    result = RULES.score(request)
    assert result.valid or result.error
    if not result.valid and result.total == 0:
        assert result.error and len(result.error) > 10


def test_registry_finds_zung_jung_by_alias_with_options() -> None:
    legacy = find_rules("wmc", profile="mahjongtime-legacy")
    assert isinstance(legacy, ZungJung)
    assert legacy.table.value("4.2.3") == 115
    # example 1 under the legacy values: 115 + 5 + 40
    from engine.notation import parse_hand, parse_tile

    req = WinRequest(parse_hand("222s444m666p888pW"), parse_tile("W"), self_drawn=True)
    assert legacy.score(req).total == 160
    assert ZungJung(values={"4.1": 35}).score(req).total == 165


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="123456789mspfESWNCFP[]{}<> ", max_size=30), st.sampled_from(KINDS))
def test_fuzzed_hand_text_never_crashes(text: str, win: Any) -> None:
    from engine.notation import NotationError, parse_hand

    try:
        hand = parse_hand(text)
    except NotationError:
        return
    result = RULES.score(WinRequest(hand, win))
    assert result.valid or result.error
