"""``tilesight replay FILE``: replay a table log or Botzone record and print its events."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.events import to_json
from engine.procedures import UnknownProcedureError, find_procedure
from engine.replay import ReplaySummary, load_record, replay
from engine.rulesets import RuleSet, UnknownRuleSetError, find_rules
from engine.table import Table
from engine.table.events import public_form
from engine.violations import IllegalActionError
from tilesight.cli import CliError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a recorded game through the engine",
        description="Replay a table log (JSON lines of actions) or a Botzone data.txt record: "
        "events go to stdout as JSON lines, a summary to stderr.",
    )
    parser.add_argument("file", help="the record to replay")
    parser.add_argument("--format", choices=("tablelog", "botzone"), help="default: detected")
    parser.add_argument(
        "--procedure", help="wsom, national or log (default: the record's, else log)"
    )
    parser.add_argument("--rules", help="rule set that scores wins (default: the record's)")
    parser.add_argument(
        "--strict", action="store_true", help="stop at the first violation (exit 1)"
    )
    parser.add_argument("--public", action="store_true", help="blank private fields (drawn tiles)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {args.file}: {exc}") from None
    try:
        record = load_record(text, args.format)
    except ValueError as exc:
        raise CliError(f"{args.file}: {exc}") from None
    try:
        procedure = find_procedure(args.procedure or record.procedure or "log")
    except UnknownProcedureError as exc:
        raise CliError(str(exc)) from None
    rules: RuleSet | None = None
    rules_name = args.rules or record.rules
    if rules_name:
        try:
            rules = find_rules(rules_name)
        except UnknownRuleSetError as exc:
            if args.rules:  # asked for by name: an error; the record's default: score nothing
                raise CliError(str(exc)) from None
            print(f"tilesight replay: {exc}; wins are not scored", file=sys.stderr)
    table = Table(procedure, rules=rules, strict=args.strict)
    summary = ReplaySummary()
    out = sys.stdout
    try:
        for event in replay(table, record.actions, summary):
            out.write(to_json(public_form(event) if args.public else event) + "\n")
    except IllegalActionError as exc:
        summary.violations += 1
        summary.kinds[exc.violation.kind.value] += 1
        print(f"tilesight replay: action {summary.actions}: {exc}", file=sys.stderr)
        print(f"tilesight replay: {summary}", file=sys.stderr)
        return 1
    print(f"tilesight replay: {summary}", file=sys.stderr)
    return 0
