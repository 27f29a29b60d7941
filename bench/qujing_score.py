"""Qujing scoring latency on random winning hands: median, p99 and hands per second.

.venv/bin/python bench/qujing_score.py [--hands 5000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.qujing import QujingRuleSet
from tests.qujing.helpers import random_winning_request


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    requests = [random_winning_request(rng) for _ in range(args.hands)]
    rules = QujingRuleSet()
    for request in requests[:200]:  # warm the decomposer's memo like a long-running service
        rules.score(request)
    times = []
    valid = 0
    start = time.perf_counter()
    for request in requests:
        t0 = time.perf_counter()
        valid += rules.score(request).valid
        times.append(time.perf_counter() - t0)
    wall = time.perf_counter() - start
    times.sort()
    median = statistics.median(times) * 1e3
    p99 = times[int(len(times) * 0.99)] * 1e3
    rate = args.hands / wall
    print(
        f"{args.hands} hands ({valid} valid wins): median {median:.3f} ms, p99 {p99:.3f} ms,"
        f" {rate:.0f} hands/s"
    )


if __name__ == "__main__":
    main()
