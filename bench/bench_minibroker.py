"""Embedded broker vs a private Mosquitto: QoS 1 throughput and round-trip latency (paho clients).

    .venv/bin/python bench/bench_minibroker.py --messages 20000

One publisher sends ``--messages`` QoS 1 messages (200 bytes, up to 100 in flight) to one
subscriber; then 500 request/reply round trips (publish, subscriber echoes, publisher waits).
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from tilesight.demo.broker import MosquittoBroker, find_mosquitto
from tilesight.demo.minibroker import EmbeddedBroker


def _client(port: int, name: str) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=name, protocol=mqtt.MQTTv5)
    client.max_inflight_messages_set(100)
    client.max_queued_messages_set(0)
    connected = threading.Event()
    client.on_connect = lambda *a: connected.set()
    client.connect("127.0.0.1", port)
    client.loop_start()
    if not connected.wait(10):
        raise RuntimeError("no connection")
    return client


def measure(port: int, messages: int) -> dict[str, float]:
    got = threading.Event()
    count = [0]
    echo = threading.Event()

    def on_message(_c: Any, _u: Any, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == "bench/flood":
            count[0] += 1
            if count[0] == messages:
                got.set()
        else:
            echo.set()

    sub, pub = _client(port, "bench-sub"), _client(port, "bench-pub")
    subscribed = threading.Event()
    sub.on_subscribe = lambda *a: subscribed.set()
    sub.on_message = on_message
    sub.subscribe([("bench/flood", 1), ("bench/ping", 1)])
    subscribed.wait(5)
    payload = b"x" * 200
    started = time.perf_counter()
    for _ in range(messages):
        pub.publish("bench/flood", payload, qos=1)
    got.wait(300)
    flood_s = time.perf_counter() - started
    rtts = []
    for _ in range(500):
        echo.clear()
        t0 = time.perf_counter()
        pub.publish("bench/ping", b"p", qos=1)
        echo.wait(5)
        rtts.append((time.perf_counter() - t0) * 1000)
    for client in (sub, pub):
        client.disconnect()
        client.loop_stop()
    rtts.sort()
    return {
        "msg_per_s": messages / flood_s,
        "p50_ms": statistics.median(rtts),
        "p99_ms": rtts[int(len(rtts) * 0.99) - 1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--messages", type=int, default=20000)
    args = parser.parse_args()
    brokers: list[tuple[str, Any]] = [("embedded", EmbeddedBroker)]
    if find_mosquitto():
        brokers.append(("mosquitto", MosquittoBroker))
    print("| broker | QoS 1 msg/s | publish->deliver p50 | p99 |")
    print("|---|---|---|---|")
    for name, factory in brokers:
        with factory() as broker:
            r = measure(broker.port, args.messages)
        print(f"| {name} | {r['msg_per_s']:,.0f} | {r['p50_ms']:.2f} ms | {r['p99_ms']:.2f} ms |")


if __name__ == "__main__":
    main()
