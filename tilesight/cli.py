"""``tilesight`` command line: a thin dispatcher over :mod:`tilesight.commands`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from tilesight import __version__

#: Subcommand modules under tilesight.commands, in the order shown by --help.
COMMAND_MODULES: tuple[str, ...] = (
    "replay",
    "demo",
    "run",
    "calibrate",
    "scores",
    "table",
    "table_emulator",
    "detect",
    "watch",
    "score",
    "web",
    "gouji",
)


class CliError(Exception):
    """A user error: printed as one line on stderr, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tilesight", description="Watch a mahjong table and publish what happens on it."
    )
    parser.add_argument("--version", action="version", version=f"tilesight {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"tilesight.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return int(handler(args) or 0)
    except CliError as exc:
        print(f"tilesight {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
