"""Camera-only play with kongs laid face down, shown (or not) at any moment: whatever order the
actions come in, the engine never raises, scores stay zero-sum, a win is scored at most once
and the published totals always match the hands' ends."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import actions as act
from engine.events import to_dict
from engine.notation import parse_hand, parse_tile
from engine.table import Table

SEATS = st.integers(min_value=0, max_value=3)
KINDS = st.sampled_from(["5p", "5p", "E", "N", "9s", "1m", "C"]).map(parse_tile)
SETS = st.permutations(["123m", "456s", "789p", "345s", "EEE", "NNN"])
STEPS = st.one_of(
    st.tuples(st.just("play"), KINDS),  # the seat to play draws and discards
    st.tuples(st.just("face_down_kong"), KINDS),  # ... after laying a kong face down
    st.tuples(st.just("win"), st.integers(1, 3), SETS),  # on a 5p: sets and a 5p to pair it
    st.tuples(st.just("show_kong"), SEATS, KINDS),
    st.tuples(st.just("next_hand")),
)


def _actions(table: Table, step: tuple[object, ...]) -> list[act.Action]:
    """``step`` as actions, played by whoever's turn it is (the camera's view of a table)."""
    kind = step[0]
    hand = table.snapshot().get("hand") or {}
    turn = int(hand.get("turn") or 0)
    if kind == "next_hand":
        return [act.HandStart(), *(act.Deal(seat=seat, count=13) for seat in range(4))]
    if kind == "play":
        return [act.Draw(seat=turn), act.Discard(seat=turn, tile=step[1])]  # type: ignore[arg-type]
    if kind == "face_down_kong":
        discard = act.Discard(seat=turn, tile=step[1])  # type: ignore[arg-type]
        return [act.Draw(seat=turn), act.ConcealedKong(seat=turn), act.Draw(seat=turn), discard]
    if kind == "show_kong":  # mostly by a seat with a kong face down
        down = [i for i, seat in enumerate(hand.get("seats", [])) if seat["face_down_kongs"]]
        seat = down[int(step[1]) % len(down)] if down else int(step[1])  # type: ignore[call-overload]
        return [act.ShowKong(seat=seat, tile=step[2])]  # type: ignore[arg-type]
    seat = (turn + int(step[1])) % 4  # type: ignore[call-overload]
    shown = hand["seats"][seat] if hand else {"melds": [], "face_down_kongs": 0}
    sets = 4 - len(shown["melds"]) - int(shown["face_down_kongs"])
    chosen = list(step[2])[: max(sets, 0)]  # type: ignore[call-overload]
    win = act.Win(seat=seat, hand=parse_hand(" ".join([*chosen, "5p"])))
    return [act.Draw(seat=turn), act.Discard(seat=turn, tile=parse_tile("5p")), win]


@settings(max_examples=300, deadline=None)
@given(st.lists(STEPS, max_size=30))
def test_face_down_kongs_in_any_order_keep_the_books_straight(steps: list) -> None:  # type: ignore[type-arg]
    table = Table("log", rules="mcr")
    scored: set[str] = set()
    ends: dict[int, dict[str, object]] = {}
    for step in [("next_hand",), *steps]:
        events = [e for action in _actions(table, step) for e in table.apply(action)]
        for event in map(to_dict, events):
            if event["type"] == "win_scored":
                assert event["win_event"] not in scored  # once per win
                scored.add(str(event["win_event"]))
                assert sum(event["deltas"]) == 0
            if event["type"] == "hand_ended":
                ends[int(event["hand_number"])] = event  # a later one restates the hand
        assert sum(table.scores) == 0
    net = [sum(int(e["deltas"][i]) for e in ends.values()) for i in range(4)]  # type: ignore[index]
    assert net == table.scores  # the hands' last ends add up to the totals
