"""After a camera-only hand ends with no result (abandoned), the next hand's dealer is told by
its first discard: the engine's rotation kept the dealer, the table may have passed the deal
(tilesight/dealer_watch.py). Exact detections into a real engine, as test_camera_hands.py."""

from __future__ import annotations

from models.drawn.visible_table import VisibleTable
from tests.service.test_camera_hands import CLEARED, FRAMES, _feed, _reader, _watch


def _abandon_a_hand(feed, reader) -> None:  # type: ignore[no-untyped-def]
    """Hand 1 (dealer 0): two discards read, then the table swept with no result."""
    feed.new_hand(())
    table = VisibleTable()
    _watch(feed, reader, table.spec, FRAMES)
    for seat, tile in ((0, "9m"), (1, "1s")):
        table.spec.rivers[seat].append(tile)
        _watch(feed, reader, table.spec, FRAMES)
    _watch(feed, reader, VisibleTable().spec, CLEARED)  # swept: hand 2 starts


def _discards(feed, reader, seats: list[int]) -> None:  # type: ignore[no-untyped-def]
    table = VisibleTable()
    for seat in seats:
        table.spec.rivers[seat].append("E" if seat % 2 else "9p")
        _watch(feed, reader, table.spec, FRAMES)


def test_the_first_discard_after_an_abandoned_hand_names_the_dealer() -> None:
    feed, service = _feed("wsom")
    reader = _reader()
    _abandon_a_hand(feed, reader)
    started = service.of_type("hand_started")
    assert [e["dealer"] for e in started] == [0, 0]  # an abandoned hand keeps its dealer
    _discards(feed, reader, [1, 2, 3, 0, 1])  # but seat 1 deals at the table
    (fix,) = service.of_type("correction_applied")
    assert fix["supersedes"] == started[1]["event_id"] and "seat 1 deals" in fix["reason"]
    hand = service.engine.snapshot()["hand"]
    assert hand["number"] == 2 and hand["dealer"] == 1
    kinds = [e["kind"] for e in service.of_type("violation")]
    assert kinds == ["hand_abandoned"], kinds  # no out_of_turn, no xianggong
    discarded = [e for e in service.events if e["type"] == "tile_discarded"]
    assert [e["seat"] for e in discarded[-5:]] == [1, 2, 3, 0, 1]


def test_the_kept_dealer_discarding_first_changes_nothing() -> None:
    feed, service = _feed("wsom")
    reader = _reader()
    _abandon_a_hand(feed, reader)
    _discards(feed, reader, [0, 1, 2])
    assert not service.of_type("correction_applied")
    assert service.engine.snapshot()["hand"]["dealer"] == 0
    assert [e["kind"] for e in service.of_type("violation")] == ["hand_abandoned"]


def test_after_a_hand_with_a_result_a_late_seat_is_a_missed_discard_not_a_new_dealer() -> None:
    feed, service = _feed("wsom")
    reader = _reader()
    feed.new_hand(())
    _discards(feed, reader, [1, 2])  # seat 0's first discard never read
    assert not service.of_type("correction_applied")
    assert service.engine.snapshot()["hand"]["dealer"] == 0
    inferred = [e for e in service.of_type("tile_discarded") if e["tile"] is None]
    assert [e["seat"] for e in inferred] == [0]


def test_a_restart_before_the_first_discard_still_names_the_dealer() -> None:
    """Killed after the abandoned hand's sweep started hand 2: the journal replayed into a new
    process, whose first discard read still corrects the dealer."""
    feed, service = _feed("wsom")
    _abandon_a_hand(feed, _reader())
    again, restarted = _feed("wsom")
    for action in service.journal:
        restarted.apply(action)  # as TableService.restore replays the journal
    assert again.resume()
    _discards(again, _reader(), [1, 2, 3])
    (fix,) = restarted.of_type("correction_applied")
    assert "seat 1 deals" in fix["reason"]
    assert restarted.engine.snapshot()["hand"]["dealer"] == 1
    kinds = [e["kind"] for e in restarted.of_type("violation")]
    assert kinds == ["hand_abandoned"], kinds


def test_a_restart_after_play_began_leaves_the_dealer_alone() -> None:
    feed, service = _feed("wsom")
    reader = _reader()
    _abandon_a_hand(feed, reader)
    _discards(feed, reader, [0, 1])  # the kept dealer discards first: settled
    again, restarted = _feed("wsom")
    for action in service.journal:
        restarted.apply(action)
    assert again.resume()
    assert again.dealer_watch.correction(2, 0, first_play=True) is None
