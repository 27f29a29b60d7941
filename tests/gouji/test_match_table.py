"""GoujiTable: a match's games in the service's envelope, snapshots and violations."""

from __future__ import annotations

import dataclasses

import pytest

from engine.actions import Action, action_from_dict, action_to_dict
from engine.events import from_dict, to_dict
from engine.gouji.match_table import GoujiTable
from engine.gouji.simulate import simulate_match, table_actions
from engine.gouji.table_events import GOUJI_EVENT_SCHEMA, GoujiPass, GoujiPlay, GoujiStart
from engine.table.events import public_form

START = 1767225600.0


def _play(table: GoujiTable, actions: list[Action], first: int = 0) -> list[dict[str, object]]:
    out = []
    for i, action in enumerate(actions, start=first):
        out += [to_dict(e) for e in table.apply(dataclasses.replace(action, at=START + i))]
    return out


def test_a_match_in_the_envelope() -> None:
    match = simulate_match(5)
    table = GoujiTable(table_id="T7", seed=3)
    events: list[dict[str, object]] = []
    for game in match.games:
        events += _play(table, table_actions(game), len(events))
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert {e["schema"] for e in events} == {GOUJI_EVENT_SCHEMA}
    assert {e["table"] for e in events} == {"T7"} and {e["epoch"] for e in events} == {1}
    assert len({e["event_id"] for e in events}) == len(events)
    assert not [e for e in events if e["type"] == "violation"]
    overs = [e for e in events if e["type"] == "game_over"]
    assert [tuple(e["finish_order"]) for e in overs] == [g.result.finish_order for g in match.games]
    assert tuple(overs[-1]["match"]) == match.score.points
    assert overs[-1]["match_winner"] == match.score.winner
    for event in events:
        assert to_dict(from_dict(event)) == event
    snap = table.snapshot()
    assert snap["match"]["points"] == list(match.score.points)
    assert [f["seat"] for f in snap["finish_order"]] == list(match.games[-1].result.finish_order)


def test_same_actions_same_events() -> None:
    game = simulate_match(2).games[0]
    first = _play(GoujiTable(table_id="T1", seed=9), table_actions(game))
    assert first == _play(GoujiTable(table_id="T1", seed=9), table_actions(game))


def test_hands_are_concealed_on_public_topics() -> None:
    game = simulate_match(2).games[0]
    table = GoujiTable(table_id="T1")
    (started,) = table.apply(dataclasses.replace(table_actions(game)[0], at=START))
    assert to_dict(started)["hands"] is not None
    assert to_dict(public_form(started))["hands"] is None
    assert table.private_snapshot()["hands"][0]
    assert "hands" not in str(table.snapshot())


def _started(leader: int = 0) -> GoujiTable:
    table = GoujiTable(table_id="T1")
    hands = ["7 7 7 8 9 9", "8 8 8 K", "3 4", "5 5 5 2", "6", "Q Q Q"]
    table.apply(GoujiStart(hands=tuple(hands), leader=leader, at=START))
    return table


def test_illegal_plays_are_violations_and_cost_the_turn() -> None:
    table = _started()
    out_of_turn = [to_dict(e) for e in table.apply(GoujiPlay(seat=3, cards="5", at=START))]
    assert [(e["type"], e["kind"]) for e in out_of_turn] == [("violation", "out_of_turn")]
    expected = {"action": "gouji_play", "seat": 3, "cards": "5", "at": START}
    assert out_of_turn[0]["action"] == expected
    lead = [to_dict(e) for e in table.apply(GoujiPlay(seat=0, cards="7 7 7", at=START))]
    assert lead[0]["type"] == "cards_played" and lead[0]["role"] == "lead"
    assert lead[0]["report"] is True and lead[0]["cards_left"] == 3
    weak = [to_dict(e) for e in table.apply(GoujiPlay(seat=1, cards="8 8", at=START))]
    assert [e["type"] for e in weak] == ["violation", "passed"]
    assert weak[0]["kind"] == "wrong_count"
    snap = table.snapshot()
    assert snap["turn"] == 2 and snap["trick"]["leader"] == 0
    assert snap["trick"]["plays"] == [
        {"seat": 0, "cards": ["7", "7", "7"], "role": "lead", "gouji": False, "tongpai": False}
    ]
    assert [s["report"] for s in snap["seats"]] == [True] * 6
    bad = [to_dict(e) for e in table.apply(GoujiPlay(seat=2, cards="Z", at=START))]
    assert bad[0]["kind"] == "bad_action" and "'Z'" in bad[0]["detail"]


def test_a_finished_seat_is_placed() -> None:
    table = _started(leader=4)
    events = [to_dict(e) for e in table.apply(GoujiPlay(seat=4, cards="6", at=START))]
    out = [e for e in events if e["type"] == "player_out"]
    assert out == [dict(out[0], seat=4, place=1, place_name="头科")]
    assert table.snapshot()["finish_order"] == [{"seat": 4, "place": 1, "place_name": "头科"}]
    assert table.snapshot()["alliances"] == [4, 0]


@pytest.mark.parametrize(
    "action",
    [
        GoujiPlay(seat=1, cards="8 8 2 BJ", at=5.0),
        GoujiPass(seat=4),
        GoujiStart(hands=("3", "4", "5", "6", "7", "8"), leader=2, revolutionary=5),
    ],
)
def test_actions_have_one_json_form(action: Action) -> None:
    assert action_from_dict(action_to_dict(action)) == action


def test_a_mahjong_action_is_a_violation() -> None:
    table = _started()
    (event,) = table.apply(action_from_dict({"action": "washout"}))
    assert to_dict(event)["kind"] == "bad_action"


def test_a_start_with_more_cards_than_four_packs_is_refused() -> None:
    table = GoujiTable(table_id="T1")
    (event,) = table.apply(GoujiStart(hands=("3 " * 40,) * 6, leader=0))
    assert to_dict(event)["kind"] == "bad_action" and "216" in to_dict(event)["detail"]
    assert table.game is None and table.snapshot()["phase"] == "waiting"
