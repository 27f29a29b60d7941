"""``tilesight gouji``: the Gouji (够级) checking contract and simulator.

``judge --jsonl`` reads ``{"current": [...], "play": [...]}`` lines (``current`` empty for a
lead, an optional ``hand``) and prints ``{"legal", "beats", "gouji", "error"}`` for each;
``settle --jsonl`` reads ``{"finish_order": [six seats, first out first]}`` and prints
``{"scores": [by seat], "alliances": [seats 0/2/4, seats 1/3/5], "error"}``. A bad line gives a
result with an ``error``, never a stop. ``simulate`` prints a seeded game's actions and events.
Rule options: ``--variant`` (docs/rules-gouji.md) and ``--option KEY=JSON``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.gouji.options import GoujiOptions

_SETTLE_FIELDS = frozenset({"finish_order"})


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "gouji",
        help="Gouji (够级) card game: judge plays, settle games, simulate",
        description="Check Gouji plays and finishing orders against the rules engine.",
    )
    verbs = parser.add_subparsers(dest="gouji_command", metavar="VERB", required=True)
    judge = verbs.add_parser("judge", help="is a play legal, does it beat, is it 够级?")
    judge.add_argument("play", nargs="?", metavar="PLAY", help="cards, e.g. '8 8 8 8 8'")
    judge.add_argument("--current", default="", metavar="CARDS", help="the play to beat")
    judge.set_defaults(handler=_judge)
    settle = verbs.add_parser("settle", help="scores and alliance totals of a finishing order")
    settle.add_argument("seats", nargs="*", type=int, metavar="SEAT", help="first out first")
    settle.set_defaults(handler=_settle)
    simulate = verbs.add_parser("simulate", help="play seeded games; print actions and events")
    simulate.add_argument("--seed", type=int, default=1)
    simulate.add_argument("--match", action="store_true", help="play a whole match to 12")
    simulate.set_defaults(handler=_simulate)
    for verb in (judge, settle, simulate):
        if verb is not simulate:
            verb.add_argument("--jsonl", action="store_true", help="JSON lines from stdin")
        verb.add_argument("--variant", default="qingdao", help="rule preset (default: qingdao)")
        verb.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="KEY=JSON",
            help="override one rule option, e.g. bie_san=true (repeatable)",
        )


def _options(args: argparse.Namespace) -> GoujiOptions:
    from engine.gouji.options import GoujiOptionError, UnknownVariantError, find_variant
    from tilesight.cli import CliError

    overrides: dict[str, Any] = {}
    for item in args.option:
        key, sep, text = item.partition("=")
        try:
            overrides[key.strip()] = json.loads(text)
        except json.JSONDecodeError:
            raise CliError(f"--option needs KEY=JSON, got {item!r}") from None
        if not sep:
            raise CliError(f"--option needs KEY=JSON, got {item!r}")
    try:
        return find_variant(args.variant, **overrides)
    except (GoujiOptionError, UnknownVariantError, TypeError) as exc:
        raise CliError(str(exc)) from None


def _each_line(handle: Any) -> None:
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(handle(line), ensure_ascii=False), flush=True)


def judge_line(line: str, options: GoujiOptions) -> dict[str, Any]:
    """One JSON line judged; never raises."""
    from engine.gouji.judge import judge

    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        error = f"not JSON ({exc.msg}): {line.strip()[:80]!r}"
        return {"legal": False, "beats": False, "gouji": False, "error": error}
    try:
        return judge(request, options).to_json()
    except Exception as exc:  # a contract must answer every line
        return {"legal": False, "beats": False, "gouji": False, "error": f"cannot judge: {exc}"}


def settle_line(line: str) -> dict[str, Any]:
    """One finishing order settled; never raises."""
    from engine.gouji.scoring import FinishOrderError, settle_finish_order

    def error(message: str) -> dict[str, Any]:
        return {"scores": None, "alliances": None, "error": message}

    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return error(f"not JSON ({exc.msg}): {line.strip()[:80]!r}")
    if not isinstance(request, dict):
        return error(f"expected a JSON object, got {line.strip()[:80]!r}")
    unknown = sorted(set(request) - _SETTLE_FIELDS)
    if unknown:
        return error(f"unknown field(s) {unknown} (known: ['finish_order'])")
    if "finish_order" not in request:
        return error("missing 'finish_order' (six seats 0-5, first out first)")
    try:
        result = settle_finish_order(request["finish_order"])
    except FinishOrderError as exc:
        return error(str(exc))
    return {"scores": list(result.scores), "alliances": list(result.alliances), "error": None}


def _judge(args: argparse.Namespace) -> int:
    from tilesight.cli import CliError

    options = _options(args)
    if args.jsonl:
        if args.play:
            raise CliError("--jsonl reads plays from stdin; do not also give PLAY")
        _each_line(lambda line: judge_line(line, options))
        return 0
    if not args.play:
        raise CliError("give a PLAY (e.g. '8 8 8 8 8') or --jsonl")
    request = {"current": args.current.split(), "play": args.play.split()}
    result = judge_line(json.dumps(request), options)
    print(json.dumps(result, ensure_ascii=False))
    return 0 if result["legal"] else 1


def _settle(args: argparse.Namespace) -> int:
    from tilesight.cli import CliError

    if args.jsonl:
        if args.seats:
            raise CliError("--jsonl reads finishing orders from stdin; do not also give SEATs")
        _each_line(settle_line)
        return 0
    result = settle_line(json.dumps({"finish_order": args.seats}))
    print(json.dumps(result, ensure_ascii=False))
    return 0 if result["error"] is None else 1


def _simulate(args: argparse.Namespace) -> int:
    from engine.gouji.events import event_to_json
    from engine.gouji.simulate import simulate_game, simulate_match

    options = _options(args)
    games = (
        simulate_match(args.seed, options).games
        if args.match
        else (simulate_game(args.seed, options),)
    )
    for number, game in enumerate(games):
        print(json.dumps({"type": "game_start", "game": number, "leader": game.leader}))
        for event in game.events:
            print(json.dumps(event_to_json(event), ensure_ascii=False))
    return 0
