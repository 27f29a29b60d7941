"""``tilesight demo --camera-only``: the engine fed only by what the camera path reads.

The simulator plays each hand on a table of its own (the truth, every tile known). After each of
its public actions the table is rendered overhead and read by the real detector, stabiliser and
reader (:class:`models.evaluation.perception_check.PerceptionCheck`); each reader event goes through
:class:`vision.engine_bridge.ActionBridge` to the service's engine, as ``tilesight run`` does with
a camera. The engine never sees a simulator action: the emulated table's dice start each hand,
the winner lays its hand face up (a self-drawn winning tile a little apart and its kongs laid
face down turned up, as a camera-only table asks of its players: README, docs/vision.md), and a
washout is inferred from the wall's count. Per hand, what perception read is compared with the truth
(events seen, missed, invented) and the camera-only win with the truth's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, TextIO

from engine.events import Event, to_dict
from engine.procedures import find_procedure
from engine.simulate.actions import demo_hands
from engine.table import Table
from tilesight.demo.console import print_progress
from vision.engine_bridge import ActionBridge
from vision.observed import Observed

if TYPE_CHECKING:
    from models.evaluation.perception_check import PerceptionCheck
    from tilesight.demo.options import DemoOptions, DemoSummary
    from tilesight.service import TableService
    from tilesight.table_bridge import TableBridge


def play_camera_only(
    service: TableService,
    table: TableBridge,
    check: PerceptionCheck,
    *,
    options: DemoOptions,
    summary: DemoSummary,
    out: TextIO,
) -> None:
    """Play ``options.hands`` simulated hands, the engine fed from the rendered frames only."""
    from models.evaluation.camera_scoring import ScoredHand, laid_down, win_summary  # noqa: PLC0415 - opt-in

    procedure = find_procedure(options.procedure)
    bridge = ActionBridge(procedure)
    truth = Table(procedure, rules=options.rules)
    published: list[Event] = []
    shown = service.on_events

    def collect(events: list[Event]) -> None:
        published.extend(events)
        if shown is not None:
            shown(events)

    service.on_events = collect

    def feed(events: list[Observed]) -> None:  # each frame's observations, as read
        for event in events:
            for action in bridge.actions(event):
                service.apply(action)

    check.on_events = feed
    for hand in demo_hands(options.procedure, options.seed, options.hands):
        for action in bridge.close(service.engine.snapshot()):  # the hand before, if still live
            service.apply(action)
        dealer = int(service.engine.snapshot().get("next_dealer") or 0)
        print(f"── hand {hand.number}/{options.hands} ── dealer seat {dealer}", file=out)
        # the emulated table rolls the procedure's dice: they start the hand the camera follows
        dice = table.prepare_hand(procedure.rolls_needed)
        start, *deals = bridge.start(dealer=dealer)
        first = len(published)
        for action in (replace(start, dice=dice), *deals):
            service.apply(action)
        check.start_hand(hand.number)
        truth_events: list[dict[str, object]] = []
        for action in hand.actions:
            applied = [to_dict(e) for e in truth.apply(action)]
            truth_events += applied
            win = next((e for e in applied if e["type"] == "win_declared"), None)
            if win is not None:  # the winner lays its hand face up; a discard won on is taken
                check.reveal_win(*laid_down(win, self_drawn_apart=True), show_kongs=True)
            check.observe(action)
        summary.perception.append(check.finish_hand())
        for action in bridge.close(service.engine.snapshot()):  # a washout: the wall is spent
            service.apply(action)
        camera = [to_dict(e) for e in published[first:]]
        alerts = [
            f"{e['kind']} (seat {e['seat']}): {e['detail']}"
            for e in camera
            if e["type"] == "violation"
        ]
        scored = ScoredHand(hand.number, win_summary(truth_events), win_summary(camera), alerts)
        summary.wins.append(scored.line().partition(": ")[2])
        print(f"camera-only {scored.line()}", file=out, flush=True)
        summary.hands += 1
        print_progress(summary, options.hands, summary.started, out)
