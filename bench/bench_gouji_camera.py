"""Whole Gouji games read by the card camera: ``tilesight demo --game gouji --camera-only``.

    PYTHONPATH=. nice -n 10 .venv/bin/python bench/bench_gouji_camera.py --games 2 --seed 1

The demo's own run (embedded broker, the real service, outbox and score capture), quiet; each
play rendered at 1920 x 1080 and read by the real card reader. Prints the plays seen, missed
(as wrong cards), invented and out of order over all games, whether each game's finishing
order and scores came out as the simulator's, the rule violations, wall-clock seconds and the
frames read per second (reading alone, and everything: rendering, reading, the service).
``--cards-per-seat N`` plays short games instead (the test's).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tilesight.demo.gouji_play import run_gouji_demo  # noqa: E402
from tilesight.demo.options import DemoOptions  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cards-per-seat", type=int)
    parser.add_argument("--frames", type=int, default=4, help="frames per visible change")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--log", action="store_true", help="print the demo's own output too")
    args = parser.parse_args(argv)
    options = DemoOptions(
        seed=args.seed,
        pace_s=0.0,
        quiet=True,
        broker="embedded",
        game="gouji",
        games=args.games,
        camera_only=True,
        vision_frames_per_action=args.frames,
        cards_per_seat=args.cards_per_seat,
    )
    out = io.StringIO()
    summary = run_gouji_demo(options, out)
    if args.log:
        print(out.getvalue())
    games = summary.perception
    frames = sum(g.frames for g in games)
    reading = sum(g.seconds for g in games)
    figures = {
        "games": len(games),
        "plays": sum(g.expected for g in games),
        "seen": sum(g.seen for g in games),
        "missed": sum(g.missed for g in games),
        "as_wrong_cards": sum(g.wrong_tile for g in games),
        "invented": sum(g.invented for g in games),
        "out_of_order": sum(g.wrong_order for g in games),
        "games_as_the_truth": sum(summary.camera_games),
        "rule_violations": summary.violations,
        "seconds": round(summary.seconds, 1),
        "frames": frames,
        "reading_frames_per_s": round(frames / reading, 1) if reading else 0.0,
        "render_seconds": round(sum(g.render_seconds for g in games), 1),
        "overall_frames_per_s": round(frames / summary.seconds, 1) if summary.seconds else 0.0,
        "warnings": [w for g in games for w in g.warnings],
    }
    text = json.dumps(figures, indent=2, ensure_ascii=False)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
