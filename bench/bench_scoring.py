"""MCR scoring latency: Tilesight's scorer and PyMahjongGB on the same random hands, one run.

    PYTHONPATH=. .venv/bin/python bench/bench_scoring.py --hands 5000 --seed 1

Hands come from tests/mcr/handgen.py (every shape and win flag). Each hand is timed alone with
``perf_counter_ns``; the scorer's memoised splitter is warmed by 200 hands first, as it would
be in a running service.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--repeat", type=int, default=1, help="time each hand R times and keep the fastest"
    )
    args = parser.parse_args()

    from engine.mcr.ruleset import MCRRules
    from tests.mcr.handgen import random_win

    rng = random.Random(args.seed)
    wins = [random_win(rng) for _ in range(args.hands + 200)]
    warm, wins = wins[:200], wins[200:]
    rules = MCRRules()
    for win in warm:
        rules.score(win.request)
    rows = [
        ("Tilesight MCRRules.score", _time(lambda w: rules.score(w.request), wins, args.repeat))
    ]
    try:
        import MahjongGB
    except ImportError:
        print("PyMahjongGB not installed: reference column skipped")
    else:
        calls = [w.reference_args() for w in wins]
        by_id = {id(w): c for w, c in zip(wins, calls, strict=True)}
        rows.append(
            (
                "PyMahjongGB MahjongFanCalculator",
                _time(lambda w: MahjongGB.MahjongFanCalculator(**by_id[id(w)]), wins, args.repeat),
            )
        )
    print(f"{len(wins)} hands, seed {args.seed}, fastest of {args.repeat} per hand")
    print("| scorer | median | p99 | hands/s |")
    print("|---|---|---|---|")
    for name, times in rows:
        median, p99 = statistics.median(times), percentile(times, 0.99)
        rate = len(times) / sum(times)
        print(f"| {name} | {median * 1e3:.3f} ms | {p99 * 1e3:.3f} ms | {rate:,.0f} |")


def _time(call: Callable[[Any], object], wins: list[Any], repeat: int) -> list[float]:
    times = []
    for win in wins:
        best = None
        for _ in range(repeat):
            start = time.perf_counter_ns()
            call(win)
            spent = time.perf_counter_ns() - start
            best = spent if best is None else min(best, spent)
        times.append((best or 0) / 1e9)
    return times


if __name__ == "__main__":
    main()
