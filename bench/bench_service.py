"""Service benchmarks against a private Mosquitto (started here on a free port).

    .venv/bin/python bench/bench_service.py latency --events 2000
    .venv/bin/python bench/bench_service.py load --tables 200 --rate 5 --seconds 60 --shards 4
    .venv/bin/python bench/bench_service.py outbox --events 4000 --rounds 20

``latency`` and ``load`` take ``--synchronous NORMAL`` to run the outboxes without an fsync per
commit (the service always uses FULL), pricing durability.

``latency``: one table with the real engine (simulated MCR hands); time from ``service.apply``
to a subscriber's ``on_message`` for every event (same process, same clock).
``outbox``: the price of durability: the three commits the service makes per event (the action
journaled, the event stored, the row marked sent on PUBACK) timed with ``synchronous=FULL`` and
``NORMAL`` in alternating rounds on the same disk (so background load hits both alike).
``load``: N tables (one MQTT client, outbox and engine each, split over shard processes) each
emitting ``rate`` events/s for ``seconds``; one ``tilesight scores`` consumer stores them all.
Reports loss (holes or missing seqs in the consumer's store), duplicates, and the CPU used by the
broker, the table processes and the consumer.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from engine.actions import Action  # noqa: E402
from engine.events import Event, make_event_id  # noqa: E402
from engine.table.events import HandEnded, TileDiscarded  # noqa: E402
from engine.tiles import Tile  # noqa: E402


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class SyntheticEngine:
    """Exactly one real event per action (a discard; every 50th a hand end with deltas)."""

    def __init__(self, table: str) -> None:
        self.table, self.seq, self.scores = table, 0, [0, 0, 0, 0]

    @property
    def position(self) -> tuple[int, int]:
        return 1, self.seq

    def apply(self, action: Action) -> list[Event]:
        self.seq += 1
        common = {
            "event_id": make_event_id(int(time.time() * 1000), os.urandom(10)),
            "table": self.table,
            "epoch": 1,
            "seq": self.seq,
            "timestamp": time.time(),
        }
        if self.seq % 50:
            return [TileDiscarded(**common, seat=self.seq % 4, tile=Tile.parse("5m"), row=0, col=0)]
        winner = (self.seq // 50) % 4
        deltas = tuple(24 if s == winner else -8 for s in range(4))
        self.scores = [a + b for a, b in zip(self.scores, deltas, strict=True)]
        return [
            HandEnded(
                **common,
                hand_number=self.seq // 50,
                result="win",
                winners=(winner,),
                deltas=deltas,
                scores=tuple(self.scores),
            )
        ]

    def snapshot(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "hand": None}

    def private_snapshot(self) -> dict[str, Any]:
        return {}


def latency(args: argparse.Namespace) -> dict[str, Any]:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from engine.simulate.actions import demo_hands
    from tilesight.config import parse_mqtt_url
    from tilesight.demo.broker import MosquittoBroker
    from tilesight.outbox import Outbox
    from tilesight.service import TableService
    from tilesight.table_engine import TableEngine
    from tilesight.topics import TableTopics

    received: dict[str, float] = {}
    with MosquittoBroker() as broker, tempfile.TemporaryDirectory() as tmp:
        sub = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-sub", protocol=mqtt.MQTTv5)
        sub.on_message = lambda _c, _u, m: received.setdefault(
            json.loads(m.payload)["event_id"], time.perf_counter()
        )
        sub.connect("127.0.0.1", broker.port)
        sub.subscribe("tilesight/v1/bench/T01/events/#", qos=1)
        sub.loop_start()
        service = TableService(
            topics=TableTopics("bench", "T01"),
            engine=TableEngine(table_id="T01", procedure="wsom", rules="mcr"),
            outbox=Outbox(Path(tmp) / "o.sqlite", synchronous=args.synchronous),
            endpoint=parse_mqtt_url(broker.url),
        )
        service.start()
        service.link.connected.wait(10)
        sent: dict[str, float] = {}
        hands = 1
        while len(sent) < args.events:
            for hand in demo_hands("wsom", seed=hands, hands=1):
                for action in hand.actions:
                    t0 = time.perf_counter()
                    for event in service.apply(action):
                        sent[event.event_id] = t0
                    time.sleep(args.gap)
            hands += 1
        deadline = time.monotonic() + 30
        while len(received.keys() & sent.keys()) < len(sent) and time.monotonic() < deadline:
            time.sleep(0.05)
        service.stop()
        sub.disconnect()
        sub.loop_stop()
    ms = sorted((received[e] - t0) * 1000 for e, t0 in sent.items() if e in received)
    return {
        "synchronous": args.synchronous,
        "events": len(sent),
        "received": len(ms),
        "p50_ms": round(statistics.median(ms), 2),
        "p99_ms": round(ms[int(len(ms) * 0.99) - 1], 2),
        "max_ms": round(ms[-1], 2),
    }


def outbox_cost(args: argparse.Namespace) -> dict[str, Any]:
    """Per-event outbox time (journal + append + mark_sent) with each ``synchronous`` setting."""
    from engine.actions import Washout
    from tilesight.outbox import Outbox

    engine = SyntheticEngine("T01")
    timings: dict[str, list[float]] = {"FULL": [], "NORMAL": []}
    per_round = max(1, args.events // args.rounds)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        outboxes = {
            "FULL": Outbox(Path(tmp) / "full.sqlite", synchronous="FULL"),
            "NORMAL": Outbox(Path(tmp) / "normal.sqlite", synchronous="NORMAL"),
        }
        for _ in range(args.rounds):
            for mode, outbox in outboxes.items():
                for _ in range(per_round):
                    event = engine.apply(Washout())[0]
                    start = time.perf_counter()
                    outbox.journal("T01", 1, '{"action": "washout"}')
                    row = outbox.append(event, "tilesight/v1/bench/T01/events/tile_discarded")
                    assert row is not None
                    outbox.mark_sent(row.rowid)
                    timings[mode].append(time.perf_counter() - start)
        for outbox in outboxes.values():
            outbox.close()
    result: dict[str, Any] = {"directory": args.dir or tempfile.gettempdir()}
    for mode, seconds in timings.items():
        ms = sorted(t * 1000 for t in seconds)
        result[mode] = {
            "events": len(ms),
            "p50_ms": round(statistics.median(ms), 3),
            "p99_ms": round(ms[int(len(ms) * 0.99) - 1], 3),
            "max_ms": round(ms[-1], 3),
            "events_per_s": round(len(ms) / sum(seconds)),
        }
    return result


def shard(args: argparse.Namespace) -> None:
    """One table process: ``args.tables`` tables, each emitting ``args.rate`` events/s."""
    from engine.actions import Washout
    from tilesight.config import parse_mqtt_url
    from tilesight.outbox import Outbox
    from tilesight.service import TableService
    from tilesight.topics import TableTopics

    services = []
    for i in range(args.first, args.first + args.tables):
        table = f"T{i:03d}"
        services.append(
            TableService(
                topics=TableTopics("load", table),
                engine=SyntheticEngine(table),
                outbox=Outbox(Path(args.dir) / f"{table}.sqlite", synchronous=args.synchronous),
                endpoint=parse_mqtt_url(args.mqtt),
                client_id=f"bench-{table}",
            )
        )
    for service in services:
        service.start()
    for service in services:
        service.link.connected.wait(30)
    start = time.monotonic()
    cpu0 = cpu_seconds(os.getpid())
    ticks = int(args.seconds * args.rate)
    for tick in range(ticks):
        due = start + tick / args.rate
        time.sleep(max(0.0, due - time.monotonic()))
        for service in services:
            service.apply(Washout())
    late = time.monotonic() - (start + (ticks - 1) / args.rate)
    drained = all(s.link.wait_drained(60) for s in services)
    cpu = cpu_seconds(os.getpid()) - cpu0
    for service in services:
        service.stop(drain_timeout=1)
    print(
        json.dumps(
            {
                "events": ticks * len(services),
                "drained": drained,
                "cpu_s": cpu,
                "late_s": round(late, 3),
            }
        )
    )


def load(args: argparse.Namespace) -> dict[str, Any]:
    from tilesight.config import parse_mqtt_url
    from tilesight.demo.broker import MosquittoBroker
    from tilesight.score_store import ScoreStore
    from tilesight.scores import ScoreConsumer

    with MosquittoBroker() as broker, tempfile.TemporaryDirectory() as tmp:
        store = ScoreStore(Path(tmp) / "scores.sqlite")
        consumer = ScoreConsumer(parse_mqtt_url(broker.url), "load", store, name="bench-scores")
        consumer.start()
        consumer.connected.wait(10)
        broker_cpu0, own_cpu0 = cpu_seconds(broker.pid or 0), cpu_seconds(os.getpid())
        per = args.tables // args.shards
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "shard",
                    "--mqtt",
                    broker.url,
                    "--dir",
                    tmp,
                    "--first",
                    str(k * per),
                    "--tables",
                    str(per),
                    "--rate",
                    str(args.rate),
                    "--seconds",
                    str(args.seconds),
                    "--synchronous",
                    args.synchronous,
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            for k in range(args.shards)
        ]
        results = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
        total = sum(r["events"] for r in results)
        targets = {f"T{i:03d}": total // args.tables for i in range(args.tables)}
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not all(
            consumer.caught_up(t, (1, n)) for t, n in targets.items()
        ):
            time.sleep(0.5)
        broker_cpu = cpu_seconds(broker.pid or 0) - broker_cpu0
        consumer_cpu = cpu_seconds(os.getpid()) - own_cpu0
        consumer.stop()
        missing = sum(n - len(store.seqs("load", t, 1)) for t, n in targets.items())
        holes = sum(store.seqs("load", t, 1) != list(range(1, n + 1)) for t, n in targets.items())
        stored = store.event_count("load")
    wall = args.seconds
    return {
        "synchronous": args.synchronous,
        "tables": args.tables,
        "rate_per_table": args.rate,
        "seconds": args.seconds,
        "events_published": total,
        "events_stored": stored,
        "missing": missing,
        "tables_with_holes": holes,
        "duplicates_seen": consumer.duplicates,
        "resyncs": consumer.resyncs,
        "all_outboxes_drained": all(r["drained"] for r in results),
        "worst_schedule_lag_s": max(r["late_s"] for r in results),
        "broker_cpu_pct_of_core": round(100 * broker_cpu / wall, 1),
        "tables_cpu_pct_of_core": round(100 * sum(r["cpu_s"] for r in results) / wall, 1),
        "consumer_cpu_pct_of_core": round(100 * consumer_cpu / wall, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    lat = sub.add_parser("latency")
    lat.add_argument("--events", type=int, default=2000)
    lat.add_argument("--gap", type=float, default=0.002, help="seconds between actions")
    lat.add_argument("--synchronous", choices=("FULL", "NORMAL"), default="FULL")
    ob = sub.add_parser("outbox")
    ob.add_argument("--events", type=int, default=4000, help="per setting")
    ob.add_argument("--rounds", type=int, default=20)
    ob.add_argument("--dir", help="where the outboxes live (default: the temp directory)")
    ld = sub.add_parser("load")
    ld.add_argument("--tables", type=int, default=200)
    ld.add_argument("--rate", type=float, default=5.0)
    ld.add_argument("--seconds", type=float, default=60.0)
    ld.add_argument("--shards", type=int, default=4)
    sh = sub.add_parser("shard")
    for mode in (ld, sh):
        mode.add_argument("--synchronous", choices=("FULL", "NORMAL"), default="FULL")
    for name, kind in (
        ("--mqtt", str),
        ("--dir", str),
        ("--first", int),
        ("--tables", int),
        ("--rate", float),
        ("--seconds", float),
    ):
        sh.add_argument(name, type=kind, required=True)
    args = parser.parse_args()
    if args.mode == "shard":
        shard(args)
        return
    modes = {"latency": latency, "load": load, "outbox": outbox_cost}
    result = modes[args.mode](args)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
