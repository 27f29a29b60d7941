"""The seeded simulator: same seed, same game; every play legal; matches end at 12."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.gouji.cards import Rank, deck_problems, full_deck
from engine.gouji.events import CardsPlayed, GameOver, Play, PlayerOut
from engine.gouji.options import GoujiOptions, find_variant
from engine.gouji.simulate import simulate_game, simulate_match, simulate_short_game
from engine.gouji.table import GoujiGame


def test_same_seed_same_game() -> None:
    assert simulate_game(11) == simulate_game(11)
    assert simulate_game(11).actions != simulate_game(12).actions


@pytest.mark.parametrize("variant", ["qingdao", "bie-san", "tribute", "tcy"])
def test_replaying_the_actions_gives_the_same_events(variant: str) -> None:
    """Every recorded play is legal: a strict table replays them to the same end."""
    options = find_variant(variant)
    game = simulate_game(3, options)
    table = GoujiGame(
        game.hands, game.leader, options, revolutionary=game.revolutionary, strict=True
    )
    events = [event for action in game.actions for event in table.apply(action).events]
    assert tuple(events) == game.events
    assert isinstance(events[-1], GameOver) and events[-1].finish_order == game.result.finish_order
    played = Counter(c for a in game.actions if isinstance(a, Play) for c in a.cards)
    assert sum(played.values()) + sum(map(len, table.hands)) == sum(map(len, game.hands))


def test_many_games_conserve_cards_and_finish() -> None:
    for seed in range(40):
        game = simulate_game(seed, find_variant("bie-san") if seed % 2 else None)
        assert deck_problems(game.hands, game.set_aside) == []
        outs = [e.seat for e in game.events if isinstance(e, PlayerOut)]
        assert outs == list(game.result.finish_order[: len(outs)]) or game.revolutionary is not None


def test_bie_san_games_end_on_threes() -> None:
    """憋三: every player who went out played his 3s last."""
    options = find_variant("bie-san")
    for seed in range(10):
        game = simulate_game(seed, options)
        assert all(
            any(c.rank is Rank.THREE for c in hand)
            for seat, hand in enumerate(game.hands)
            if seat != game.revolutionary
        )
        last_play: dict[int, CardsPlayed] = {}
        for event in game.events:
            if isinstance(event, CardsPlayed):
                last_play[event.seat] = event
        for event in game.events:
            if isinstance(event, PlayerOut):
                assert {c.rank for c in last_play[event.seat].cards} == {Rank.THREE}


def test_a_match_runs_to_twelve() -> None:
    match = simulate_match(5)
    assert match.score.winner is not None and max(match.score.points) >= 12
    assert match.games[0].reopened
    for before, after in zip(match.games, match.games[1:], strict=False):
        if not after.reopened:
            assert after.leader == before.result.last  # the 大落 leads (§3)


def test_tribute_moves_cards_between_games() -> None:
    match = simulate_match(2, GoujiOptions(tribute=True, kaidian=True), max_games=6)
    given = [t for game in match.games for t in game.tribute]
    assert given and all(t.card.rank.is_wild for t in given if t.kind != "还贡")
    for game in match.games:
        assert deck_problems(game.hands, game.set_aside) == []


def test_meeting_threes_sets_them_aside() -> None:
    game = simulate_game(4, GoujiOptions(meet_threes=True))
    assert len(game.set_aside) == 16
    assert deck_problems(game.hands, game.set_aside) == []


def test_a_short_game_deals_few_cards_and_plays_to_the_end() -> None:
    game = simulate_short_game(5, 6)
    assert game == simulate_short_game(5, 6) and game.actions != simulate_short_game(6, 6).actions
    assert [len(hand) for hand in game.hands] == [6] * 6
    dealt = Counter(card for hand in game.hands for card in hand)
    assert not dealt - Counter(full_deck())  # drawn from the four packs
    replay = GoujiGame(game.hands, game.leader, GoujiOptions(), strict=True)
    for action in game.actions:
        replay.apply(action)
    assert replay.result == game.result and sorted(game.result.finish_order) == list(range(6))
    with pytest.raises(ValueError, match="cards per seat"):
        simulate_short_game(1, 37)
