"""The printed report: one line per hand (with what went wrong under it), then the totals and
the latency of each kind of change, first frame written to its event's arrival."""

from __future__ import annotations

import statistics

from bench.camera_run.judge import HandResult


def _quantiles(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"n={len(ordered)} p50 {statistics.median(ordered):.2f} s, p95 {p95:.2f} s, "
        f"max {ordered[-1]:.2f} s"
    )


def hand_line(procedure: str, result: HandResult) -> str:
    win = (
        "same win"
        if result.same_win
        else f"WIN DIFFERS: truth {result.truth_win}, camera {result.camera_win}"
    )
    if result.same_win and result.truth_win is not None:
        how = (
            "self-drawn"
            if result.truth_win["self_drawn"]
            else f"on seat {result.truth_win['discarder']}'s discard"
        )
        win += f" (seat {result.truth_win['seat']} {how}, {result.truth_win.get('total')} points)"
    parts = [
        f"{procedure} hand {result.number}: {result.changes} changes",
        f"{len(result.alerts)} false alerts",
        f"{result.published} tile_discarded for {result.truth_discards} discards: "
        f"{len(result.missed)} missed, {len(result.invented)} invented, "
        f"{result.unread} inferred unread",
        win,
    ]
    if result.dealer[0] != result.dealer[1]:
        parts.append(f"DEALER: simulator {result.dealer[0]}, engine {result.dealer[1]}")
    if not result.ended:
        parts.append("NO hand_ended before the stop")
    if result.kill is not None:
        k = result.kill
        parts.append(
            f"killed at state {k.state}, table moved to {k.moved_to} while down, camera read "
            f"again {k.reconnect_s:.1f} s after the kill, "
            + ("'resumes' logged" if k.resumed else "NOT RESUMED")
        )
    detail = [*result.alerts, *(f"missed {m}" for m in result.missed)]
    detail += [f"invented {i}" for i in result.invented]
    detail += [f"no event for the {u}" for u in result.unmatched]
    return "; ".join(parts) + "".join(f"\n    {d}" for d in detail)


def report(results: dict[str, list[HandResult]], problems: dict[str, list[str]]) -> list[str]:
    lines = []
    kinds: dict[str, list[float]] = {}
    for procedure, hands in results.items():
        lines += [hand_line(procedure, h) for h in hands]
        lines += [f"{procedure} STREAM PROBLEM: {p}" for p in problems[procedure]]
        for hand in hands:
            for kind, values in hand.latencies.items():
                kinds.setdefault(kind, []).extend(values)
    every = [h for hands in results.values() for h in hands]
    kills = [h.kill for h in every if h.kill is not None]
    lines.append(
        f"total: {len(every)} hands, {sum(h.same_win for h in every)} wins as the truth, "
        f"{sum(len(h.alerts) for h in every)} false alerts, "
        f"{sum(len(h.missed) for h in every)} discards missed, "
        f"{sum(len(h.invented) for h in every)} invented, "
        f"{sum(h.unread for h in every)} inferred unread, "
        f"{sum(len(h.unmatched) for h in every)} changes with no event; "
        f"kills {len(kills)}, resumed {sum(k.resumed for k in kills)}; "
        f"stream problems {sum(len(p) for p in problems.values())}"
    )
    lines.append("latency, first frame of a change written -> its event at the subscriber:")
    for kind in ("discard", "claim", "kong", "flower", "win"):
        if kind in kinds:
            lines.append(f"  {kind}: {_quantiles(kinds[kind])}")
    lines.append(f"  all: {_quantiles([v for vs in kinds.values() for v in vs])}")
    return lines
