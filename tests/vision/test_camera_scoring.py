"""Wins scored from the camera alone: simulated hands laid out as exact detections (no model),
read by the reader, bridged into a camera-only table and compared with the truth's scores."""

from __future__ import annotations

import pytest

from models.evaluation.camera_scoring import ScoredHand, exact_scored_hands, win_summary


@pytest.mark.parametrize("seed", [4, 20, 37, 48, 55, 168, 183, 1000])
def test_every_simulated_win_scores_the_same_from_the_camera(seed: int) -> None:
    """Self-drawn wins (the draw unseen), wins on a discard, added and concealed kongs: the
    camera-only table finds the same winner, fans, total and payments, and raises nothing.
    Seed 37 adds a kong mid-hand (its meld row pushed along: ghosts of the old places), seeds 4
    and 20 win on the replacement draw of a kong added just before, seed 48 on a discard of the
    kind discarded just before it (the river still ends in that kind once it is taken), seed 55
    on a kong added beside a pung, which is pushed along and read in the hand row a moment;
    seed 168 adds a kong between two melds and discards at once, seed 183 wins with two identical
    chows shown."""
    scored = exact_scored_hands(seed, 4)
    assert all(h.truth is not None for h in scored)  # these seeds' hands all end in a win
    assert [h.line() for h in scored if not h.same or h.alerts] == []


def test_a_hand_scored_differently_is_told() -> None:
    win = {"type": "win_declared", "seat": 1, "self_drawn": True, "discarder": None}
    scored = {**win, "score": {"fans": [{"name": "Self Drawn"}], "total": 5}, "deltas": [1]}
    hand = ScoredHand(1, win_summary([scored]), win_summary([{**scored, "seat": 2}]))
    assert not hand.same and "differs" in hand.line()
    assert win_summary([{"type": "hand_ended"}]) is None
    assert win_summary([{**win, "score": None}]) == {
        "seat": 1,
        "self_drawn": True,
        "unscored": True,
    }


@pytest.mark.parametrize(
    ("procedure", "seed"), [("wsom", 1), ("wsom", 3), ("wsom", 6), ("national", 3), ("national", 6)]
)
def test_a_win_on_a_discard_the_camera_never_read_is_the_truths(procedure: str, seed: int) -> None:
    """The discard a win is made on is taken into the hand before the camera reads it (the full
    camera-only run, wsom hand 17): the seat due is inferred to have discarded it, the engine
    tells the tile from the hand laid down (the legal reading that scores the least), and the
    win, its discarder and payments are the truth's with no alert. It was taken for a
    self-drawn win out of turn: out_of_turn, and the whole table paying. These seeds win on the
    discard of the seat before, two before and three before the winner (whose own discard was
    then the last one read)."""
    scored = exact_scored_hands(seed, 4, procedure=procedure, hide=0, hide_won_on=True)
    discard_wins = [h for h in scored if h.truth and not h.truth["self_drawn"]]
    assert discard_wins, [h.line() for h in scored]
    assert [h.line() for h in scored if not h.same or h.alerts] == []
