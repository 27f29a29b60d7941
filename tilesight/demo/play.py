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
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from engine.actions import HandStart
from engine.events import Event
from engine.procedures import find_procedure
from engine.simulate.actions import demo_hands
from tilesight.config import MqttEndpoint, parse_mqtt_url, redact_url
from tilesight.demo.broker import choose_broker
from tilesight.demo.console import describe, print_progress, print_summary
from tilesight.demo.options import DemoOptions, DemoSummary
from tilesight.outbox import Outbox
from tilesight.score_store import ScoreStore, format_standings
from tilesight.scores import ScoreConsumer
from tilesight.service import TableService
from tilesight.table_bridge import TableBridge, emulated_table
from tilesight.table_engine import TableEngine, discard_limit
from tilesight.topics import TableTopics

__all__ = ["DemoOptions", "DemoSummary", "describe", "print_progress", "print_summary", "run_demo"]

if TYPE_CHECKING:
    from models.evaluation.perception_check import PerceptionCheck

log = logging.getLogger("tilesight.demo")


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
    if options.camera_only and check is not None:
        from tilesight.demo.camera_only import play_camera_only  # noqa: PLC0415 - heavy, opt-in

        play_camera_only(service, bridge, check, options=options, summary=summary, out=out)
        return
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
        print_progress(summary, options.hands, summary.started, out)


def _perception_check(options: DemoOptions, out: TextIO) -> PerceptionCheck | None:
    if not (options.vision or options.camera_only):
        return None
    from models.evaluation.perception_check import PerceptionCheck  # noqa: PLC0415 - heavy, opt-in

    # the last table of a hand stays in view a second (10 frames) while the win is scored;
    # camera-only, three: a whole hand laid beside a discard of a kind it holds waits two
    # seconds (the reader's self_draw_frames) to tell a self-drawn win from one on the discard
    return PerceptionCheck(
        options.vision_frames_per_action,
        options.seed,
        out,
        final_frames=30 if options.camera_only else 10,
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
