"""Shuffling-table link figures: command round trip over a real pty and recovery after a reset.

    .venv/bin/python bench/bench_devices.py [--commands 1000] [--resets 20]

Runs the emulator in-process on a pty (no byte faults) and the real TableDriver against it.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

from devices.driver import DeviceResetDetected, Notice, TableDriver
from devices.emulator import Emulator


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def round_trips(table: TableDriver, count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        table.status()
        times.append(time.perf_counter() - start)
    return times


def recoveries(emulator: Emulator, count: int, *, unplug: bool) -> list[float]:
    detected = threading.Event()

    def on_event(notice: Notice) -> None:
        if isinstance(notice, DeviceResetDetected):
            detected.set()

    times = []
    with TableDriver(emulator.start_pty() if unplug else _url(emulator), on_event=on_event,
                     poll_interval=0.25, reconnect_interval=0.05) as table:  # fmt: skip
        for _ in range(count):
            detected.clear()
            start = time.perf_counter()
            if unplug:
                emulator.unplug(replug_after=0.0)
            else:
                emulator.reset()
            if not detected.wait(10):
                raise SystemExit("reset was not detected within 10 s")
            table.status()
            times.append(time.perf_counter() - start)
    return times


def _url(emulator: Emulator) -> str:
    return emulator.start_pty()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commands", type=int, default=1000)
    parser.add_argument("--resets", type=int, default=20)
    args = parser.parse_args()

    emulator = Emulator(time_scale=0.001, seed=1)
    with TableDriver(emulator.start_pty(), poll_interval=60.0) as table:
        rtt = round_trips(table, args.commands)
    emulator.stop()
    median, p99 = statistics.median(rtt) * 1e3, percentile(rtt, 0.99) * 1e3
    print(
        f"GET_STATUS round trip over a pty, n={len(rtt)}: median {median:.2f} ms, p99 {p99:.2f} ms"
    )
    for unplug, label in ((True, "unplug+replug (power cycle)"), (False, "watchdog reset")):
        emulator = Emulator(time_scale=0.001, seed=2)
        times = recoveries(emulator, args.resets, unplug=unplug)
        emulator.stop()
        median, worst = statistics.median(times) * 1e3, max(times) * 1e3
        print(f"recovery after {label}, n={len(times)}: median {median:.0f} ms, max {worst:.0f} ms")


if __name__ == "__main__":
    main()
