"""A camera-only table whose cleared table went unseen still follows the next hand.

The next hand starts when the camera sees the table cleared for 2 s. When that is missed (a
process restarted after the sweep, or a busy machine reading too few frames of it), the table
in view holds the next hand's rivers: it starts then (:meth:`CameraFeed.catch_up`), its
discards so far published in turn, and no alert is raised about play after the hand before
ended. Exact detections through a real engine, as in test_camera_hands.py.
"""

from __future__ import annotations

from dataclasses import replace

from engine import actions as act
from engine.events import to_dict
from engine.simulate.actions import demo_hands
from engine.table import Table
from engine.tiles import Tile
from models.drawn.visible_table import VisibleTable
from models.evaluation.camera_scoring import laid_down
from tests.service.test_camera_hands import CLEARED, FRAMES, _feed, _reader, _Service, _watch
from tilesight.camera_feed import CameraFeed
from vision.next_hand import next_hand_in_view
from vision.reader import TableReader
from vision.reported import cleared
from vision.stabiliser import SeatObservation, TableObservation


def _play(
    feed: CameraFeed, reader: TableReader, truth: Table, hand: object, *, upto: int | None = None
) -> tuple[VisibleTable, list[tuple[int, str]]]:
    """``hand``'s actions applied to ``truth`` and laid on a table the camera watches (from
    action ``upto`` on: before it, no process is looking); its discards."""
    table, discards = VisibleTable(), []
    for n, action in enumerate(hand.actions):  # type: ignore[attr-defined]
        watching = upto is None or n >= upto
        applied = [to_dict(e) for e in truth.apply(action)]
        if isinstance(action, act.Discard):
            discards.append((action.seat, str(action.tile)))
        win = next((e for e in applied if e["type"] == "win_declared"), None)
        if win is not None:
            table.reveal_win(*laid_down(win, self_drawn_apart=True), show_kongs=True)
            if watching:
                _watch(feed, reader, table.spec, FRAMES)
        if table.apply(action) and watching:
            _watch(feed, reader, table.spec, FRAMES)
    _watch(feed, reader, table.spec, reader.self_draw_frames + 10)
    return table, discards


def _first_discards(hand: object, count: int) -> int:
    """The index of the action after ``hand``'s first ``count`` discards."""
    seen = 0
    for n, action in enumerate(hand.actions):  # type: ignore[attr-defined]
        seen += isinstance(action, act.Discard)
        if seen == count:
            return n + 1
    raise AssertionError("too few discards")


def _second_hand(service: _Service) -> list[tuple[int, str]]:
    started = service.of_type("hand_started")
    assert [e["hand_number"] for e in started] == [1, 2]
    second = service.events[service.events.index(started[1]) :]
    return [(e["seat"], e["tile"]) for e in second if e["type"] == "tile_discarded"]


def _won_first_hand() -> tuple[CameraFeed, _Service, TableReader, Table, list[object]]:
    feed, service = _feed("wsom")
    reader, truth = _reader(), Table("wsom")
    hands = list(demo_hands("wsom", 1, 2))
    feed.new_hand(())
    _watch(feed, reader, VisibleTable().spec, CLEARED)
    _play(feed, reader, truth, hands[0])
    assert [e["result"] for e in service.of_type("hand_ended")] == ["win"]
    return feed, service, reader, truth, hands


def test_a_restart_after_the_sweep_catches_up_with_the_next_hand() -> None:
    feed, service, _, truth, hands = _won_first_hand()
    restarted = CameraFeed(feed.config, service)  # type: ignore[arg-type]
    assert not restarted.resume()  # the journal's last hand is over
    reader = _reader()
    upto = _first_discards(hands[1], 6)  # six discards made while the process was down
    _, discards = _play(restarted, reader, truth, hands[1], upto=upto)
    # the table of the next hand at the restart, then the rest of the hand, watched
    assert _second_hand(service) == discards
    assert [e["result"] for e in service.of_type("hand_ended")] == ["win", "win"]
    assert not service.of_type("violation"), service.of_type("violation")


def test_a_sweep_seen_too_briefly_still_starts_the_next_hand() -> None:
    feed, service, reader, truth, hands = _won_first_hand()
    events = _watch(feed, reader, VisibleTable().spec, 12)  # fewer than its 2 s
    assert "table_cleared" not in events and reader.published and cleared(reader.published)
    assert feed.hand_number() == 1
    _, discards = _play(feed, reader, truth, hands[1])
    assert _second_hand(service) == discards
    assert not service.of_type("violation"), service.of_type("violation")  # no play refused


def test_the_hand_before_seen_again_misread_or_half_swept_starts_nothing() -> None:
    feed, service, reader, _, _ = _won_first_hand()
    table = reader.published
    assert table is not None
    restarted = CameraFeed(feed.config, service)  # type: ignore[arg-type]
    seats = list(table.seats)
    misread = [*seats[0].river[:-2], Tile.parse("9s"), seats[0].river[-1]]
    seats[0] = replace(seats[0], river=tuple(misread))
    seats[1] = replace(seats[1], river=seats[1].river[: len(seats[1].river) // 2])  # half swept
    seen = TableObservation(tuple(seats))
    before = [s.river for s in table.seats]
    assert not next_hand_in_view(before, seen)
    assert not next_hand_in_view(before, seen, swept=True)  # a moment unseen, then it again
    fresh = _reader()
    before_events = len(service.events)
    fresh.published = seen
    assert not restarted.catch_up(fresh)
    assert len(service.events) == before_events and restarted.hand_number() == 1


def test_rivers_of_another_hand_are_told_apart() -> None:
    before = [tuple(Tile.parse(t) for t in row.split()) for row in ("1m 2m 3m 4m", "E S W", "", "")]
    dealt = [(Tile.parse("7p"),), (Tile.parse("8s"),), (), ()]
    seen = TableObservation(tuple(SeatObservation(r, (), ()) for r in dealt))
    assert next_hand_in_view(before, seen)
    same = TableObservation(tuple(SeatObservation(r, (), ()) for r in before))
    assert not next_hand_in_view(before, same)
    assert not next_hand_in_view(before, TableObservation((SeatObservation((), (), ()),) * 4))
    assert not next_hand_in_view(before, None)
