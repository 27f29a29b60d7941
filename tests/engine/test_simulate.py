"""The game simulator: deterministic, replayable through the wall, legal, wins >= 8 points."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.notation import format_botzone_tile
from engine.procedures import LOG, NATIONAL, WSOM, Procedure
from engine.simulate import PlayVerb, SimulatedGame, SimulatedHand, simulate_game
from engine.simulate.types import SimulatedWin, winning_shape_problem
from engine.tiles import MeldKind, RelativeSeat, Tile
from engine.timing import TurnClock, limits_for
from engine.wall import Wall, procedure_tiles

SEEDS = range(6)


@cache
def game(procedure: Procedure, seed: int) -> SimulatedGame:
    return simulate_game(procedure, seed, 5)


def all_hands(procedure: Procedure) -> list[SimulatedHand]:
    return [h for seed in SEEDS for h in game(procedure, seed).hands]


def test_same_seed_same_game_and_different_seeds_differ() -> None:
    assert simulate_game(WSOM, 11, 2) == simulate_game(WSOM, 11, 2)
    assert simulate_game(WSOM, 11, 2).hands[0].wall != simulate_game(WSOM, 12, 2).hands[0].wall


def test_designed_washouts_dealer_rotation_and_log_refused() -> None:
    hands = game(WSOM, 0).hands
    assert hands[4].washout and hands[4].plays[-1].verb is PlayVerb.WASHOUT
    assert [h.dealer for h in hands] == [0, 1, 2, 3, 0]
    assert [h.prevailing_wind for h in game(NATIONAL, 0).hands][:1] != [None]
    assert hands[0].prevailing_wind is None
    with pytest.raises(ValueError, match="'log' has no wall"):
        simulate_game(LOG, 0, 1)


@pytest.mark.parametrize("procedure", [WSOM, NATIONAL], ids=lambda p: p.name)
def test_most_hands_end_in_wins_with_melds_of_every_kind(procedure: Procedure) -> None:
    hands = all_hands(procedure)
    wins = [h for h in hands if h.win]
    assert len(wins) >= len(hands) * 0.7
    verbs = Counter(p.verb for h in hands for p in h.plays)
    for verb in (PlayVerb.CHOW, PlayVerb.PUNG, PlayVerb.KONG, PlayVerb.CONCEALED_KONG):
        assert verbs[verb] > 0, verb
    assert {w.win.self_drawn for w in wins if w.win} == {True, False}
    assert (verbs[PlayVerb.FLOWER] > 0) == procedure.flowers


@pytest.mark.parametrize("procedure", [WSOM, NATIONAL], ids=lambda p: p.name)
def test_replay_through_the_wall_and_the_rules(procedure: Procedure) -> None:
    for hand in all_hands(procedure):
        replay(procedure, hand)


def replay(procedure: Procedure, hand: SimulatedHand) -> None:
    """Re-run a hand's plays against a known-order wall, checking legality on the way."""
    assert Counter(hand.wall) == Counter(procedure_tiles(procedure))
    wall = Wall(procedure, wall_break=hand.wall_break, tiles=hand.wall, dealer=hand.dealer)
    assert wall.deal() == hand.deal
    concealed = [Counter(h) for h in hand.deal]
    melds = [0, 0, 0, 0]
    live_discard: tuple[int, Tile] | None = None
    turn = hand.dealer
    last_t = 0.0
    plays = hand.plays
    for i, play in enumerate(plays):
        assert play.t >= last_t
        last_t = play.t
        seat = play.seat
        if play.verb is PlayVerb.DEAL:
            continue
        assert seat is not None or play.verb is PlayVerb.WASHOUT
        if play.verb is PlayVerb.DRAW:
            assert seat is not None
            if play.replacement:
                assert wall.draw_replacement(play.tile) == play.tile
            else:
                assert live_discard is None or seat == (live_discard[0] + 1) % 4
                assert seat == turn or live_discard is not None
                assert wall.draw(play.tile) == play.tile
                turn, live_discard = seat, None
            concealed[seat][play.tile] += 1  # type: ignore[index]
        elif play.verb is PlayVerb.FLOWER:
            assert seat is not None and play.tile is not None and play.tile.is_flower
            concealed[seat][play.tile] -= 1
        elif play.verb is PlayVerb.DISCARD:
            assert seat == turn and play.tile is not None
            assert concealed[seat][play.tile] > 0
            concealed[seat][play.tile] -= 1
            assert sum(concealed[seat].values()) + 3 * melds[seat] == 13
            assert not any(t.is_flower for t in concealed[seat].elements())
            live_discard = (seat, play.tile)
        elif play.verb in (PlayVerb.CHOW, PlayVerb.PUNG, PlayVerb.KONG):
            assert live_discard is not None and seat is not None and play.meld is not None
            assert not wall.exhausted, "claim on the river-bottom tile"
            discarder, tile = live_discard
            assert play.from_seat == discarder and play.tile == tile and seat != discarder
            if play.verb is PlayVerb.CHOW:
                assert RelativeSeat.between(seat, discarder) is RelativeSeat.UPPER
            rest = Counter(play.meld.tiles) - Counter([tile])
            assert not rest - concealed[seat]
            concealed[seat] -= rest
            melds[seat] += 1
            turn, live_discard = seat, None
        elif play.verb in (PlayVerb.CONCEALED_KONG, PlayVerb.ADDED_KONG):
            assert seat == turn and live_discard is None and play.tile is not None
            assert wall.live >= 1, "kong without a replacement tile"
            assert plays[i - 1].verb is PlayVerb.DRAW or (
                i > 0 and plays[i - 1].verb is PlayVerb.DEAL
            )
            if play.verb is PlayVerb.CONCEALED_KONG:
                assert concealed[seat][play.tile] == 4  # type: ignore[index]
                concealed[seat][play.tile] = 0  # type: ignore[index]
                melds[seat] += 1
            else:
                concealed[seat][play.tile] -= 1  # type: ignore[index]
        elif play.verb is PlayVerb.WIN:
            assert i == len(plays) - 1 and hand.win is not None and seat == hand.win.seat
            check_win(hand.win, concealed[seat], live_discard)
        else:
            assert play.verb is PlayVerb.WASHOUT and i == len(plays) - 1
            assert wall.exhausted and live_discard is not None
    if hand.washout:
        assert wall.dealt + wall.drawn + wall.replacements == procedure.live_tiles


def check_win(win: SimulatedWin, concealed: Counter[Tile], live: tuple[int, Tile] | None) -> None:
    if win.self_drawn:
        assert live is None
        concealed = concealed - Counter([win.tile])
    else:
        assert live is not None and live == (win.discarder, win.tile)
    assert Counter(win.hand.concealed) == concealed
    assert winning_shape_problem(win.hand, win.tile) is None


def mcr_points(win: SimulatedWin, seat_wind: int, prevalent: int) -> int:
    mahjong = pytest.importorskip("MahjongGB")
    packs = []
    for meld in win.hand.melds:
        code = format_botzone_tile(
            meld.tiles[0] if meld.kind is not MeldKind.CHOW else meld.tiles[1]
        )
        if meld.kind is MeldKind.CHOW:
            offer = meld.tiles.index(meld.claimed) + 1 if meld.claimed else 1
            packs.append(("CHI", code, offer))
        elif meld.kind is MeldKind.CONCEALED_KONG:
            packs.append(("GANG", code, 0))
        else:
            offer = {RelativeSeat.UPPER: 1, RelativeSeat.OPPOSITE: 2, RelativeSeat.LOWER: 3}
            kind = "PENG" if meld.kind is MeldKind.PUNG else "GANG"
            packs.append((kind, code, offer[meld.source] if meld.source else 1))
    fans = mahjong.MahjongFanCalculator(
        tuple(packs),
        tuple(format_botzone_tile(t) for t in win.hand.concealed),
        format_botzone_tile(win.tile),
        0,
        win.self_drawn,
        False,
        win.kong_replacement,
        win.last_tile,
        seat_wind,
        prevalent,
    )
    return sum(points for points, _name in fans)


@pytest.mark.parametrize("procedure", [WSOM, NATIONAL], ids=lambda p: p.name)
def test_every_simulated_win_scores_at_least_8_mcr_points(procedure: Procedure) -> None:
    for hand in all_hands(procedure):
        if hand.win:
            wind = hand.prevailing_wind.value if hand.prevailing_wind else 0
            points = mcr_points(hand.win, (hand.win.seat - hand.dealer) % 4, wind)
            assert points >= 8, (hand.win.pattern, str(hand.win.hand), hand.win.tile)


def test_simulated_timestamps_respect_the_wsom_time_limits() -> None:
    for hand in all_hands(WSOM):
        clock = TurnClock(limits_for(WSOM), hand.start, dealer=hand.dealer)
        clock.on_turn_start(hand.dealer, hand.start)
        for play in hand.plays:
            if play.seat is None:
                continue
            if play.verb is PlayVerb.DRAW or play.verb in (PlayVerb.CHOW, PlayVerb.PUNG):
                if clock.current_turn != play.seat or play.verb is not PlayVerb.DRAW:
                    clock.on_turn_start(play.seat, play.at)
            elif play.verb is PlayVerb.DISCARD:
                assert clock.on_discard(play.seat, play.at) == []
            elif play.verb is PlayVerb.WIN:
                assert clock.on_win(play.seat, play.at) == []


def test_slow_play_produces_overtime_that_the_clock_reports() -> None:
    hand = simulate_game(WSOM, 4, 1, slow_play=0.5).hands[0]
    clock = TurnClock(limits_for(WSOM), hand.start, dealer=hand.dealer)
    clock.on_turn_start(hand.dealer, hand.start)
    overtimes = []
    for play in hand.plays:
        if play.seat is None:
            continue
        if play.verb in (PlayVerb.CHOW, PlayVerb.PUNG) or (
            play.verb is PlayVerb.DRAW and clock.current_turn != play.seat
        ):
            clock.on_turn_start(play.seat, play.at)
        elif play.verb is PlayVerb.DISCARD:
            overtimes += clock.on_discard(play.seat, play.at)
    assert overtimes and all(o.penalty_points >= 5 for o in overtimes)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**63), procedure=st.sampled_from([WSOM, NATIONAL]))
def test_any_seed_gives_a_legal_replayable_game(seed: int, procedure: Procedure) -> None:
    for hand in simulate_game(procedure, seed, 2, washout_every=2).hands:
        replay(procedure, hand)
        if hand.win:
            assert winning_shape_problem(hand.win.hand, hand.win.tile) is None
