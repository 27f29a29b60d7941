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
broker, the table processes and the consumer (``load`` and its shards: bench/service_load.py).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.service_load import SyntheticEngine, cpu_seconds, load, shard  # noqa: E402

__all__ = ["SyntheticEngine", "cpu_seconds", "latency", "load", "main", "outbox_cost", "shard"]


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
