"""Scoring latency of a rule set on random winning hands: median, p99 and hands per second.

PYTHONPATH=. .venv/bin/python bench/rules_score.py --rules {zung-jung,qujing} [--hands N] [--seed S]

Each rule set's own test generator makes the hands (they differ: Qujing has no chows).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine.rulesets import RuleSet, WinRequest, find_rules


def _setup(name: str) -> tuple[RuleSet, Callable[[random.Random], WinRequest]]:
    if name == "qujing":
        from tests.qujing.helpers import random_winning_request as qujing_hands

        return find_rules("qujing"), qujing_hands
    from tests.zungjung.test_properties import random_winning_request as zj_hands

    return find_rules("zung-jung", minimum=0), zj_hands  # time every hand, chicken hands too


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", choices=("zung-jung", "qujing"), required=True)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules, make_hand = _setup(args.rules)
    rng = random.Random(args.seed)
    requests = [make_hand(rng) for _ in range(args.hands)]
    for request in requests[:200]:  # warm the decomposer's memo like a long-running service
        rules.score(request)
    times: list[float] = []
    valid = 0
    start = time.perf_counter()
    for request in requests:
        t0 = time.perf_counter()
        result: Any = rules.score(request)
        times.append(time.perf_counter() - t0)
        valid += result.valid
    wall = time.perf_counter() - start
    times.sort()
    median = statistics.median(times) * 1e3
    p99 = times[int(len(times) * 0.99)] * 1e3
    print(
        f"{args.rules}: {args.hands} hands ({valid} valid wins): median {median:.3f} ms,"
        f" p99 {p99:.3f} ms, {args.hands / wall:.0f} hands/s"
    )


if __name__ == "__main__":
    main()
