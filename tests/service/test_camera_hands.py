"""A camera-only table (no shuffling table) plays hand after hand in one process: once a hand is
over (won, or its wall spent with no win), the next starts when the camera sees the table
cleared; a spent wall is closed as a washout first, also when the process resumed that hand.

The reader is driven with exact detections (every tile where it lies, ``exact_frames``) under
the default ``stable_frames = 3``, its events go through :meth:`CameraFeed.read` into a real
engine; no model, no broker.
"""

from __future__ import annotations

from typing import Any

from engine import actions as act
from engine.events import to_dict
from engine.simulate.actions import demo_hands
from engine.table import Table
from models.drawn.visible_table import VisibleTable
from models.evaluation.camera_scoring import UNIT, exact_frames, laid_down
from tilesight.camera_feed import CameraFeed, hold_frames_for
from tilesight.config import ServiceConfig
from tilesight.table_engine import TableEngine
from vision.layout import TableSpec
from vision.observed import to_json
from vision.reader import TableReader
from vision.resume import prime_reader
from vision.stabiliser import Stabiliser

FRAMES = 5  # per visible change: confirmed on the 3rd frame, published on the 4th
CLEARED = 40  # frames of a cleared table: its tiles removed (8), settled, then 2 s (20) more
KINDS = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)] + list("ESWNCFP")


class _Service:
    """What CameraFeed needs of the service: the engine and ``apply``."""

    def __init__(self, procedure: str) -> None:
        self.engine = TableEngine(table_id="T01", procedure=procedure, rules=None)
        self.events: list[dict[str, Any]] = []
        self.journal: list[act.Action] = []  # what TableService would journal

    def apply(self, action: act.Action) -> list[Any]:
        self.journal.append(action)
        events = self.engine.apply(action)
        self.events += [to_dict(e) for e in events]
        return events

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] == kind]


def _feed(procedure: str, **config: Any) -> tuple[CameraFeed, _Service]:
    service = _Service(procedure)
    settings = {"tournament": "cup", "table": "T01", "procedure": procedure, **config}
    return CameraFeed(ServiceConfig.model_validate(settings), service), service  # type: ignore[arg-type]


def _reader() -> TableReader:
    return TableReader(None, UNIT, Stabiliser(confirm_frames=3), **hold_frames_for(10))


def _watch(feed: CameraFeed, reader: TableReader, spec: TableSpec, frames: int) -> list[str]:
    """``frames`` frames of ``spec`` read and fed, frame by frame; the event types read."""
    read = []
    for _ in range(frames):
        events = exact_frames(reader, spec, 1)
        read += [str(to_json(e)["type"]) for e in events]
        feed.read(events, reader)  # as the camera worker does
    return read


def test_a_won_hand_then_a_cleared_table_starts_the_next_hand() -> None:
    feed, service = _feed("wsom")
    reader, truth = _reader(), Table("wsom")
    hands = list(demo_hands("wsom", 1, 2))
    feed.new_hand(())  # tilesight run: the first hand at once
    discards: list[list[tuple[int, str]]] = []
    for hand in hands:
        table = VisibleTable()
        cleared = _watch(feed, reader, table.spec, CLEARED)  # the table cleared (or dealt)
        assert cleared.count("table_cleared") == 1
        discards.append([])
        for action in hand.actions:
            applied = [to_dict(e) for e in truth.apply(action)]
            if isinstance(action, act.Discard):
                discards[-1].append((action.seat, str(action.tile)))
            win = next((e for e in applied if e["type"] == "win_declared"), None)
            if win is not None:  # the winner lays its hand face up
                table.reveal_win(*laid_down(win, self_drawn_apart=True), show_kongs=True)
                _watch(feed, reader, table.spec, FRAMES)
            if table.apply(action):
                _watch(feed, reader, table.spec, FRAMES)
        _watch(feed, reader, table.spec, reader.self_draw_frames + 10)  # the win read
    started = service.of_type("hand_started")
    assert [e["hand_number"] for e in started] == [1, 2]
    assert [e["dealer"] for e in started] == [hand.dealer for hand in hands]
    ended = service.of_type("hand_ended")
    assert [(e["hand_number"], e["result"]) for e in ended] == [(1, "win"), (2, "win")]
    assert not service.of_type("violation"), service.of_type("violation")
    second = service.events[service.events.index(started[1]) :]
    published = [(e["seat"], e["tile"]) for e in second if e["type"] == "tile_discarded"]
    assert published == discards[1]  # the second hand's discards, each once, none refused


def _spend_the_wall(feed: CameraFeed, reader: TableReader) -> TableSpec:
    """Discards in turn, read by the camera, until the wall is spent (no one wins); the table."""
    table = VisibleTable()
    _watch(feed, reader, table.spec, FRAMES)
    wall = feed.service.engine.snapshot()["hand"]["wall"]
    turn = 0
    while wall["live_left"]:
        table.spec.rivers[turn % 4].append(KINDS[turn % len(KINDS)])
        _watch(feed, reader, table.spec, FRAMES)
        turn += 1
        wall = feed.service.engine.snapshot()["hand"]["wall"]
    return table.spec


def test_a_spent_wall_then_a_cleared_table_is_a_washout_and_the_next_hand() -> None:
    feed, service = _feed("wsom")
    reader = _reader()
    feed.new_hand(())
    spec = _spend_the_wall(feed, reader)
    hand = service.engine.snapshot()["hand"]
    assert hand["phase"] == "draw" and hand["wall"]["live_left"] == 0  # no camera sees an end
    assert sum(len(seat) for seat in spec.rivers) == len(service.of_type("tile_discarded"))
    assert _watch(feed, reader, spec, 2 * reader.clear_frames) == []  # no one cleared it yet
    assert feed.hand_number() == 1
    _watch(feed, reader, VisibleTable().spec, CLEARED)
    assert [e["result"] for e in service.of_type("hand_ended")] == ["washout"]
    _play_a_round(feed, reader, service)


def test_a_resumed_spent_wall_hand_does_not_block_the_next() -> None:
    feed, service = _feed("wsom")
    feed.new_hand(())
    spec = _spend_the_wall(feed, _reader())
    # restarted (the engine rebuilt from the journal): the hand is carried on, wall spent
    feed = CameraFeed(feed.config, service)  # type: ignore[arg-type]
    assert feed.resume()
    reader = _reader()
    assert prime_reader(reader, service.engine.snapshot())
    before = len(service.events)
    assert _watch(feed, reader, spec, 30) == []  # the table as left: nothing new
    assert len(service.events) == before
    _watch(feed, reader, VisibleTable().spec, CLEARED)
    assert [e["result"] for e in service.of_type("hand_ended")] == ["washout"]
    assert [e["hand_number"] for e in service.of_type("hand_started")] == [1, 2]
    _play_a_round(feed, reader, service)


def _play_a_round(feed: CameraFeed, reader: TableReader, service: _Service) -> None:
    """Each seat discards once, from the new hand's dealer: accepted, no alert."""
    dealer = service.engine.snapshot()["hand"]["dealer"]
    table = VisibleTable()
    played = []
    for turn in range(4):
        seat = (dealer + turn) % 4
        table.spec.rivers[seat].append(KINDS[turn])
        played.append((seat, KINDS[turn]))
        _watch(feed, reader, table.spec, FRAMES)
    hand = service.engine.snapshot()["hand"]
    assert hand["number"] == 2 and hand["phase"] in ("draw", "discard")
    discarded = [(e["seat"], e["tile"]) for e in service.of_type("tile_discarded")]
    assert discarded[-4:] == played
    assert not service.of_type("violation"), service.of_type("violation")


def test_a_table_cleared_after_play_ends_the_hand_and_the_referee_hears_it() -> None:
    feed, service = _feed("wsom")
    reader = _reader()
    feed.new_hand(())
    table = VisibleTable()
    assert "table_cleared" in _watch(feed, reader, table.spec, CLEARED)  # its deal
    assert feed.hand_number() == 1 and not service.of_type("hand_ended")
    dealer = service.engine.snapshot()["hand"]["dealer"]
    table.spec.rivers[dealer].append("5m")
    _watch(feed, reader, table.spec, FRAMES)
    assert "table_cleared" in _watch(feed, reader, VisibleTable().spec, CLEARED)
    assert [e["result"] for e in service.of_type("hand_ended")] == ["abandoned"]
    warned = service.of_type("violation")
    assert [(v["kind"], v["severity"]) for v in warned] == [("hand_abandoned", "warning")]
    assert "after 1 discards" in warned[0]["detail"]
    assert feed.hand_number() == 2  # the table goes on: the next hand is read
    service.events = [e for e in service.events if e["type"] != "violation"]
    _play_a_round(feed, reader, service)


def test_with_a_shuffling_table_its_dice_start_each_hand() -> None:
    feed, service = _feed("wsom", table_port={"url": "loop://"})
    reader = _reader()
    feed.new_hand((3, 4))
    spec = _spend_the_wall(feed, reader)
    _watch(feed, reader, spec, FRAMES)
    assert "table_cleared" in _watch(feed, reader, VisibleTable().spec, CLEARED)
    assert feed.hand_number() == 1 and not service.of_type("hand_ended")
    feed.new_hand((2, 5))  # the dice
    assert [e["result"] for e in service.of_type("hand_ended")] == ["washout"]


def test_a_process_started_between_hands_waits_for_the_table_cleared() -> None:
    feed, service = _feed("wsom")
    feed.new_hand(())
    spec = _spend_the_wall(feed, _reader())
    for action in feed.actions.close(service.engine.snapshot()):
        service.apply(action)  # the hand over (here: washed out)
    feed = CameraFeed(feed.config, service)  # type: ignore[arg-type]  # a restart
    assert not feed.resume()
    reader = _reader()
    before = len(service.events)
    _watch(feed, reader, spec, 20)  # the last hand's table, still in view, is no news
    assert len(service.events) == before
    _watch(feed, reader, VisibleTable().spec, CLEARED)
    assert [e["hand_number"] for e in service.of_type("hand_started")] == [1, 2]
    _play_a_round(feed, reader, service)


def test_tilesight_run_deals_at_once_only_when_no_hand_was_played() -> None:
    from tilesight.commands.run import _follow_hand

    feed, service = _feed("wsom")
    _follow_hand(feed, shuffling_table=False)  # a new journal: the first hand at once
    assert feed.hand_number() == 1 and feed.following
    _follow_hand(CameraFeed(feed.config, service), shuffling_table=False)  # type: ignore[arg-type]
    assert [e["hand_number"] for e in service.of_type("hand_started")] == [1]  # resumed
    service.apply(act.Washout())
    restarted = CameraFeed(feed.config, service)  # type: ignore[arg-type]
    _follow_hand(restarted, shuffling_table=False)  # between hands: waits for the table
    assert not restarted.following and len(service.of_type("hand_started")) == 1
    assert restarted.table_cleared() and feed.hand_number() == 2
