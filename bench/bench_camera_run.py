"""Camera-only tables through the real ``tilesight run`` (issue 43): complete simulated hands
watched by a live camera stream, a real Mosquitto, kill -9 mid-hand, frame-to-event latency.

    PYTHONPATH=. .venv/bin/python bench/bench_camera_run.py --hands 2 --seed 1
    PYTHONPATH=. .venv/bin/python bench/bench_camera_run.py --hands 1 --seed 1 --kills 2
    PYTHONPATH=. .venv/bin/python bench/bench_camera_run.py --hands 1 --seed 1 --kills 2 \
        --stable-frames 2
    PYTHONPATH=. .venv/bin/python bench/bench_camera_run.py --limiter

For each procedure (``--procedure``, default wsom and national) the simulator plays ``--hands``
hands (``engine.simulate.actions.demo_hands``, seed ``--seed``); every visible change (a discard, a
claim, a kong, a flower set aside, the winner's hand laid face up, a self-drawn winning tile
apart and face-down kongs turned up, as ``tilesight demo --camera-only`` lays them) is rendered
at 1920x1080 (``models.drawn.camera.render_frame``, one fixed overhead camera per table) and served
as a live MJPEG stream over HTTP (multipart/x-mixed-replace, what an IP camera serves), each
state ``--state-s`` seconds at ``--stream-fps`` frames a second. ``tilesight run`` reads it as
its camera (``fps = --fps`` in its config: the reader's holds are set from it) with the real
detector, and publishes to a private Mosquitto; a subscriber here records every event and when
it arrived. No shuffling table is configured, so nothing but the camera feeds the engine.

One ``tilesight run`` process plays all hands of a procedure, as at a venue: it deals the first
hand when it starts; once a hand is over (its ``hand_ended`` arrived; a washout, or a win refused
as read, ends only when the table is seen swept, :meth:`Runner.see_swept`) the camera shows the
table swept (walls built, nothing dealt: bare felt where the hands and rivers lay) for ``--clear-s``
seconds and then the deal, and the process starts the next hand when it sees the table cleared
(``table_cleared``, ``CameraFeed.table_cleared``; dealer from the engine's ``next_dealer``), on
the same epoch and seq stream. It is stopped (SIGTERM) after the last hand.

``--kills K``: in K hands (chosen at random with the seed) the process is killed (SIGKILL) when
the stream reaches a random frame between 25 % and 75 % of the hand's changes; the table moves
on by one visible change while no process watches, and a new process is started on the same
outbox; the stream goes on from where the table is, and the new process plays the hands after.

Checked per hand: false alerts (``violation`` events on ``private/events/violation``; the
simulator plays only legal hands), discards missed or invented against the truth (seat and
tile; a discard inferred with no tile counts as missed), the win against the truth's
(``models.evaluation.camera_scoring.win_summary``: winner, self-drawn or discarder, fans, total,
payments). Per procedure: seq 1..max with no gap or duplicate, unique event ids, one epoch,
one ``hand_started`` per hand, no ``abandoned`` hand, everything stored was received; after a
kill, the log says the hand resumed. Latency: from the first frame of each visible change
written to the camera socket to the arrival of its event at the subscriber (same clock), each
change matched in play order to the first unused event of its type and seat after it.
Exits 1 when any check fails. ``--stable-frames``: the config's ``[detector] stable_frames``
(unset: its default, 3). ``--limiter``: only how many frames a second the camera worker's rate
limiter keeps of a live stream. Outboxes, configs, each hand's log and every event received
(``events.jsonl``, with its arrival time) stay in ``--workdir``; the process's log is
``run.log`` per procedure. ``--limiter`` compares the worker's ``FrameLimiter`` with the limiter
it replaced (the next frame due one period after the frame kept).

The parts live in ``bench/camera_run/`` (one module each: the plan, the camera stream, the
subscriber, the runner, the judging, the report, the limiter check); this file is the command.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.camera_run import SIZE, TABLE, TOURNAMENT, Event
from bench.camera_run.judge import HandResult, Kill
from bench.camera_run.limiter import limiter_check
from bench.camera_run.plan import Change, HandPlan, plan_hands, render_hand
from bench.camera_run.report import hand_line, report
from bench.camera_run.runner import TILESIGHT, Runner
from bench.camera_run.stream import CameraStream
from bench.camera_run.subscriber import Subscriber

__all__ = [
    "SIZE",
    "TABLE",
    "TILESIGHT",
    "TOURNAMENT",
    "CameraStream",
    "Change",
    "Event",
    "HandPlan",
    "HandResult",
    "Kill",
    "Runner",
    "Subscriber",
    "hand_line",
    "limiter_check",
    "main",
    "plan_hands",
    "render_hand",
    "report",
]


def _kill_hands(args: argparse.Namespace) -> dict[str, set[int]]:
    every = [(p, n) for p in args.procedure for n in range(1, args.hands + 1)]
    if args.kills > len(every):
        raise SystemExit(f"--kills {args.kills}: only {len(every)} hands")
    chosen = random.Random(args.seed).sample(every, args.kills)
    return {p: {n for q, n in chosen if q == p} for p in args.procedure}


def _rules(procedure: str) -> str | None:
    from engine.procedures import find_procedure

    return None if find_procedure(procedure).default_rules else "mcr"  # as camera_scoring


def _play_all(
    args: argparse.Namespace, stream: CameraStream, workdir: Path
) -> tuple[dict[str, list[HandResult]], dict[str, list[str]]]:
    from tilesight.demo.broker import MosquittoBroker

    kills = _kill_hands(args)
    results: dict[str, list[HandResult]] = {}
    problems: dict[str, list[str]] = {}
    with MosquittoBroker() as broker:
        for procedure in args.procedure:
            with Subscriber(broker.url) as subscriber:
                runner = Runner(
                    procedure,
                    _rules(procedure),
                    args,
                    broker.url,
                    stream,
                    subscriber,
                    workdir / procedure,
                    kills[procedure],
                    random.Random(f"{args.seed}-{procedure}"),
                )
                results[procedure], problems[procedure] = runner.run()
    return results, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2, help="hands per procedure")
    parser.add_argument("--procedure", nargs="+", default=["wsom", "national"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kills", type=int, default=0, help="hands killed -9 mid-hand")
    parser.add_argument("--fps", type=float, default=10.0, help="the camera's fps in the config")
    parser.add_argument(
        "--stable-frames", type=int, help="[detector] stable_frames (default: the config's, 3)"
    )
    parser.add_argument("--stream-fps", type=float, default=20.0, help="frames the camera sends")
    parser.add_argument("--state-s", type=float, default=1.0, help="seconds each change shows")
    parser.add_argument("--lead-s", type=float, default=1.0, help="seconds the deal shows")
    parser.add_argument(
        "--clear-s",
        type=float,
        default=5.0,
        help="seconds the table shows swept before each hand after the first",
    )
    parser.add_argument("--tail-s", type=float, default=20.0, help="wait for hand_ended at most")
    parser.add_argument(
        "--grace-s", type=float, default=2.0, help="after hand_ended, then the next hand or stop"
    )
    parser.add_argument("--hand-timeout", type=float, default=400.0)
    parser.add_argument("--workdir", type=Path, help="outboxes, configs and logs (default: tmp)")
    parser.add_argument("--json", type=Path, help="write the per-hand results here")
    parser.add_argument(
        "--limiter", action="store_true", help="only measure the camera worker's frame limiter"
    )
    args = parser.parse_args()
    if args.limiter:
        print("\n".join(limiter_check()))
        return
    import tempfile

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="bench-camera-run-"))
    stream = CameraStream(args.stream_fps)
    began = time.monotonic()
    results, problems = _play_all(args, stream, workdir)
    print("\n".join(report(results, problems)))
    print(
        f"workdir {workdir}; stream fell behind its clock by at most {stream.max_lag:.2f} s; "
        f"{stream.frames_sent} frames sent; {time.monotonic() - began:.0f} s in all"
    )
    if args.json:
        rows = [
            {k: v for k, v in vars(h).items() if k != "log"} | {"procedure": p}
            for p, hands in results.items()
            for h in hands
        ]
        args.json.write_text(json.dumps(rows, indent=1, default=vars))
    failed = any(problems.values()) or any(
        h.alerts or h.missed or h.invented or not h.same_win or (h.kill and not h.kill.resumed)
        for hands in results.values()
        for h in hands
    )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
