"""Replay throughput: actions per second through the table state machine.

Replays the Botzone human sample (../shared, 16 games) and the shipped example table logs many
times, with and without MCR scoring, and prints actions/s. Usage:

    .venv/bin/python bench/bench_replay.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from engine.actions import Action
from engine.replay import load_record
from engine.rulesets import RuleSet, UnknownRuleSetError, find_rules
from engine.table import Table

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT.parent / "shared/data/mcr-logs/human-sample.txt"


def _records() -> dict[str, tuple[str, tuple[Action, ...]]]:
    out: dict[str, tuple[str, tuple[Action, ...]]] = {}
    if SAMPLE.is_file():
        record = load_record(SAMPLE.read_text(encoding="utf-8"), "botzone")
        out["botzone human sample (16 games)"] = ("log", record.actions)
    for path in sorted((ROOT / "examples").glob("*.tablelog")):
        record = load_record(path.read_text(encoding="utf-8"))
        out[f"examples/{path.name}"] = (record.procedure or "log", record.actions)
    return out


def _rate(procedure: str, actions: tuple[Action, ...], rules: RuleSet | None, rounds: int) -> float:
    samples = []
    for _ in range(rounds):
        table = Table(procedure, rules=rules)
        start = time.perf_counter()
        for action in actions:
            table.apply(action)
        samples.append(len(actions) / (time.perf_counter() - start))
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    try:
        mcr: RuleSet | None = find_rules("mcr")
    except UnknownRuleSetError:
        mcr = None
    print("| record | actions | actions/s, no scoring | actions/s, MCR scoring |")
    print("|---|---|---|---|")
    for name, (procedure, actions) in _records().items():
        plain = _rate(procedure, actions, None, args.rounds)
        scored = _rate(procedure, actions, mcr, args.rounds) if mcr else float("nan")
        print(f"| {name} | {len(actions)} | {plain:,.0f} | {scored:,.0f} |")


if __name__ == "__main__":
    main()
