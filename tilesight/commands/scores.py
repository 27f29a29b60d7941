"""``tilesight scores``: capture every hand's result of a tournament; print or export standings."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tilesight.scores import ScoreConsumer


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "scores",
        help="score capture: store every table's results, print or export standings",
        description="Subscribes to every table of a tournament (a shared subscription, so "
        "several may run), stores each result once by event_id, repairs gaps with cmd/resync. "
        "With --offline, only prints/exports what the database holds.",
    )
    parser.add_argument("--tournament", required=True, help="tournament id")
    parser.add_argument("--mqtt", metavar="URL", default="mqtt://127.0.0.1:1883", help="broker")
    parser.add_argument(
        "--db",
        default="tilesight-scores.sqlite",
        metavar="PATH_OR_URL",
        help="SQLite file (default: %(default)s) or a PostgreSQL URL for a hall, e.g. "
        "postgresql://scores:PASS@db.hall:5432/tournament?schema=scores "
        "(needs the 'postgres' extra)",
    )
    parser.add_argument("--name", default="scores", help="consumer name (unique per instance)")
    parser.add_argument("--group", default="tilesight-scores", help="shared-subscription group")
    parser.add_argument("--offline", action="store_true", help="do not connect; just report")
    parser.add_argument("--duration", type=float, help="stop after this many seconds")
    parser.add_argument(
        "--connect-timeout",
        type=float,
        default=15.0,
        metavar="S",
        help="give up (exit 2) when the broker cannot be reached this long at start (15)",
    )
    parser.add_argument("--csv", type=Path, help="write standings as CSV here on exit")
    parser.add_argument("--json", type=Path, help="write standings as JSON here on exit")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    import signal
    import threading

    from tilesight.cli import CliError
    from tilesight.config import ConfigError, parse_mqtt_url, redact_url
    from tilesight.score_store import (
        StoreUnavailableError,
        format_standings,
        open_store,
        redact,
        standings_csv,
        standings_json,
    )
    from tilesight.scores import ScoreConsumer
    from tilesight.supervisor import setup_logging
    from tilesight.topics import TopicError, check_id

    try:
        check_id("tournament", args.tournament)
        endpoint = parse_mqtt_url(args.mqtt, "TILESIGHT_MQTT_USERNAME", "TILESIGHT_MQTT_PASSWORD")
    except (ConfigError, TopicError) as exc:
        raise CliError(str(exc)) from exc
    setup_logging("INFO")
    try:
        store = open_store(args.db)
    except (StoreUnavailableError, ValueError) as exc:
        raise CliError(f"cannot open the score database {redact(args.db)!r}: {exc}") from exc
    try:
        if not args.offline:
            done = threading.Event()

            def hand(event: dict[str, object]) -> None:
                print(
                    f"{event['table']} hand {event['hand_number']}: {event['result']}, "
                    f"deltas {event['deltas']}",
                    flush=True,
                )

            consumer = ScoreConsumer(
                endpoint,
                args.tournament,
                store,
                name=args.name,
                group=args.group or None,
                on_hand=hand,
            )
            old = {
                s: signal.signal(s, lambda *_: done.set()) for s in (signal.SIGINT, signal.SIGTERM)
            }
            consumer.start()
            try:
                _wait_connected(consumer, args.connect_timeout, done, redact_url(args.mqtt))
                done.wait(args.duration)
            finally:
                consumer.stop()
                for sig, handler in old.items():
                    signal.signal(sig, handler)
        try:
            standings = store.standings(args.tournament)
        except StoreUnavailableError as exc:
            raise CliError(f"cannot read standings from {redact(args.db)!r}: {exc}") from exc
        print(format_standings(standings))
        if args.csv:
            args.csv.write_text(standings_csv(standings), encoding="utf-8")
        if args.json:
            args.json.write_text(standings_json(args.tournament, standings), encoding="utf-8")
    finally:
        store.close()
    return 0


def _wait_connected(consumer: ScoreConsumer, timeout: float, done: Any, where: str) -> None:
    """Return once connected; a refusal of the credentials, or no broker within ``timeout``,
    is an error (exit 2) rather than standings built from nothing."""
    from tilesight.cli import CliError

    deadline = time.monotonic() + timeout
    while not consumer.connected.wait(0.1):
        if consumer.refused is not None:
            raise CliError(f"{consumer.refused} ({where})")
        if done.is_set():
            return
        if time.monotonic() > deadline:
            raise CliError(f"broker {where} not reachable within {timeout:.0f} s")
