"""A Gouji table's overhead card camera coupled to the service: frames in, plays out.

Each frame goes through the card reader (:class:`vision.cards.CardReader`); its reads are sorted
into the six seat zones that the calibration's table corners give
(:meth:`vision.card_seats.SeatZones.from_corners`) and held until steady
(:class:`vision.card_seats.PlayWatcher`, ``detector.stable_frames`` frames). Each steady play
reaches the :class:`~engine.gouji.match_table.GoujiTable` as the passes it shows (inferred) and
then the play, flagged ``camera`` (:func:`apply_seen`): the same engine, journal and events as a
``cmd/action`` play, so an illegal play read is the same referee ``violation``.

No camera sees the deal: each game starts with ``gouji_start`` over ``cmd/action``. The camera
is read only while a game is in play, and a new game starts a new watcher (its table starts
cleared). A live camera that reconnects, or a process restarted mid-game, starts from what the
engine says lies in each seat's zone (the current trick), so the same cards are not read as new
plays. A referee's correction (``cmd/correction``) changes the engine, not the watcher: it keeps
what it saw in each zone (a misread still read, or at last read right, is no new play), and each
play it sees next is worked out from the corrected game (docs/cards.md, "Corrections"). A
video file is a recording of one game from its deal: it is read from its start once a game is
in play, once per game (a game the journal held at start is never read from a file).

OpenCV and onnxruntime are imported only when the worker runs (``tilesight run`` imports this
module only for a Gouji table with a camera).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.gouji.match_table import GoujiTable
from engine.gouji.table_events import GoujiPlay

if TYPE_CHECKING:
    from tilesight.config import CameraConfig, ServiceConfig
    from tilesight.service import TableService
    from tilesight.supervisor import Work
    from vision.calibration import Calibration
    from vision.card_seats import PlayWatcher, SeatZones, SeenPlay, TrickCleared
    from vision.cards import CardRead

log = logging.getLogger("tilesight.cards")


def apply_seen(service: TableService, seen: SeenPlay | TrickCleared) -> int:
    """Hand what the camera saw to the service's Gouji table, one action at a time (each
    worked out from the game as the last left it: :func:`vision.card_seats.next_action`).
    Returns the number of plays applied (0 or 1)."""
    from vision.card_seats import MAX_PASSES, next_action  # noqa: PLC0415 - OpenCV

    table = service.engine
    assert isinstance(table, GoujiTable)
    with service.engine_lock:
        for _ in range(MAX_PASSES + 1):
            action = next_action(seen, table.game, done=False)
            if action is None:
                return 0
            service.apply(action)
            if isinstance(action, GoujiPlay):
                return 1
    return 0


@dataclass
class _Watching:
    game_number: int
    watcher: PlayWatcher


class CardFeed:
    """One overhead card camera of a Gouji table (config ``[[cameras]]``, at most one).
    ``calibration``: as checked at start; None loads it in the worker."""

    def __init__(
        self, config: ServiceConfig, service: TableService, calibration: Calibration | None = None
    ) -> None:
        self.config = config
        self.service = service
        self.calibration = calibration
        self.frames = 0
        self.plays = 0
        self._watching: _Watching | None = None
        # the game a video file was read for: a game the journal held at start counts as read
        self._file_read_for = self.table.game_number if self.table.game is not None else None

    @property
    def table(self) -> GoujiTable:
        table = self.service.engine
        assert isinstance(table, GoujiTable)
        return table

    def in_play(self) -> int | None:
        """The number of the game in play; None between games."""
        game = self.table.game
        return self.table.game_number if game is not None and not game.over else None

    def on_table(self) -> list[list[str]]:
        """What the engine says lies in each seat's zone: its latest play of the live trick."""
        zones: list[list[str]] = [[] for _ in range(6)]
        game = self.table.game
        if game is not None and game.current is not None:
            for play in self.table.trick:
                zones[int(play["seat"])] = [str(card) for card in play["cards"]]
        return zones

    def watch(self, zones: SeatZones, *, primed: bool) -> None:
        """Follow the game in play from here with a fresh watcher; ``primed``: starting from
        the cards the engine says lie on the table (:meth:`on_table`)."""
        from vision.card_seats import PlayWatcher  # noqa: PLC0415 - OpenCV

        with self.service.engine_lock:
            number = self.in_play()
            watcher = PlayWatcher(zones, self.config.detector.stable_frames)
            if primed:
                watcher.prime(self.on_table())
            self._watching = _Watching(number or 0, watcher)

    def see(self, reads: Iterable[CardRead], zones: SeatZones) -> None:
        """One frame's card reads: the plays and cleared tricks that became steady go to the
        table, while a game is in play (a new game starts a new, unprimed watcher)."""
        with self.service.engine_lock:
            number = self.in_play()
            if number is None:
                return
            if self._watching is None or self._watching.game_number != number:
                self.watch(zones, primed=False)
            assert self._watching is not None
            for seen in self._watching.watcher.update(reads):
                self.plays += apply_seen(self.service, seen)

    def _wait_for_game(self, live: bool, stop: threading.Event) -> int | None:
        """Block until a game is in play (for a file, one it was not read for yet)."""
        while not stop.is_set():
            number = self.in_play()
            if number is not None and (live or number != self._file_read_for):
                return number
            stop.wait(0.1)
        return None

    def worker(self, camera: CameraConfig) -> Work:
        def work(stop: threading.Event) -> None:
            # heavy imports (OpenCV, onnxruntime) only when a card camera is configured
            from tilesight.camera_check import load_calibration  # noqa: PLC0415
            from tilesight.camera_stream import read_stream  # noqa: PLC0415
            from vision.capture import Source  # noqa: PLC0415
            from vision.card_seats import SeatZones  # noqa: PLC0415
            from vision.cards import CardReader  # noqa: PLC0415

            calibration = self.calibration or load_calibration(self.config)
            zones = SeatZones.from_corners(calibration.corners)
            reader = CardReader()
            source = Source(camera.source)
            number = self._wait_for_game(source.is_live, stop)
            if number is None:
                return
            if not source.is_live:
                self._file_read_for = number
                log.info("game %d: reading %s from its start", number, camera.source)

            def each(image: Any) -> None:
                self.frames += 1
                self.see(reader.read(image), zones)

            def first() -> None:
                self.watch(zones, primed=source.is_live)

            read_stream(source, camera, calibration, self.config, stop, first=first, each=each)

        return work
