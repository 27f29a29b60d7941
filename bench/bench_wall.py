"""Wall and simulator figures: full WSOM walls dealt and drawn out, simulated hands per second.

PYTHONPATH=. .venv/bin/python bench/bench_wall.py [--walls 2000] [--hands 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.procedures import NATIONAL, WSOM, Procedure
from engine.simulate import simulate_game
from engine.wall import Wall


def wall_rounds(procedure: Procedure, count: int) -> list[float]:
    """Seconds per wall: shuffle, deal, draw to the washout with a kong every ten draws."""
    times = []
    rng = random.Random(1)
    for _ in range(count):
        start = time.perf_counter()
        wall = Wall.shuffled(procedure, rng)
        wall.deal()
        n = 0
        while not wall.exhausted:
            wall.draw_replacement() if n % 10 == 9 else wall.draw()
            n += 1
        times.append(time.perf_counter() - start)
    return times


def simulated_hands(procedure: Procedure, hands: int) -> float:
    start = time.perf_counter()
    for seed in range(hands // 5):
        simulate_game(procedure, seed, 5)
    return (hands // 5 * 5) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--walls", type=int, default=2000)
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    for procedure in (WSOM, NATIONAL):
        times = wall_rounds(procedure, args.walls)
        print(
            f"{procedure.name}: wall shuffle+deal+draw-out median "
            f"{statistics.median(times) * 1e3:.3f} ms over {args.walls} walls; "
            f"simulated hands {simulated_hands(procedure, args.hands):.1f}/s"
        )


if __name__ == "__main__":
    main()
