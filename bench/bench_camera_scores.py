"""Wins scored from the camera alone, from exact detections: how many simulated hands score the
same as the truth, and how fast the reader, bridge and engine get there.

    PYTHONPATH=. .venv/bin/python bench/bench_camera_scores.py --seeds 2 160
    PYTHONPATH=. .venv/bin/python bench/bench_camera_scores.py --seeds 2 160 --procedure national
    PYTHONPATH=. .venv/bin/python bench/bench_camera_scores.py --seeds 2 42 --hide 7

Seeds ``--seeds A B`` (A up to B, exclusive), ``--hands`` simulated hands each (``--procedure``
wsom, Zung Jung scoring; or national: 144 tiles with flowers, MCR scoring, a self-drawn
winning tile laid apart; or qujing), laid out tile by tile where they lie (no model: the
detector's share is measured by ``python -m models.evaluation.evaluate``, part 3c), ``--frames``
frames
per visible change, each winner's hand laid face up. The camera-only table runs under the same
procedure (``--camera-procedure log`` for the old count-only table), its wall broken by the same
dice. A hand counts when it names the same winner, the same self-drawn or discarder, fans, total
and payments, and raises no alert. ``--hide N``: each hand's N-th discard is never read.
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    from models.evaluation.camera_scoring import exact_scored_hands

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, nargs=2, default=(2, 22))
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--frames", type=int, default=4)
    parser.add_argument("--procedure", default="wsom")
    parser.add_argument(
        "--camera-procedure", help="the camera-only table's procedure (default: --procedure)"
    )
    parser.add_argument(
        "--hide",
        type=int,
        metavar="N",
        help="in each hand the camera never reads the N-th discard (from 0; the first unclaimed "
        "one from there): it is inferred when the next seat plays",
    )
    parser.add_argument(
        "--hide-won-on",
        action="store_true",
        help="with --hide: the camera never reads the discard a win is made on instead",
    )
    args = parser.parse_args()
    started = time.monotonic()
    same = total = alerts = 0
    for seed in range(*args.seeds):
        scored = exact_scored_hands(
            seed,
            args.hands,
            args.frames,
            args.procedure,
            camera_procedure=args.camera_procedure,
            hide=args.hide,
            hide_won_on=args.hide_won_on,
        )
        for hand in scored:
            total += 1
            same += hand.same and not hand.alerts
            alerts += len(hand.alerts)
            if not hand.same or hand.alerts:
                print(f"seed {seed} {hand.line()}", flush=True)
    seconds = time.monotonic() - started
    print(
        f"{same}/{total} hands scored the same from exact detections, {alerts} false alerts; "
        f"{seconds:.0f} s ({seconds / max(total, 1):.2f} s per hand)"
    )


if __name__ == "__main__":
    main()
