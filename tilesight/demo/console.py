"""The demo's live log and summary lines (``tilesight demo``)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, TextIO

from engine.events import Event, to_dict

if TYPE_CHECKING:
    from tilesight.demo.options import DemoOptions, DemoSummary

SEATS = "ESWN"  # seat letters by absolute seat index in the live log


def describe(event: Event) -> str:
    """One readable line for the live log."""
    data: dict[str, Any] = to_dict(event)
    seat = data.get("seat")
    who = f"seat {seat}" if isinstance(seat, int) else "table"
    head = f"#{event.seq:<4} {event.table} {who:<6}"
    kind = event.type
    if kind == "tile_drawn":
        left = data.get("live_left")
        return f"{head} draws{' a replacement' if data.get('replacement') else ''}" + (
            f"  (wall: {left} live tiles left)" if left is not None else ""
        )
    if kind == "tile_discarded":
        if data.get("tile") is None:
            return f"{head} discards a tile no camera read (inferred: the next seat played)"
        how = "  inferred (claimed before it was read)" if data.get("inferred") else ""
        return f"{head} discards {data['tile']}  (river row {data['row']}, col {data['col']}){how}"
    if kind in ("meld_claimed", "kong_declared", "kong_shown"):
        meld = data["meld"] if data.get("meld") is not None else "face down"
        return f"{head} {kind.replace('_', ' ')} {meld}"
    if kind == "flower_replaced":
        return f"{head} sets aside flower {data['flower']}"
    if kind in ("win_declared", "win_scored"):
        score = data.get("score")
        if score is None:  # a kong still face down: scored (win_scored) once it is shown
            return f"{head} WINS on {data.get('win_tile')}: unscored until its kong is shown"
        fans = ", ".join(
            f"{f.get('name', f.get('id', '?'))} {f.get('points', '')}" for f in score["fans"]
        )
        how = f"WINS on {data.get('win_tile')}" if kind == "win_declared" else "win scored"
        if data.get("win_tile_inferred"):
            how += " (self-drawn, winning tile not seen)"
        return f"{head} {how}: {score.get('total', '?')} points ({fans})"
    if kind == "hand_ended":
        return f"{head} hand {data['hand_number']} ends ({data['result']}); deltas {data['deltas']}"
    if kind == "violation":
        return f"{head} VIOLATION {data['kind']}: {data['detail']}"
    if kind == "tiles_dealt":
        return f"{head} dealt {data['count']} tiles"
    if kind == "hand_started":
        return f"{head} hand {data['hand_number']} starts, dealer seat {data['dealer']}"
    return f"{head} {kind}"


def print_summary(summary: DemoSummary, options: DemoOptions, out: TextIO) -> None:
    lines = [
        "",
        f"── summary ── {summary.hands} hands in {summary.seconds:.1f} s",
        f"events published this run: {summary.events} (outbox holds {summary.stored}, "
        f"{summary.unsent} unacknowledged), {summary.violations} rule violations",
    ]
    if options.consumer:
        lines.append(
            f"score capture: {summary.received} received, {summary.duplicates} duplicates "
            f"ignored, {summary.resyncs} resync requests, "
            f"{'complete' if summary.caught_up else 'INCOMPLETE'}"
        )
        lines += ["standings:", summary.standings]
    if summary.perception:
        from models.evaluation.perception_check import total_line  # noqa: PLC0415 - heavy, opt-in

        lines.append(total_line(summary.perception, options.camera_only))
    if summary.wins:
        same = sum(line.startswith("same") for line in summary.wins)
        lines.append(f"camera-only wins: {same}/{len(summary.wins)} hands as the truth scored them")
    print("\n".join(lines), file=out, flush=True)


def print_progress(summary: DemoSummary, hands: int, started: float, out: TextIO) -> None:
    """The progress bar after each hand."""
    done = summary.hands * 20 // hands
    print(
        f"[{'#' * done}{'.' * (20 - done)}] {summary.hands}/{hands} hands, "
        f"{summary.events} events, {time.monotonic() - started:.1f} s",
        file=out,
        flush=True,
    )
