"""The one place where the service meets the engine's table API (and later vision and devices).

Everything else in ``tilesight`` talks to a :class:`GameEngine`: apply an action, get events; read
the public and private snapshots. :class:`TableEngine` adapts :class:`engine.table.Table`.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from devices.driver import Notice, TableDriver
from devices.emulator import Emulator
from devices.link import TableError
from engine import actions as act
from engine.actions import Action
from engine.events import Event
from engine.procedures import find_procedure
from engine.rulesets import find_rules
from engine.simulate import simulate_game
from engine.simulate_actions import to_actions
from engine.table import Table
from engine.table_core import seeded_id_factory
from engine.table_events import public_form
from engine.timing import limits_for
from tilesight.remote_commands import CommandError
from tilesight.table_link import (
    LinkRecord,
    RefereeAlert,
    TableLink,
    TableState,
    WallBreak,
    WallsBuilt,
)

if TYPE_CHECKING:
    from tilesight.config import CameraConfig, ServiceConfig
    from tilesight.service import TableService
    from tilesight.supervisor import Work

STATE_SCHEMA = "tilesight.state/1"
log = logging.getLogger("tilesight.pipeline")


class GameEngine(Protocol):
    """What the service needs from the rules engine."""

    @property
    def position(self) -> tuple[int, int]:
        """``(epoch, seq)`` of the last event emitted."""
        ...

    def apply(self, action: Action) -> list[Event]: ...

    def snapshot(self) -> dict[str, Any]: ...

    def private_snapshot(self) -> dict[str, Any]: ...


class TableEngine:
    """:class:`engine.table.Table` behind the :class:`GameEngine` protocol.

    Event ids come from a seeded factory, so a restarted process that replays the same actions
    (with the same timestamps) regenerates the very same events; either way the outbox
    recognises the ``(epoch, seq)`` it already holds.
    """

    def __init__(
        self, *, table_id: str, procedure: str, rules: str | None, seed: int = 0, epoch: int = 1
    ) -> None:
        self.table = Table(
            procedure=find_procedure(procedure),
            rules=find_rules(rules) if rules else None,  # None: the procedure's default
            table_id=table_id,
            epoch=epoch,
            id_factory=seeded_id_factory(seed),
        )

    @property
    def position(self) -> tuple[int, int]:
        return self.table.epoch, self.table.seq

    def apply(self, action: Action) -> list[Event]:
        return list(self.table.apply(action))

    def snapshot(self) -> dict[str, Any]:
        return dict(self.table.snapshot())

    def private_snapshot(self) -> dict[str, Any]:
        return dict(self.table.private_snapshot())


def public_event(event: Event) -> Event:
    """The form for public topics: concealed fields (a drawn tile, dealt tiles) blanked."""
    return public_form(event)


def discard_limit(procedure: str) -> float | None:
    """Seconds allowed per discard under ``procedure`` (None: no limit)."""
    limit = limits_for(find_procedure(procedure)).per_discard_s
    return None if math.isinf(limit) else limit


def state_payload(
    engine: GameEngine,
    *,
    tournament: str,
    table: str,
    links: dict[str, str],
    turn_since: float | None,
    discard_limit_s: float | None,
) -> dict[str, Any]:
    """The retained ``state`` message: enough for an overlay opened mid-hand to draw everything.

    ``game`` is the engine's public snapshot (rivers, melds, flowers, wall counts with the
    reserved tiles, turn, scores); ``timer`` lets a page run the discard clock locally.
    """
    epoch, seq = engine.position
    game = engine.snapshot()
    hand = game.get("hand") or {}
    return {
        "schema": STATE_SCHEMA,
        "tournament": tournament,
        "table": table,
        "epoch": epoch,
        "seq": seq,
        "updated": time.time(),
        "links": dict(links),
        "timer": {
            "turn": hand.get("turn"),
            "since": turn_since,
            "discard_limit_s": discard_limit_s,
        },
        "game": game,
    }


@dataclass(frozen=True)
class DemoHand:
    """One simulated hand as engine actions, with what the live log announces before it."""

    number: int
    dice: tuple[int, ...]
    dealer: int
    actions: tuple[Action, ...]


def demo_hands(procedure: str, seed: int, hands: int) -> Iterator[DemoHand]:
    """The engine's deterministic simulation of ``hands`` hands, converted to table actions."""
    game = simulate_game(find_procedure(procedure), seed=seed, hands=hands)
    for hand in game.hands:
        yield DemoHand(hand.index + 1, hand.dice, hand.dealer, tuple(to_actions(hand)))


class TableBridge:
    """Shuffling-table driver notices -> engine and service, and referee verbs -> the driver.

    Dice become the next hand's wall break; faults (jam, short side, reset, link lost) become
    ``table_fault`` events the referee console shows; state changes update the retained state.
    """

    def __init__(
        self,
        service: TableService,
        *,
        tile_count: int = 136,
        east_side: int = 1,
        on_record: Callable[[str], None] | None = None,
    ) -> None:
        self.service = service
        self.tile_count = tile_count
        self.link = TableLink(east_side=east_side)
        self.driver: TableDriver | None = None
        self.on_record = on_record
        #: Called with the dice totals once the procedure's rolls are in (run mode: new hand).
        self.on_dice: Callable[[tuple[int, ...]], None] | None = None
        self.rolls_needed = 2
        self._rolls: list[int] = []

    def notice(self, notice: Notice) -> None:
        for record in self.link.records(notice):
            if self.on_record is not None:
                self.on_record(describe_record(record))
            if isinstance(record, WallsBuilt):
                self._rolls = []
            elif isinstance(record, WallBreak) and self.on_dice is not None:
                self._rolls.append(record.total)
                if len(self._rolls) == self.rolls_needed:
                    self.on_dice(tuple(self._rolls))
                    self._rolls = []
            elif isinstance(record, RefereeAlert) and record.severity != "info":
                self.service.apply(act.TableFault(code=record.kind, detail=record.message))
            elif isinstance(record, RefereeAlert):
                self.service.set_link("table", record.kind.removeprefix("table_"))
            elif isinstance(record, TableState):
                self.service.set_link("table_state", record.state)

    def control(self, verb: str) -> dict[str, Any]:
        """The service's ``TableControl``: shuffle, raise, clear_error on the live driver."""
        deadline = time.monotonic() + 5.0  # ride out a cable being re-plugged
        while (driver := self.driver) is None or not driver.connected:
            if time.monotonic() > deadline:
                raise CommandError(f"{verb}: the shuffling table is not connected")
            time.sleep(0.05)
        try:
            if verb == "shuffle":
                done = driver.shuffle(tile_count=self.tile_count)
                return {"tile_count": done.tile_count, "side_counts": list(done.side_counts)}
            if verb == "raise":
                return {"tile_count": driver.raise_walls()}
            driver.clear_error()
            return {}
        except TableError as exc:
            raise CommandError(f"{verb}: {exc}") from exc

    def prepare_hand(self, rolls: int) -> tuple[int, ...]:
        """Shuffle, raise the walls and roll two dice ``rolls`` times: the totals that break
        the next hand's wall (WSOM: the dealer's roll, then the breaker's)."""
        assert self.driver is not None
        self.driver.shuffle(tile_count=self.tile_count)
        self.driver.raise_walls()
        return tuple(self.driver.roll_dice(count=2).total for _ in range(rolls))

    def worker(self, url: str) -> Work:
        """A supervised worker that keeps a driver open on ``url`` until stopped."""

        def work(stop: threading.Event) -> None:
            with TableDriver(url, on_event=self.notice) as driver:
                self.driver = driver
                try:
                    stop.wait()
                finally:
                    self.driver = None

        return work


def describe_record(record: LinkRecord) -> str:
    if isinstance(record, WallBreak):
        return f"table rolled {'+'.join(map(str, record.dice))} = {record.total}"
    if isinstance(record, WallsBuilt):
        return f"table built the walls: {'/'.join(map(str, record.side_counts))} tiles"
    if isinstance(record, TableState):
        return f"table {record.previous or '?'} -> {record.state}"
    return f"table alert {record.kind}: {record.message}"


@contextlib.contextmanager
def emulated_table(bridge: TableBridge, *, seed: int, time_scale: float = 0.01) -> Iterator[str]:
    """An emulated shuffling table on a pty, with ``bridge`` driving it; yields the port path."""
    emulator = Emulator(time_scale=time_scale, seed=seed)
    port = emulator.start_pty()
    try:
        with TableDriver(port, on_event=bridge.notice) as driver:
            bridge.driver = driver
            try:
                yield port
            finally:
                bridge.driver = None
    finally:
        emulator.stop()


class CameraFeed:
    """Overhead camera frames -> vision (detector, stabiliser) -> engine actions.

    The camera sees discards, melds and revealed hands, not draws or concealed tiles, so the
    engine runs in partial-information mode (``vision.engine_bridge``). A new hand starts when
    the shuffling table's dice arrive (:meth:`new_hand`), or at once when there is no table.
    """

    def __init__(self, config: ServiceConfig, service: TableService) -> None:
        from vision.engine_bridge import ActionBridge  # noqa: PLC0415 - vision is optional

        self.config = config
        self.service = service
        self.actions = ActionBridge()
        self.frames = 0

    def new_hand(self, dice: tuple[int, ...]) -> None:
        dealer = int(self.service.engine.snapshot().get("next_dealer") or 0)
        start, *deals = self.actions.start(dealer=dealer)
        assert isinstance(start, act.HandStart)
        for action in (replace(start, dice=dice), *deals):
            self.service.apply(action)

    def worker(self, camera: CameraConfig) -> Work:
        def work(stop: threading.Event) -> None:
            # heavy imports (OpenCV, onnxruntime) only when a camera is configured
            from vision.calibration import Calibration  # noqa: PLC0415
            from vision.capture import Source, frames  # noqa: PLC0415
            from vision.reader import TableReader  # noqa: PLC0415
            from vision.stabiliser import Stabiliser  # noqa: PLC0415

            if self.config.calibration.path is None:
                raise ValueError("an overhead camera needs [calibration] path")
            reader = TableReader(
                _detector(self.config),
                Calibration.load(self.config.calibration.path),
                Stabiliser(confirm_frames=self.config.detector.stable_frames),
            )
            period = 1.0 / camera.fps
            next_due = 0.0
            for _number, image in frames(Source(camera.source), on_error=log.warning, stop=stop):
                if time.monotonic() < next_due:
                    continue  # drop frames beyond the configured rate
                next_due = time.monotonic() + period
                self.frames += 1
                for event in reader.process(image):
                    for action in self.actions.actions(event):
                        self.service.apply(action)
            if not stop.is_set():
                raise ConnectionError(f"camera {camera.source!r}: the stream ended")

        return work


def _detector(config: ServiceConfig) -> Any:
    from vision.detector import Detector, OnnxBoxes, UltralyticsBoxes  # noqa: PLC0415

    options = config.detector
    if options.backend == "ultralytics":
        if options.model is None:
            raise ValueError("detector backend 'ultralytics' needs [detector] model")
        return Detector(boxes=UltralyticsBoxes(options.model, threshold=options.confidence))
    if options.model is not None:
        return Detector(boxes=OnnxBoxes(options.model, threshold=options.confidence))
    return Detector(boxes=OnnxBoxes(threshold=options.confidence))


def input_workers(
    config: ServiceConfig, bridge: TableBridge | None, feed: CameraFeed | None = None
) -> list[tuple[str, Work]]:
    """The supervised threads feeding the engine: shuffling table and cameras, as configured."""
    workers: list[tuple[str, Work]] = []
    if config.table_port.url:
        assert bridge is not None
        workers.append(("table", bridge.worker(config.table_port.url)))
    if feed is not None:
        for index, camera in enumerate(config.cameras):
            if camera.role == "overhead":
                workers.append((f"camera{index}" if index else "camera", feed.worker(camera)))
            else:
                log.warning("camera %s: hand cameras are not read yet", camera.source)
    return workers
