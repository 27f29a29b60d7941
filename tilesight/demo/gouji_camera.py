"""``tilesight demo --game gouji --camera-only``: the Gouji engine fed only by a card camera.

The simulator plays each game and keeps the truth. Every change a camera can see (a play laid
in front of the seat that played it, a trick gathered onto the face-down pile) is rendered as
overhead frames with our own card art (:mod:`models.cards.gouji_frames`); each frame goes through
the real card reader (:class:`vision.cards.CardReader`), sorted into the six seat zones and held
until steady (:class:`vision.card_seats.PlayWatcher`); each steady play, passes inferred before
it (:func:`tilesight.card_feed.apply_seen`), goes to the service's
:class:`~engine.gouji.match_table.GoujiTable`. The engine never sees a simulator action: only the
deal (the six hands and the leader, which no camera sees) starts each game. Per game, the plays
read are compared with the truth's (seen, missed, invented, out of order) and the camera-only
finishing order and scores with the simulator's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from engine.events import Event, to_dict
from engine.gouji.events import Play, TrickWon
from engine.gouji.match_table import GoujiTable
from engine.gouji.notation import card_list
from engine.gouji.simulate import SimulatedGame, table_actions
from engine.gouji.table import GoujiGame
from tilesight.card_feed import apply_seen
from vision.card_seats import PlayWatcher, SeenPlay, TrickCleared
from vision.cards import CardReader

if TYPE_CHECKING:
    from models.cards.gouji_frames import GoujiTableRender
    from models.evaluation.perception_check import HandPerception
    from tilesight.demo.options import DemoOptions
    from tilesight.service import TableService

Seen = SeenPlay | TrickCleared


class CardCamera:
    """One game's table as the camera sees it: lay plays, gather tricks, read every frame."""

    def __init__(
        self,
        render: GoujiTableRender,
        reader: CardReader,
        feed: Callable[[Seen], None],
        *,
        frames_per_change: int = 4,
        hold_frames: int = 3,
    ) -> None:
        self.render, self.reader, self.feed = render, reader, feed
        self.frames_per_change = frames_per_change
        self.watcher = PlayWatcher(render.zones, hold_frames)
        self.zones: list[list[str]] = [[] for _ in range(6)]
        self.laid = [0] * 6  # the change at which each zone's cards were laid: they lie still
        self.pile = 0
        self.changes = 0
        self.read: list[SeenPlay] = []
        self.frames = 0
        self.read_seconds = 0.0
        self.render_seconds = 0.0

    def lay(self, seat: int, cards: Sequence[str]) -> None:
        """``seat`` plays ``cards``: its earlier play of the trick goes onto the pile."""
        self.pile += len(self.zones[seat])
        self.zones[seat] = list(cards)
        self.laid[seat] = self.changes + 1
        self.show()

    def gather(self) -> None:
        """The trick is over: its cards go face down onto the pile."""
        if any(self.zones):
            self.pile += sum(map(len, self.zones))
            self.zones = [[] for _ in range(6)]
            self.show()

    def show(self) -> None:
        """Render the table as it lies now and read each frame."""
        self.changes += 1
        started = time.perf_counter()
        frames = list(
            self.render.frames(
                self.zones, self.pile, self.frames_per_change, self.changes, laid=self.laid
            )
        )
        self.render_seconds += time.perf_counter() - started
        for frame in frames:
            started = time.perf_counter()
            seen = self.watcher.update(self.reader.read(frame))
            self.read_seconds += time.perf_counter() - started
            self.frames += 1
            for item in seen:
                if isinstance(item, SeenPlay):
                    self.read.append(item)
                self.feed(item)


def feeder(service: TableService) -> Callable[[Seen], None]:
    """What the camera saw, as the table's actions: passes inferred, then the play (the same
    path as ``tilesight run``'s card camera, :func:`tilesight.card_feed.apply_seen`)."""

    def feed(seen: Seen) -> None:
        apply_seen(service, seen)

    return feed


def play_gouji_camera_only(
    service: TableService,
    table: GoujiTable,
    games: Sequence[SimulatedGame],
    *,
    options: DemoOptions,
    out: TextIO,
) -> tuple[list[HandPerception], list[bool]]:
    """Play ``games`` with the engine fed from the rendered frames only; per game, the
    perception against the truth and whether the finish and scores came out the same."""
    from models.cards.gouji_frames import GoujiTableRender  # noqa: PLC0415 - heavy, opt-in
    from models.evaluation.perception_check import compare  # noqa: PLC0415 - heavy, opt-in

    reader = CardReader()
    alerts: list[str] = []
    shown = service.on_events

    def collect(events: list[Event]) -> None:
        for event in events:
            data: dict[str, Any] = to_dict(event)
            if data["type"] == "violation":
                alerts.append(f"{data['kind']} (seat {data.get('seat')}): {data['detail']}")
        if shown is not None:
            shown(events)

    service.on_events = collect
    perception: list[HandPerception] = []
    same: list[bool] = []
    for number, game in enumerate(games, start=1):
        print(f"── game {number}/{len(games)} ── camera only", file=out, flush=True)
        service.apply(table_actions(game)[0])  # the deal: six hands and the leader
        render = GoujiTableRender(options.seed * 1000 + number)
        camera = CardCamera(
            render,
            reader,
            feeder(service),
            frames_per_change=options.vision_frames_per_action,
        )
        truth = GoujiGame(game.hands, game.leader, table.options, revolutionary=game.revolutionary)
        del alerts[:]
        for action in game.actions:
            step = truth.apply(action)
            if isinstance(action, Play):
                camera.lay(action.seat, card_list(action.cards))
            if any(isinstance(e, TrickWon) for e in step.events):
                camera.gather()
        camera.gather()  # the game is over: the table is cleared for the next deal
        truth_keys = [_key(a.seat, card_list(a.cards)) for a in game.actions if isinstance(a, Play)]
        read_keys = [_key(p.seat, p.cards) for p in camera.read]
        checked = compare(number, truth_keys, read_keys)
        checked.frames, checked.seconds = camera.frames, camera.read_seconds
        checked.render_seconds = camera.render_seconds
        perception.append(checked)
        print(checked.line().replace("perception hand", "perception game"), file=out)
        for warning in checked.warnings:
            print(f"  PERCEPTION WARNING (not a rule violation): {warning}", file=out)
        same.append(_game_line(number, game, table, alerts, out))
    return perception, same


def _key(seat: int, cards: Sequence[str]) -> tuple[str, int, str, str]:
    return ("play", seat, " ".join(sorted(cards)), "")


def _game_line(
    number: int, game: SimulatedGame, table: GoujiTable, alerts: list[str], out: TextIO
) -> bool:
    truth = {"finish_order": list(game.result.finish_order), "scores": list(game.result.scores)}
    last = table.last_game or {}
    camera = {k: last.get(k) for k in truth} if last.get("game_number") == table.game_number else {}
    over = table.game is not None and table.game.over
    same = over and camera == truth
    head = (
        f"same finish (order {truth['finish_order']}, scores {truth['scores']})"
        if same
        else f"differs: truth {truth}, camera {camera if over else 'game not over'}"
    )
    said = f"; alerts: {'; '.join(alerts)}" if alerts else ""
    print(f"camera-only game {number}: {head}{said}", file=out, flush=True)
    return same
