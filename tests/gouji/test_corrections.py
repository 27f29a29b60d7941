"""Referee corrections at a Gouji table (engine/gouji/corrections.py): a misread play
superseded, a wrongly inferred pass dropped or replaced, an illegal correction refused with
nothing changed, and a correction replayed the same from a journal."""

from __future__ import annotations

import dataclasses

from engine.actions import Action, Correction, action_to_dict
from engine.events import Event, to_dict
from engine.gouji.match_table import GoujiTable
from engine.gouji.simulate import simulate_match, table_actions
from engine.gouji.table_events import GoujiPass, GoujiPlay, GoujiStart
from engine.table.events import public_form

START = 1767225600.0
#: Seat 0 leads; its lone Td is the camera's misread "Tc Td" (it holds both, so the pair is
#: legal and the misread derails the trick: seat 1's single J is then the wrong count).
HANDS = (
    "Tc Td 9s 9h K",
    "J Q 8 8 A",
    "Q K 7 7 6",
    "K A 6 6 5",
    "A 9 5 5 7",
    "8 9 T J Q",
)
DEAL = GoujiStart(hands=HANDS, leader=0)


def _table(actions: list[Action]) -> tuple[GoujiTable, list[Event]]:
    table = GoujiTable(table_id="G1", seed=4)
    events: list[Event] = []
    for n, action in enumerate(actions):
        events += table.apply(dataclasses.replace(action, at=START + n))
    return table, events


def _correct(table: GoujiTable, event: Event, replacement: Action | None) -> list[Event]:
    correction = Correction(supersedes=event.event_id, replacement=replacement, reason="referee")
    return table.apply(dataclasses.replace(correction, at=START + 100))


def _kinds(events: list[Event]) -> list[str]:
    return [e.type if e.type != "violation" else f"violation:{to_dict(e)['kind']}" for e in events]


def _misread_game() -> tuple[GoujiTable, list[Event]]:
    return _table(
        [
            DEAL,
            GoujiPlay(seat=0, cards="Tc Td", camera=True),  # a lone Td misread
            GoujiPlay(seat=1, cards="J", camera=True),  # refused: one card against two
            GoujiPlay(seat=2, cards="Q", camera=True),
        ]
    )


def test_a_misread_play_is_corrected_and_the_plays_after_it_stand() -> None:
    table, events = _misread_game()
    assert "violation:wrong_count" in _kinds(events)
    misread = next(e for e in events if e.type == "cards_played")
    applied = _correct(table, misread, GoujiPlay(seat=0, cards="Td"))
    assert _kinds(applied) == ["correction_applied"]
    body = to_dict(applied[0])
    assert body["supersedes"] == misread.event_id and body["reason"] == "referee"
    assert body["replacement"] == {"action": "gouji_play", "seat": 0, "cards": "Td"}
    assert body["seq"] == events[-1].seq + 1  # the replay publishes nothing but this event
    state = table.snapshot()
    assert [(p["seat"], p["cards"]) for p in state["trick"]["plays"]] == [
        (0, ["Td"]),
        (1, ["J"]),
        (2, ["Q"]),
    ]
    assert [s["cards_left"] for s in state["seats"]] == [4, 4, 4, 5, 5, 5]
    assert state["turn"] == 3
    assert table.private_snapshot()["hands"][0] == ["Tc", "9s", "9h", "K"]
    # the play after it goes on from the corrected state
    assert _kinds(table.apply(GoujiPlay(seat=3, cards="K", at=START + 101))) == ["cards_played"]


def test_a_correction_is_replayed_the_same_from_the_journal() -> None:
    _, events = _misread_game()
    misread = next(e for e in events if e.type == "cards_played")
    correction = Correction(supersedes=misread.event_id, replacement=GoujiPlay(seat=0, cards="Td"))
    actions: list[Action] = [
        DEAL,
        GoujiPlay(seat=0, cards="Tc Td", camera=True),
        GoujiPlay(seat=1, cards="J", camera=True),
        GoujiPlay(seat=2, cards="Q", camera=True),
        correction,
    ]
    first, first_events = _table(actions)
    again, again_events = _table(actions)
    assert [to_dict(e) for e in first_events] == [to_dict(e) for e in again_events]
    assert first_events[-1].type == "correction_applied"
    assert first.snapshot() == again.snapshot()


def test_a_wrongly_inferred_pass_is_dropped() -> None:
    table, events = _table(
        [DEAL, GoujiPlay(seat=0, cards="Td", camera=True), GoujiPass(seat=1, inferred=True)]
    )
    assert table.snapshot()["turn"] == 2
    passed = next(e for e in events if e.type == "passed")
    assert _kinds(_correct(table, passed, None)) == ["correction_applied"]
    assert table.snapshot()["turn"] == 1  # seat 1 is to act again
    # superseding the same event again: the dropped pass comes back, and goes again
    assert _kinds(_correct(table, passed, GoujiPass(seat=1))) == ["correction_applied"]
    assert table.snapshot()["turn"] == 2
    assert _kinds(_correct(table, passed, None)) == ["correction_applied"]
    assert _kinds(table.apply(GoujiPlay(seat=1, cards="J", at=START + 101))) == ["cards_played"]
    # now the pass cannot come back: seat 1's play after it would be out of turn
    refused = _correct(table, passed, GoujiPass(seat=1))
    assert _kinds(refused) == ["violation:correction_refused"]
    assert "out_of_turn" in to_dict(refused[0])["detail"]


def test_an_inferred_pass_is_replaced_by_the_play_the_camera_missed() -> None:
    table, events = _table(
        [
            DEAL,
            GoujiPlay(seat=0, cards="Td", camera=True),
            GoujiPass(seat=1, inferred=True),
            GoujiPlay(seat=2, cards="Q", camera=True),
        ]
    )
    passed = next(e for e in events if e.type == "passed")
    assert _kinds(_correct(table, passed, GoujiPlay(seat=1, cards="J"))) == ["correction_applied"]
    plays = table.snapshot()["trick"]["plays"]
    assert [(p["seat"], p["cards"]) for p in plays] == [(0, ["Td"]), (1, ["J"]), (2, ["Q"])]


def test_an_illegal_replacement_is_refused_and_nothing_changes() -> None:
    table, events = _misread_game()
    misread = next(e for e in events if e.type == "cards_played")
    before, hands, seq = table.snapshot(), table.private_snapshot(), table.seq
    refused = _correct(table, misread, GoujiPlay(seat=0, cards="Td Td Td"))
    assert _kinds(refused) == ["violation:correction_refused"]
    detail = to_dict(refused[0])["detail"]
    assert "the replacement, seat 0's play 'Td Td Td', is illegal" in detail, detail
    assert "cards_not_in_hand" in detail and "nothing changed" in detail
    assert table.snapshot() == before and table.private_snapshot() == hands
    assert table.seq == seq + 1  # the refusal is recorded, for the referee
    # the misread can still be corrected after a refusal
    assert _kinds(_correct(table, misread, GoujiPlay(seat=0, cards="Td"))) == ["correction_applied"]


def test_a_correction_that_breaks_a_later_legal_play_is_refused() -> None:
    table, events = _table(
        [
            DEAL,
            GoujiPlay(seat=0, cards="Td", camera=True),
            GoujiPlay(seat=1, cards="J", camera=True),
        ]
    )
    lead, answer = (e for e in events if e.type == "cards_played")
    before = table.snapshot()
    refused = _correct(table, lead, GoujiPlay(seat=0, cards="K"))  # legal itself
    detail = to_dict(refused[0])["detail"]
    assert f"seat 1's play 'J' (camera) (event {answer.event_id}) would become illegal" in detail
    assert table.snapshot() == before


def test_unknown_events_and_non_game_replacements_are_refused() -> None:
    table, events = _misread_game()
    before = table.snapshot()
    unknown = table.apply(Correction(supersedes="no-such-event", at=START + 50))
    assert _kinds(unknown) == ["violation:unknown_event"]
    assert "'no-such-event'" in to_dict(unknown[0])["detail"]
    violation = next(e for e in events if e.type == "violation")  # made by seat 1's J: known
    fault = table.apply(
        Correction(supersedes=violation.event_id, replacement=Correction(supersedes="x"))
    )
    assert _kinds(fault) == ["violation:correction_refused"]
    assert table.snapshot() == before


def test_a_corrected_deal_is_concealed_on_public_topics() -> None:
    table, events = _table([DEAL])
    new_hands = (HANDS[1], HANDS[0], *HANDS[2:])
    applied = _correct(table, events[0], GoujiStart(hands=new_hands, leader=1))
    assert to_dict(applied[0])["replacement"]["hands"] == list(new_hands)
    assert to_dict(public_form(applied[0]))["replacement"]["hands"] is None
    assert table.snapshot()["turn"] == 1
    assert action_to_dict(GoujiPass(seat=1))["action"] == "gouji_pass"


def test_a_correction_replays_a_whole_match_to_the_same_state() -> None:
    """Superseding a play of the first game by itself, two games on: the replay (every game
    action since the table started) rebuilds exactly the state the table had."""
    match = simulate_match(5, max_games=2)
    actions = [a for game in match.games for a in table_actions(game)]
    table, events = _table(actions)
    first_play = next(e for e in events if e.type == "cards_played")
    before, hands = table.snapshot(), table.private_snapshot()
    assert before["match"]["games"] == 2
    original = next(a for a in actions if isinstance(a, GoujiPlay))
    assert _kinds(_correct(table, first_play, original)) == ["correction_applied"]
    assert table.snapshot() == before and table.private_snapshot() == hands
