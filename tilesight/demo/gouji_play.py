"""``tilesight demo --game gouji``: seeded Gouji games end to end through the service.

The engine's simulator (``engine.gouji.simulate``) plays the first games of a seeded match; each
play or pass goes to the same :class:`~tilesight.service.TableService` a mahjong table uses, on
a :class:`~engine.gouji.match_table.GoujiTable`: the outbox stores every event before it is
published, MQTT carries it, and score capture (:class:`~tilesight.scores.ScoreConsumer`) reads
the stream back, repairing any hole with ``cmd/resync``. The summary compares the games'
finishing orders and scores as read back with the simulator's. The engine gets the
simulator's actions, or with ``--camera-only`` only the plays a card camera reads from rendered
frames (:mod:`tilesight.demo.gouji_camera`).
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from engine.events import Event, to_dict
from engine.gouji.match_table import GoujiTable
from engine.gouji.options import find_variant
from engine.gouji.scoring import MatchScore
from engine.gouji.simulate import (
    SimulatedGame,
    simulate_match,
    simulate_short_game,
    table_actions,
)
from tilesight.config import parse_mqtt_url, redact_url
from tilesight.demo.broker import choose_broker
from tilesight.outbox import Outbox
from tilesight.score_store import ScoreStore
from tilesight.scores import ScoreConsumer
from tilesight.service import TableService
from tilesight.topics import TableTopics

if TYPE_CHECKING:
    from tilesight.demo.options import DemoOptions

ROLES = {"burn": "BURNS (烧)", "unburn": "unburns (解烧)", "answer": "answers"}


@dataclass
class GoujiSummary:
    games: int = 0
    events: int = 0
    plays: int = 0
    passes: int = 0
    burns: int = 0
    violations: int = 0
    stored: int = 0
    unsent: int = 0
    received: int = 0
    duplicates: int = 0
    resyncs: int = 0
    caught_up: bool = False
    seconds: float = 0.0
    expected: list[tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)
    read_back: list[dict[str, Any]] = field(default_factory=list)
    match: tuple[int, ...] = (0, 0)
    perception: list[Any] = field(default_factory=list)  # camera-only: per game, HandPerception
    camera_games: list[bool] = field(default_factory=list)  # camera-only: same finish and scores


def describe_gouji(event: Event) -> str:
    """One readable line of the live log."""
    data = to_dict(event)
    seat = data.get("seat")
    head = f"#{event.seq:<4} {event.table} {f'seat {seat}' if seat is not None else 'table':<6}"
    kind = event.type
    if kind == "cards_played":
        verb = ROLES.get(data["role"], "leads" if data["role"] == "lead" else "plays")
        marks = " 够级" * data["gouji"] + " 通牌" * data["tongpai"] + " 报牌" * data["report"]
        return f"{head} {verb} {' '.join(data['cards'])}  ({data['cards_left']} left){marks}"
    if kind == "passed":
        return f"{head} passes"
    if kind == "trick_won":
        return f"{head} wins the trick; seat {data['leader']} leads"
    if kind == "player_out":
        return f"{head} is out: {data['place_name']} (place {data['place']})"
    if kind == "game_started":
        return f"{head} game {data['game_number']} starts, seat {data['leader']} leads"
    if kind == "game_over":
        return (
            f"{head} game {data['game_number']} over: order {data['finish_order']}, "
            f"scores {data['scores']}, alliances {data['alliances']}, match {data['match']}"
        )
    if kind == "violation":
        return f"{head} VIOLATION {data['kind']}: {data['detail']}"
    return f"{head} {kind.replace('_', ' ')}"


def run_gouji_demo(options: DemoOptions, out: TextIO) -> GoujiSummary:
    summary = GoujiSummary()
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tilesight-gouji-")))
        chosen = stack.enter_context(choose_broker(options.mqtt, options.broker))
        if chosen.kind != "configured":
            print(chosen.description, file=out)
        endpoint = parse_mqtt_url(chosen.url, "TILESIGHT_MQTT_USERNAME", "TILESIGHT_MQTT_PASSWORD")
        outbox = Outbox(options.outbox or tmp / "outbox.sqlite")
        stack.callback(outbox.close)
        store = ScoreStore(options.scores_db or tmp / "scores.sqlite")
        stack.callback(store.close)
        consumer = None
        if options.consumer:
            name = f"demo-scores-{options.table}"
            consumer = ScoreConsumer(endpoint, options.tournament, store, name=name)
            consumer.start()
            stack.callback(_collect, consumer, summary)
        table = GoujiTable(
            table_id=options.table, options=find_variant(options.variant), seed=options.seed
        )
        service = TableService(
            topics=TableTopics(options.tournament, options.table),
            engine=table,
            outbox=outbox,
            endpoint=endpoint,
            client_id=f"tilesight-demo-{options.table}",
            on_events=lambda events: _show(events, summary, options.quiet, out),
        )
        stack.callback(service.stop, 5.0)
        service.start()
        if not service.link.connected.wait(10):
            print(f"broker {redact_url(chosen.url)} not reachable yet; events wait", file=out)
        _play(service, table, options, summary, out)
        summary.unsent = 0 if service.link.wait_drained(60) else outbox.counts()[1]
        if consumer is not None:
            target = service.engine.position
            summary.caught_up = consumer.wait_caught_up(60, options.table, target)
        stack.callback(_read_back, summary, outbox, store, options.tournament)
    summary.seconds = time.monotonic() - started
    print_gouji_summary(summary, options.consumer, out)
    return summary


def _games(options: DemoOptions) -> tuple[list[SimulatedGame], tuple[int, ...]]:
    """The games to play and the match score they make: a seeded match's first games, or
    short games of ``cards_per_seat`` cards a seat."""
    variant = find_variant(options.variant)
    if not options.cards_per_seat:
        match = simulate_match(options.seed, variant, max_games=options.games)
        return list(match.games), match.score.points
    games = [
        simulate_short_game(options.seed + k, options.cards_per_seat, variant)
        for k in range(options.games)
    ]
    score = MatchScore(target=variant.match_target)
    for game in games:
        score = score.record(game.result)
    return games, score.points


def _play(
    service: TableService,
    table: GoujiTable,
    options: DemoOptions,
    summary: GoujiSummary,
    out: TextIO,
) -> None:
    games, summary.match = _games(options)
    if options.camera_only:
        from tilesight.demo.gouji_camera import play_gouji_camera_only  # noqa: PLC0415 - opt-in

        summary.perception, summary.camera_games = play_gouji_camera_only(
            service, table, games, options=options, out=out
        )
        summary.games = len(games)
        summary.expected = [(g.result.finish_order, g.result.scores) for g in games]
        return
    for game in games:
        print(f"── game {summary.games + 1}/{len(games)} ──", file=out, flush=True)
        for action in table_actions(game):
            # stamped with the real time when applied, as a camera's action would be
            if service.apply(replace(action, at=None)) and options.pace_s:
                time.sleep(options.pace_s)
        summary.games += 1
        summary.expected.append((game.result.finish_order, game.result.scores))


def _show(events: list[Event], summary: GoujiSummary, quiet: bool, out: TextIO) -> None:
    summary.events += len(events)
    for event in events:
        role = getattr(event, "role", None)
        summary.plays += event.type == "cards_played"
        summary.burns += role == "burn"
        summary.passes += event.type == "passed"
        summary.violations += event.type == "violation"
    if not quiet:
        out.write("".join(describe_gouji(e) + "\n" for e in events))  # one write per action
        out.flush()


def _collect(consumer: ScoreConsumer, summary: GoujiSummary) -> None:
    consumer.stop()
    summary.received = consumer.received
    summary.duplicates = consumer.duplicates
    summary.resyncs = consumer.resyncs


def _read_back(summary: GoujiSummary, outbox: Outbox, store: ScoreStore, tournament: str) -> None:
    summary.stored = outbox.counts()[0]
    summary.read_back = store.events_of_type(tournament, "game_over")


def print_gouji_summary(summary: GoujiSummary, consumer: bool, out: TextIO) -> None:
    lines = [
        "",
        f"── summary ── {summary.games} Gouji games in {summary.seconds:.1f} s",
        f"events published this run: {summary.events} (outbox holds {summary.stored}, "
        f"{summary.unsent} unacknowledged): {summary.plays} plays, {summary.passes} passes, "
        f"{summary.burns} burns (烧), {summary.violations} rule violations",
    ]
    if consumer:
        same = [
            (tuple(e["finish_order"]), tuple(e["scores"])) for e in summary.read_back
        ] == summary.expected
        lines.append(
            f"score capture: {summary.received} received, {summary.duplicates} duplicates "
            f"ignored, {summary.resyncs} resync requests, "
            f"{'complete' if summary.caught_up else 'INCOMPLETE'}; "
            f"{len(summary.read_back)} games read back, "
            f"{'all as played' if same else 'DIFFERENT from the simulator'}"
        )
        for event in summary.read_back:
            lines.append(
                f"  game {event['game_number']}: order {event['finish_order']}  scores "
                f"{event['scores']}  alliances {event['alliances']}  match {event['match']}"
            )
    lines.append(
        f"final match score (alliance 0/2/4 : 1/3/5): {summary.match[0]} : {summary.match[1]}"
    )
    if summary.perception:
        from models.evaluation.perception_check import total_line  # noqa: PLC0415 - opt-in

        lines.append(total_line(summary.perception, camera_only=True))
        same, games = sum(summary.camera_games), len(summary.camera_games)
        lines.append(f"camera-only games: {same}/{games} as the truth finished and scored them")
    print("\n".join(lines), file=out, flush=True)
