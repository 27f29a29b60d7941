"""``tilesight demo``: complete hands end to end, published to a real broker, in under 2 minutes.

Simulated hands (the engine's own deterministic simulator) are dealt by the emulated shuffling
table's dice, applied to the real engine, stored in the outbox and published over MQTT, while an
in-process score-capture consumer reads them back the way a hall's would. The live log shows each
event as it is published; the summary compares what was published with what arrived.

Run twice with the same ``--outbox`` (e.g. after the process was killed) and it resumes: the
same seed replays the same actions, the outbox recognises the events it already holds and only
the rest are published.
"""

from __future__ import annotations

import contextlib
import logging
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from engine.actions import HandStart
from engine.events import Event, to_dict
from engine.procedures import find_procedure
from tilesight.broker import choose_broker
from tilesight.config import MqttEndpoint, parse_mqtt_url, redact_url
from tilesight.outbox import Outbox
from tilesight.pipeline import TableEngine, demo_hands, discard_limit
from tilesight.score_store import ScoreStore, format_standings
from tilesight.scores import ScoreConsumer
from tilesight.service import TableService
from tilesight.table_bridge import TableBridge, emulated_table
from tilesight.topics import TableTopics

if TYPE_CHECKING:
    from tilesight.perception_demo import HandPerception, PerceptionCheck

log = logging.getLogger("tilesight.demo")


@dataclass(frozen=True)
class DemoOptions:
    mqtt: str | None = None
    tournament: str = "demo"
    table: str = "T01"
    hands: int = 4
    seed: int = 1
    pace_s: float = 0.05
    outbox: Path | None = None
    scores_db: Path | None = None
    procedure: str = "wsom"
    rules: str = "mcr"
    quiet: bool = False
    consumer: bool = True
    broker: str = "auto"  # without mqtt: "auto" (Mosquitto if installed) or "embedded"
    vision: bool = False  # also read rendered frames through the detector (perception_demo)
    vision_frames_per_action: int = 4


@dataclass
class DemoSummary:
    hands: int = 0
    events: int = 0
    resumed_from: tuple[int, int] | None = None
    stored: int = 0
    unsent: int = 0
    received: int = 0
    duplicates: int = 0
    resyncs: int = 0
    caught_up: bool = False
    seconds: float = 0.0
    violations: int = 0
    started: float = 0.0
    standings: str = ""
    perception: list[HandPerception] = field(default_factory=list)


def run_demo(options: DemoOptions, out: TextIO) -> DemoSummary:
    summary = DemoSummary(started=time.monotonic())
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tilesight-demo-")))
        chosen = stack.enter_context(choose_broker(options.mqtt, options.broker))
        url = chosen.url
        if chosen.kind != "configured":
            print(chosen.description, file=out)
        endpoint = parse_mqtt_url(url, "TILESIGHT_MQTT_USERNAME", "TILESIGHT_MQTT_PASSWORD")
        outbox = Outbox(options.outbox or tmp / "outbox.sqlite")
        stack.callback(outbox.close)
        store = ScoreStore(options.scores_db or tmp / "scores.sqlite")
        stack.callback(store.close)
        summary.resumed_from = outbox.last_position(options.table)
        consumer = None
        if options.consumer:
            consumer = ScoreConsumer(
                endpoint, options.tournament, store, name=f"demo-scores-{options.table}"
            )
            consumer.start()
            stack.callback(_collect, consumer, summary)
        service = _service(options, outbox, endpoint, summary, out)
        stack.callback(service.stop, 5.0)
        bridge = TableBridge(
            service,
            tile_count=find_procedure(options.procedure).tile_count,
            on_record=None if options.quiet else _printer(out),
        )
        service.table_control = bridge.control
        service.start()
        stack.enter_context(emulated_table(bridge, seed=options.seed))
        if not _wait_connected(service, 10):
            print(
                f"broker {redact_url(url)} not reachable yet; events wait in the outbox", file=out
            )
        if summary.resumed_from:
            print(f"resuming: the outbox holds up to (epoch, seq) {summary.resumed_from}", file=out)
        _play(service, bridge, options, summary, out)
        summary.unsent = 0 if service.link.wait_drained(60) else outbox.counts()[1]
        if consumer is not None:
            target = service.engine.position
            summary.caught_up = consumer.wait_caught_up(60, options.table, target)
        stack.callback(_totals, summary, outbox, store, options.tournament)
    summary.seconds = time.monotonic() - summary.started
    print_summary(summary, options, out)
    return summary


def _wait_connected(service: TableService, timeout: float) -> bool:
    """True once connected; a refusal of the credentials is an error (it will not pass)."""
    deadline = time.monotonic() + timeout
    while not service.link.connected.wait(0.1):
        if service.link.refused is not None:
            raise RuntimeError(service.link.refused)
        if time.monotonic() > deadline:
            return False
    return True


def _service(
    options: DemoOptions, outbox: Outbox, endpoint: MqttEndpoint, summary: DemoSummary, out: TextIO
) -> TableService:
    def show(events: list[Event]) -> None:
        summary.events += len(events)
        summary.violations += sum(e.type == "violation" for e in events)
        if not options.quiet:
            out.write("".join(describe(e) + "\n" for e in events))  # one write: no interleaving
            out.flush()

    return TableService(
        topics=TableTopics(options.tournament, options.table),
        engine=TableEngine(
            table_id=options.table,
            procedure=options.procedure,
            rules=options.rules,
            seed=options.seed,
        ),
        outbox=outbox,
        endpoint=endpoint,
        client_id=f"tilesight-demo-{options.table}",
        on_events=show,
        discard_limit_s=discard_limit(options.procedure),
    )


def _play(
    service: TableService,
    bridge: TableBridge,
    options: DemoOptions,
    summary: DemoSummary,
    out: TextIO,
) -> None:
    check = _perception_check(options, out)
    for hand in demo_hands(options.procedure, options.seed, options.hands):
        if check is not None:
            check.start_hand(hand.number)
        print(
            f"── hand {hand.number}/{options.hands} ── dealer seat {hand.dealer}",
            file=out,
            flush=True,
        )
        # the emulated table shuffles, raises the walls and rolls the procedure's dice
        dice = bridge.prepare_hand(find_procedure(options.procedure).rolls_needed)
        start, *plays = hand.actions
        assert isinstance(start, HandStart)
        for action in (replace(start, dice=dice), *plays):  # the table's dice break the wall
            # stamped with the real time when applied: overlays run the turn clock
            if service.apply(replace(action, at=None)) and options.pace_s:
                time.sleep(options.pace_s)
            if check is not None:  # the engine keeps the simulator's action: perception is checked
                check.observe(action)
        if check is not None:
            summary.perception.append(check.finish_hand())
        summary.hands += 1
        done = summary.hands * 20 // options.hands
        print(
            f"[{'#' * done}{'.' * (20 - done)}] {summary.hands}/{options.hands} hands, "
            f"{summary.events} events, {time.monotonic() - summary.started:.1f} s",
            file=out,
            flush=True,
        )


def _perception_check(options: DemoOptions, out: TextIO) -> PerceptionCheck | None:
    if not options.vision:
        return None
    from tilesight.perception_demo import PerceptionCheck  # noqa: PLC0415 - heavy, opt-in

    # the last table of a hand stays in view a second (10 frames) while the win is scored
    return PerceptionCheck(
        options.vision_frames_per_action,
        options.seed,
        out,
        final_frames=10,
        face_down_kongs=options.procedure == "national",  # its kongs lie face down
    )


def _printer(out: TextIO) -> Callable[[int, str], None]:
    def write(_level: int, line: str) -> None:  # on the driver's thread: one write per line
        out.write(f"      {line}\n")
        out.flush()

    return write


def _collect(consumer: ScoreConsumer, summary: DemoSummary) -> None:
    consumer.stop()
    summary.received = consumer.received
    summary.duplicates = consumer.duplicates
    summary.resyncs = consumer.resyncs


def _totals(summary: DemoSummary, outbox: Outbox, store: ScoreStore, tournament: str) -> None:
    summary.stored = outbox.counts()[0]
    summary.standings = format_standings(store.standings(tournament))


SEATS = "ESWN"  # seat letters by absolute seat index in the live log


def describe(event: Event) -> str:
    """One readable line for the live log."""
    data: dict[str, Any] = to_dict(event)
    seat = data.get("seat")
    who = f"seat {seat}" if isinstance(seat, int) else "table"
    head = f"#{event.seq:<4} {event.table} {who:<6}"
    kind = event.type
    if kind == "tile_drawn":
        left = data.get("live_left")
        return f"{head} draws{' a replacement' if data.get('replacement') else ''}" + (
            f"  (wall: {left} live tiles left)" if left is not None else ""
        )
    if kind == "tile_discarded":
        return f"{head} discards {data['tile']}  (river row {data['row']}, col {data['col']})"
    if kind in ("meld_claimed", "kong_declared", "kong_shown"):
        meld = data["meld"] if data.get("meld") is not None else "face down"
        return f"{head} {kind.replace('_', ' ')} {meld}"
    if kind == "flower_replaced":
        return f"{head} sets aside flower {data['flower']}"
    if kind in ("win_declared", "win_scored"):
        score = data.get("score")
        if score is None:  # a kong still face down: scored (win_scored) once it is shown
            return f"{head} WINS on {data.get('win_tile')}: unscored until its kong is shown"
        fans = ", ".join(
            f"{f.get('name', f.get('id', '?'))} {f.get('points', '')}" for f in score["fans"]
        )
        how = f"WINS on {data.get('win_tile')}" if kind == "win_declared" else "win scored"
        if data.get("win_tile_inferred"):
            how += " (self-drawn, winning tile not seen)"
        return f"{head} {how}: {score.get('total', '?')} points ({fans})"
    if kind == "hand_ended":
        return f"{head} hand {data['hand_number']} ends ({data['result']}); deltas {data['deltas']}"
    if kind == "violation":
        return f"{head} VIOLATION {data['kind']}: {data['detail']}"
    if kind == "tiles_dealt":
        return f"{head} dealt {data['count']} tiles"
    if kind == "hand_started":
        return f"{head} hand {data['hand_number']} starts, dealer seat {data['dealer']}"
    return f"{head} {kind}"


def print_summary(summary: DemoSummary, options: DemoOptions, out: TextIO) -> None:
    lines = [
        "",
        f"── summary ── {summary.hands} hands in {summary.seconds:.1f} s",
        f"events published this run: {summary.events} (outbox holds {summary.stored}, "
        f"{summary.unsent} unacknowledged), {summary.violations} rule violations",
    ]
    if options.consumer:
        lines.append(
            f"score capture: {summary.received} received, {summary.duplicates} duplicates "
            f"ignored, {summary.resyncs} resync requests, "
            f"{'complete' if summary.caught_up else 'INCOMPLETE'}"
        )
        lines += ["standings:", summary.standings]
    if summary.perception:
        from tilesight.perception_demo import total_line  # noqa: PLC0415 - heavy, opt-in

        lines.append(total_line(summary.perception))
    print("\n".join(lines), file=out, flush=True)
