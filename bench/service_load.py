"""The service bench's ``load`` mode: N tables, split over shard processes, each table one MQTT
client, outbox and :class:`SyntheticEngine` emitting ``rate`` events/s, and one ``tilesight
scores`` consumer storing them all (run through ``bench/bench_service.py load``; each shard is
``bench/bench_service.py shard``). Also the per-process CPU clock the benches read.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from engine.actions import Action
from engine.events import Event, make_event_id
from engine.table.events import HandEnded, TileDiscarded
from engine.tiles import Tile

#: The command line each shard process runs.
BENCH_SERVICE = Path(__file__).resolve().parent / "bench_service.py"


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
                    str(BENCH_SERVICE),
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
