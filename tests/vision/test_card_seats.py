"""Gouji plays through a card camera: rendered table frames written to real PNG and JPEG files,
decoded by OpenCV, read by the real card reader, sorted into seat zones and held until steady;
the steady plays bridged into a real game with passes inferred."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.gouji.notation import parse_cards
from engine.gouji.table import GoujiGame
from engine.gouji.table_events import GoujiPass, GoujiPlay
from models.cards.gouji_frames import GoujiTableRender
from vision.card_seats import (
    PlayWatcher,
    SeatZones,
    SeenPlay,
    TrickCleared,
    actions_for,
    dropout,
    next_action,
    ranks_of,
)
from vision.cards import CardRead, CardReader

# Three table states as one trick grows: seat 2 leads three 9s, seat 3 beats them with three
# kings (one a 2 attached), seat 5 with a pair of aces and the small joker; then seat 2 plays
# again (its 9s go onto the pile) with three 2s.
STATES = [
    {2: ["9h", "9s", "9d"]},
    {2: ["9h", "9s", "9d"], 3: ["Kc", "Ks", "2h"]},
    {2: ["9h", "9s", "9d"], 3: ["Kc", "Ks", "2h"], 5: ["Ad", "Ah", "BJ"]},
    {2: ["2s", "2d", "2c"], 3: ["Kc", "Ks", "2h"], 5: ["Ad", "Ah", "BJ"]},
]


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader()


def _zones(state: dict[int, list[str]]) -> list[list[str]]:
    return [state.get(seat, []) for seat in range(6)]


def test_rendered_table_files_read_back_as_plays_by_seat(
    reader: CardReader, tmp_path: Path
) -> None:
    render = GoujiTableRender(seed=4242)
    watcher = PlayWatcher(SeatZones.from_corners(render.corners), hold_frames=3)
    seen: list[SeenPlay | TrickCleared] = []
    laid, before = [0] * 6, _zones({})
    for number, state in enumerate([*STATES, {}], start=1):
        zones = _zones(state)
        laid = [number if z != b else n for z, b, n in zip(zones, before, laid, strict=True)]
        pile = {4: 3, 5: 12}.get(number, 0)  # seat 2's 9s, then the whole trick, face down
        before = zones
        frames = render.frames(zones, pile, 3, key=number, laid=laid)
        for k, frame in enumerate(frames):
            path = tmp_path / f"state{number}-{k}.{'png' if k % 2 else 'jpg'}"
            assert cv2.imwrite(str(path), frame)
            decoded = cv2.imread(str(path), cv2.IMREAD_COLOR)
            assert decoded is not None and decoded.shape == (1080, 1920, 3)
            seen += watcher.update(reader.read(decoded))
    plays = [(s.seat, s.cards) for s in seen if isinstance(s, SeenPlay)]
    assert plays == [
        (2, ("9d", "9h", "9s")),
        (3, ("2h", "Kc", "Ks")),
        (5, ("Ad", "Ah", "BJ")),
        (2, ("2c", "2d", "2s")),
    ]
    assert (
        isinstance(seen[-1], TrickCleared) and sum(isinstance(s, TrickCleared) for s in seen) == 1
    )
    assert [s.frame for s in seen if isinstance(s, SeenPlay)] == [1, 4, 7, 10]


def _read(code: str, x: float, y: float) -> CardRead:
    quad = np.array([[x - 5, y - 7], [x + 5, y - 7], [x + 5, y + 7], [x - 5, y + 7]], float)
    return CardRead(code, quad, 0.9, ())


def test_the_watcher_holds_a_read_for_its_frames_and_ignores_one_odd_frame() -> None:
    zones = SeatZones.from_boxes([(0, 0, 100, 100), (100, 0, 200, 100)])
    watcher = PlayWatcher(zones, hold_frames=3)
    pair = [_read("8h", 20, 50), _read("8s", 40, 50)]
    assert watcher.update(pair) == [] and watcher.update(pair) == []
    assert watcher.update([pair[0]]) == []  # a card not found for a frame: no count, no break
    assert watcher.update(pair) == [SeenPlay(0, ("8h", "8s"), 1)]
    assert watcher.update([*pair, _read("RJ", 150, 50)]) == []  # seat 1: not yet steady
    assert watcher.update([*pair, _read("Qd", 150, 50)]) == []  # a misread frame: run broken
    assert watcher.update([*pair, _read("RJ", 150, 50)]) == []
    assert watcher.update([*pair, _read("RJ", 150, 50), _read("RJ", 300, 50)]) == []  # outside
    assert watcher.counts()[0] == {"8h": 1, "8s": 1} and not watcher.counts()[1]
    assert watcher.update([*pair, _read("RJ", 150, 50)]) == [SeenPlay(1, ("RJ",), 7)]
    for _ in range(2):
        assert watcher.update([]) == []
    assert watcher.update([]) == [TrickCleared(12)]
    assert watcher.update([]) == []  # cleared once
    assert dropout(("8h",), ("8h", "8s")) and not dropout((), ("8h",))
    assert dropout(("8h",), ("8h", "8s", "8d")) and not dropout(("8h", "8s"), ("8h", "8s"))
    assert not dropout(("8h", "9s"), ("8h", "8s", "8d"))  # a card added: not a slip
    with pytest.raises(ValueError, match="hold_frames"):
        PlayWatcher(zones, hold_frames=0)


def test_a_primed_watcher_takes_the_cards_lying_there_for_no_new_play() -> None:
    zones = SeatZones.from_boxes([(0, 0, 100, 100), (100, 0, 200, 100)])
    watcher = PlayWatcher(zones, hold_frames=3)
    watcher.prime([["8s", "8h"], []])  # a reopened stream: the engine's current trick
    pair = [_read("8h", 20, 50), _read("8s", 40, 50)]
    for _ in range(4):
        assert watcher.update(pair) == []  # the same cards: nothing new
    for _ in range(2):
        assert watcher.update([*pair, _read("9d", 150, 50)]) == []
    assert watcher.update([*pair, _read("9d", 150, 50)]) == [SeenPlay(1, ("9d",), 5)]
    for _ in range(2):
        assert watcher.update([]) == []
    assert watcher.update([]) == [TrickCleared(10)]


def test_passes_are_inferred_from_the_next_seat_that_plays() -> None:
    hands = [parse_cards("3s 5s 8s Kd")] * 6
    game = GoujiGame(hands, leader=0)
    assert actions_for(SeenPlay(0, ("3s",), 1), game) == [
        GoujiPlay(seat=0, cards="3s", camera=True)
    ]
    got = actions_for(SeenPlay(3, ("8s",), 5), game)
    assert got == [
        GoujiPass(seat=1, inferred=True),
        GoujiPass(seat=2, inferred=True),
        GoujiPlay(seat=3, cards="8s", camera=True),
    ]
    assert game.to_act == 4
    # the trick gathered: every seat still waited on passed (after a play everybody gets a
    # turn, those who passed before it too); seat 3 leads the next
    cleared = actions_for(TrickCleared(9), game)
    assert [a.seat for a in cleared] == [4, 5, 0, 1, 2] and all(
        isinstance(a, GoujiPass) and a.inferred for a in cleared
    )
    assert game.current is None and game.to_act == 3
    assert next_action(TrickCleared(10), game, done=False) is None  # nothing live to pass
    # a play by a seat the game does not wait on goes over as it is: the engine objects
    wrong = actions_for(SeenPlay(5, ("Kd",), 12), game)
    assert wrong == [GoujiPlay(seat=5, cards="Kd", camera=True)] and game.to_act == 3


def test_zones_from_the_table_corners_leave_the_middle_for_the_pile() -> None:
    zones = SeatZones.from_corners([(0, 0), (200, 0), (200, 100), (0, 100)])
    spots = [(68, 80), (132, 80), (182, 50), (132, 20), (68, 20), (18, 50), (100, 50)]
    assert [zones.seat_at(p) for p in spots] == [0, 1, 2, 3, 4, 5, None]
    turned = SeatZones.from_corners([(100, 0), (100, 200), (0, 200), (0, 0)])  # camera turned
    assert turned.seat_at((20, 68)) == 0 and turned.seat_at((50, 182)) == 2


def test_a_card_invented_in_one_frame_gives_way_to_the_steady_read() -> None:
    zones = SeatZones.from_boxes([(0, 0, 100, 100)])
    watcher = PlayWatcher(zones, hold_frames=3)
    jacks = [_read("Jh", 20, 50), _read("Js", 40, 50), _read("Js", 60, 50)]
    assert watcher.update(jacks) == []
    assert watcher.update([*jacks, _read("BJ", 80, 50)]) == []  # a court frame read as 小
    assert watcher.update(jacks) == [] and watcher.update(jacks) == []
    assert watcher.update(jacks) == [SeenPlay(0, ("Jh", "Js", "Js"), 1)]  # first seen


def test_a_card_missed_for_many_frames_after_a_play_counts_is_no_new_play() -> None:
    watcher = PlayWatcher(SeatZones.from_boxes([(0, 0, 100, 100)]), hold_frames=3)
    kings = [_read("Ks", 20, 50), _read("Ks", 40, 50), _read("Ks", 60, 50)]
    assert [watcher.update(kings) for _ in range(3)][-1] == [SeenPlay(0, ("Ks", "Ks", "Ks"), 1)]
    assert all(watcher.update(kings[:2]) == [] for _ in range(6))  # one index unread a while
    assert watcher.counts()[0] == {"Ks": 3}


def _frames(watcher: PlayWatcher, reads: list[list[CardRead]]) -> list[SeenPlay | TrickCleared]:
    return [seen for frame in reads for seen in watcher.update(frame)]


def test_a_card_invented_in_many_frames_loses_to_the_read_seen_more_often() -> None:
    """Seed 6 of the 720p card video: a lone Td read now and then as Tc Td, the longer read
    held its three frames before the lone one did (drop-outs between): the more frequent wins."""
    watcher = PlayWatcher(SeatZones.from_boxes([(0, 0, 100, 100)]), hold_frames=3)
    td, both = [_read("Td", 20, 50)], [_read("Tc", 40, 50), _read("Td", 20, 50)]
    seen = _frames(watcher, [td, both, td, td, both, td, both, both, both, both, td, td])
    assert seen == [SeenPlay(0, ("Td",), 1)]  # no Tc Td, before or after


def test_a_suit_misread_in_one_frame_neither_breaks_the_run_nor_makes_a_play() -> None:
    """Seed 9: As As Ac As As over a play's five frames (the rules ignore suits)."""
    watcher = PlayWatcher(SeatZones.from_boxes([(0, 0, 100, 100)]), hold_frames=3)
    aces = [[_read(code, 20, 50)] for code in ("As", "As", "Ac", "As", "As")]
    assert _frames(watcher, aces) == [SeenPlay(0, ("As",), 1)]  # shown as read most often
    assert ranks_of(["Ac", "BJ", "10s"]) == ("A", "BJ", "T")


def test_two_plays_steady_in_one_frame_come_in_the_order_they_were_laid() -> None:
    """Seed 14: seat 5's Ad (laid first, read now and then as Ad Ad) turns steady in the frame
    seat 2's later 2d does."""
    zones = SeatZones.from_boxes([(0, 0, 100, 100), (100, 0, 200, 100)])
    watcher = PlayWatcher(zones, hold_frames=3)
    ad, adad, two = _read("Ad", 120, 50), _read("Ad", 160, 50), _read("2d", 50, 50)
    frames = [[ad], [ad, adad], [ad], [ad], [ad, adad], [ad, two], [ad, two], [ad, two]]
    assert _frames(watcher, frames) == [SeenPlay(1, ("Ad",), 1), SeenPlay(0, ("2d",), 6)]
