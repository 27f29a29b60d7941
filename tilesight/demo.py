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

import logging
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from engine.events import Event, to_dict
from tilesight.broker import MosquittoBroker
from tilesight.config import parse_mqtt_url
from tilesight.outbox import Outbox
from tilesight.pipeline import TableEngine, demo_hands, discard_limit
from tilesight.score_store import ScoreStore, format_standings
from tilesight.scores import ScoreConsumer
from tilesight.service import TableService
from tilesight.topics import TableTopics

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
    standings: str = ""
    hand_results: list[str] = field(default_factory=list)


def run_demo(options: DemoOptions, out: TextIO) -> DemoSummary:
    started = time.monotonic()
    summary = DemoSummary()
    with tempfile.TemporaryDirectory(prefix="tilesight-demo-") as tmp:
        broker = None
        if options.mqtt is None:
            broker = MosquittoBroker().start()
            print(f"started a private Mosquitto at {broker.url}", file=out)
        url = options.mqtt or (broker.url if broker else "")
        endpoint = parse_mqtt_url(url, "TILESIGHT_MQTT_USERNAME", "TILESIGHT_MQTT_PASSWORD")
        outbox = Outbox(options.outbox or Path(tmp) / "outbox.sqlite")
        summary.resumed_from = outbox.last_position(options.table)
        consumer = None
        store = ScoreStore(options.scores_db or Path(tmp) / "scores.sqlite")
        if options.consumer:
            consumer = ScoreConsumer(
                endpoint, options.tournament, store, name=f"demo-scores-{options.table}"
            )
            consumer.start()

        def show(events: list[Event]) -> None:
            summary.events += len(events)
            if not options.quiet:
                for event in events:
                    print(describe(event), file=out, flush=True)

        service = TableService(
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
        service.start()
        try:
            if not service.link.connected.wait(10):
                print(f"broker {url} not reachable yet; events wait in the outbox", file=out)
            if summary.resumed_from:
                print(
                    f"resuming: outbox already holds up to (epoch, seq) {summary.resumed_from}",
                    file=out,
                )
            for hand in demo_hands(options.procedure, options.seed, options.hands):
                print(
                    f"── hand {hand.number}/{options.hands} ── dice {hand.dice} "
                    f"dealer seat {hand.dealer}",
                    file=out,
                    flush=True,
                )
                for action in hand.actions:
                    # stamped with the real time when applied: overlays run the turn clock
                    if service.apply(replace(action, at=None)) and options.pace_s:
                        time.sleep(options.pace_s)
                summary.hands += 1
            summary.unsent = 0 if service.link.wait_drained(60) else outbox.counts()[1]
            if consumer is not None:
                target = service.engine.position
                summary.caught_up = consumer.wait_caught_up(60, options.table, target)
        finally:
            service.stop(drain_timeout=5)
            if consumer is not None:
                consumer.stop()
                summary.received = consumer.received
                summary.duplicates = consumer.duplicates
                summary.resyncs = consumer.resyncs
            summary.stored = outbox.counts()[0]
            summary.standings = format_standings(store.standings(options.tournament))
            outbox.close()
            store.close()
            if broker is not None:
                broker.close()
    summary.seconds = time.monotonic() - started
    print_summary(summary, options, out)
    return summary


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
            f"  (wall: {left} live + reserved)" if left is not None else ""
        )
    if kind == "tile_discarded":
        return f"{head} discards {data['tile']}  (river row {data['row']}, col {data['col']})"
    if kind in ("meld_claimed", "kong_declared"):
        return f"{head} {kind.replace('_', ' ')} {data['meld']}"
    if kind == "flower_replaced":
        return f"{head} sets aside flower {data['flower']}"
    if kind == "win_declared":
        score = data.get("score") or {}
        fans = ", ".join(
            f"{f.get('name', f.get('id', '?'))} {f.get('points', '')}"
            for f in score.get("fans", [])
        )
        return f"{head} WINS on {data.get('win_tile')}: {score.get('total', '?')} points ({fans})"
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
        f"{summary.unsent} unacknowledged)",
    ]
    if options.consumer:
        lines.append(
            f"score capture: {summary.received} received, {summary.duplicates} duplicates "
            f"ignored, {summary.resyncs} resync requests, "
            f"{'complete' if summary.caught_up else 'INCOMPLETE'}"
        )
        lines += ["standings:", summary.standings]
    print("\n".join(lines), file=out, flush=True)
