"""``tilesight demo``: play complete hands end to end and publish them over MQTT."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="play simulated hands end to end and publish them over MQTT",
        description="Simulated hands -> emulated shuffling table -> engine -> outbox -> MQTT, "
        "read back by a score-capture consumer. Without --mqtt it starts a private Mosquitto, or "
        "the embedded MQTT 5 broker when Mosquitto is not installed (see --broker).",
    )
    parser.add_argument("--mqtt", metavar="URL", help="broker, e.g. mqtt://user:pass@host:1883")
    parser.add_argument(
        "--broker",
        choices=("auto", "mosquitto", "embedded"),
        default="auto",
        help="broker to start when --mqtt is not given (default: auto = mosquitto if installed)",
    )
    parser.add_argument(
        "--game",
        choices=("mahjong", "gouji"),
        default="mahjong",
        help="mahjong hands (default) or Gouji (够级) games of six seats (with --camera-only: "
        "read by the card camera from rendered frames)",
    )
    parser.add_argument("--games", type=int, default=2, help="Gouji games to play (default: 2)")
    parser.add_argument(
        "--cards-per-seat",
        type=int,
        metavar="N",
        help="Gouji: short games of N cards a seat instead of a match's full deals (1..36)",
    )
    parser.add_argument("--variant", default="qingdao", help="Gouji rule variant (qingdao)")
    parser.add_argument("--tournament", default="demo", help="tournament id (default: demo)")
    parser.add_argument("--table", default="T01", help="table id (default: T01)")
    parser.add_argument("--hands", type=int, default=4, help="hands to play (default: 4)")
    parser.add_argument("--seed", type=int, default=1, help="simulation seed (default: 1)")
    parser.add_argument(
        "--pace", type=float, default=0.05, metavar="S", help="seconds between events (0.05)"
    )
    parser.add_argument("--procedure", default="wsom", help="wall procedure (default: wsom)")
    parser.add_argument("--rules", default="mcr", help="rule set (default: mcr)")
    parser.add_argument("--outbox", type=Path, help="outbox file (reuse it to resume a run)")
    parser.add_argument("--scores-db", type=Path, help="score-capture database file")
    parser.add_argument("--no-consumer", action="store_true", help="publish only")
    parser.add_argument("--quiet", action="store_true", help="no per-event log lines")
    parser.add_argument(
        "--vision",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="render each hand overhead and read it with the real detector, stabiliser and "
        "reader, reporting what perception got right (the engine still gets the simulator's "
        "actions); --no-vision skips it (default: on)",
    )
    parser.add_argument(
        "--vision-frames-per-action",
        type=int,
        default=4,
        metavar="N",
        help="frames rendered after each visible action (default: 4, the stabiliser's minimum)",
    )
    parser.add_argument(
        "--camera-only",
        action="store_true",
        help="feed the engine only what the camera path reads from the rendered frames, as at "
        "a table without a shuffling table (the simulator keeps the truth for comparison); "
        "the summary gives rule violations, perception against the truth and each win (Gouji: "
        "each game's finishing order and scores)",
    )
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    import sys

    from tilesight.cli import CliError
    from tilesight.demo.play import DemoOptions, run_demo
    from tilesight.supervisor import setup_logging

    if args.hands < 1 or args.hands > 64:
        raise CliError(f"--hands must be 1..64, got {args.hands}")
    if args.mqtt and args.broker != "auto":
        raise CliError(f"--broker {args.broker} starts a broker; it cannot be combined with --mqtt")
    if args.pace < 0:
        raise CliError(f"--pace must be >= 0, got {args.pace}")
    if args.camera_only and not args.vision:
        raise CliError("--camera-only reads the rendered frames: it cannot go with --no-vision")
    if args.vision_frames_per_action < 1:
        raise CliError(
            f"--vision-frames-per-action must be >= 1, got {args.vision_frames_per_action}"
        )
    setup_logging("WARNING")
    if args.game == "gouji":
        return _run_gouji(args)
    options = DemoOptions(
        mqtt=args.mqtt,
        tournament=args.tournament,
        table=args.table,
        hands=args.hands,
        seed=args.seed,
        pace_s=args.pace,
        outbox=args.outbox,
        scores_db=args.scores_db,
        procedure=args.procedure,
        rules=args.rules,
        quiet=args.quiet,
        consumer=not args.no_consumer,
        broker=args.broker,
        vision=args.vision,
        vision_frames_per_action=args.vision_frames_per_action,
        camera_only=args.camera_only,
    )
    try:
        summary = run_demo(options, sys.stdout)
    except (ValueError, LookupError, OSError, RuntimeError) as exc:
        raise CliError(str(exc)) from exc
    return 0 if summary.unsent == 0 and (summary.caught_up or args.no_consumer) else 1


def _run_gouji(args: argparse.Namespace) -> int:
    import sys

    from engine.gouji.options import GoujiOptionError, find_variant
    from tilesight.cli import CliError
    from tilesight.demo.gouji_play import run_gouji_demo
    from tilesight.demo.play import DemoOptions

    if not 1 <= args.games <= 64:
        raise CliError(f"--games must be 1..64, got {args.games}")
    if args.cards_per_seat is not None and not 1 <= args.cards_per_seat <= 36:
        raise CliError(f"--cards-per-seat must be 1..36, got {args.cards_per_seat}")
    if args.camera_only and args.vision_frames_per_action < 3:
        raise CliError("--camera-only Gouji holds a play 3 frames: --vision-frames-per-action >= 3")
    try:
        find_variant(args.variant)
    except (GoujiOptionError, LookupError) as exc:
        raise CliError(str(exc)) from exc
    options = DemoOptions(
        mqtt=args.mqtt,
        tournament=args.tournament,
        table=args.table,
        seed=args.seed,
        pace_s=args.pace,
        outbox=args.outbox,
        scores_db=args.scores_db,
        quiet=args.quiet,
        consumer=not args.no_consumer,
        broker=args.broker,
        game="gouji",
        games=args.games,
        variant=args.variant,
        camera_only=args.camera_only,
        vision_frames_per_action=args.vision_frames_per_action,
        cards_per_seat=args.cards_per_seat,
    )
    try:
        summary = run_gouji_demo(options, sys.stdout)
    except (ValueError, LookupError, OSError, RuntimeError) as exc:
        raise CliError(str(exc)) from exc
    return 0 if summary.unsent == 0 and (summary.caught_up or args.no_consumer) else 1
