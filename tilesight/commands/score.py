"""``tilesight score``: score one declared win (or a stream of them) under a rule set.

HAND is the engine's notation, melds in brackets. With ``--win-tile`` HAND is the hand without
the winning tile; without it the last concealed tile written in HAND is the winning tile.
``--jsonl`` reads one JSON object per line from stdin and writes one result per line, in order;
a bad line gives a result with ``valid: false`` and an ``error``, never a stop.
Rule-set-specific facts (``WinRequest.extras``, e.g. Qujing's ``own_discards`` and
``kong_discard``) pass through ``--extra KEY=JSON`` or an ``"extras": {...}`` object per line.
``--photo PHOTO`` reads the hand from a referee's photo instead (:mod:`.score_photo`).
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from typing import Any

from engine.json_forms import JsonFormError, hand_from_json, tile_from_json, wind_from_json
from engine.notation import Hand
from engine.rulesets import RuleSet, ScoreResult, WinRequest, score_safely

_FLAGS = ("self_drawn", "last_of_kind", "last_tile", "kong_replacement", "robbing_kong")
_FIELDS = frozenset(
    {"hand", "win_tile", "seat_wind", "prevalent_wind", "flowers", "extras", *_FLAGS}
)


class RequestError(ValueError):
    """A request that cannot be built (bad notation, bad field); the message says which."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score a declared win: fans, total and payments",
        description="Score a winning hand under a rule set (default MCR): every fan with its "
        "points, the total (flowers included) and what the other seats pay.",
    )
    parser.add_argument("hand", nargs="?", metavar="HAND", help="e.g. '123m456p789s11mEE [EEE<2]'")
    parser.add_argument(
        "--photo",
        metavar="PHOTO",
        help="read the hand from a photo of it laid face up (exit 3: provisional, check doubts)",
    )
    parser.add_argument(
        "--annotated", metavar="OUT.png", help="with --photo: write the photo with what was read"
    )
    parser.add_argument("--win-tile", metavar="T", help="winning tile (else the last tile of HAND)")
    parser.add_argument("--self-drawn", action="store_true", help="won on a self-drawn tile")
    parser.add_argument("--seat-wind", default="E", metavar="E|S|W|N", help="seat wind (E)")
    parser.add_argument("--prevalent-wind", default="E", metavar="E|S|W|N", help="round wind (E)")
    parser.add_argument(
        "--flowers", type=int, metavar="N", help="flowers held (0; with --photo, those read)"
    )
    parser.add_argument(
        "--last-of-kind", action="store_true", help="the other three copies were visible"
    )
    parser.add_argument("--last-tile", action="store_true", help="the last tile of the wall")
    parser.add_argument(
        "--kong-replacement", action="store_true", help="won on a kong's supplement"
    )
    parser.add_argument("--robbing-kong", action="store_true", help="won by robbing a kong")
    parser.add_argument(
        "--extra",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help="a rule-set-specific fact, e.g. own_discards='\"ESWN\"' or kong_discard=true "
        "(repeatable; see the rule set's docs for the keys it reads)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--jsonl", action="store_true", help="score JSON lines from stdin")
    parser.add_argument("--rules", default="mcr", help="rule set (default: mcr)")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from engine.rulesets import UnknownRuleSetError, find_rules
    from tilesight.cli import CliError

    try:
        rules = find_rules(args.rules)
    except UnknownRuleSetError as exc:
        raise CliError(str(exc)) from None
    if args.photo:
        if args.hand or args.jsonl:
            raise CliError(
                "--photo reads the hand from the photo; do not also give HAND or --jsonl"
            )
        from tilesight.commands.score_photo import run_photo

        return run_photo(args, rules)
    if args.annotated:
        raise CliError("--annotated draws what --photo read: give --photo PHOTO")
    if args.jsonl:
        if args.hand:
            raise CliError("--jsonl reads hands from stdin; do not also give HAND")
        for line in sys.stdin:
            if line.strip():
                print(json.dumps(score_line(rules, line), ensure_ascii=False), flush=True)
        return 0
    if not args.hand:
        raise CliError("give a HAND (e.g. '123m456p789s11mEEE') or --jsonl")
    fields: dict[str, Any] = {
        "hand": args.hand,
        "win_tile": args.win_tile,
        "seat_wind": args.seat_wind,
        "prevalent_wind": args.prevalent_wind,
        "flowers": args.flowers if args.flowers is not None else 0,
    }
    fields |= {flag: getattr(args, flag) for flag in _FLAGS}
    try:
        fields["extras"] = parse_extras(args.extra)
        request = build_request(fields)
    except RequestError as exc:
        if args.json:
            print(json.dumps(_error(str(exc))))
            return 1
        raise CliError(str(exc)) from None
    result = score_safely(rules, request)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(format_result(request, result))
    return 0 if result.valid else 1


def score_line(rules: RuleSet, line: str) -> dict[str, Any]:
    """One JSON-lines request scored; errors become a result with ``valid: false``."""
    try:
        fields = json.loads(line)
    except json.JSONDecodeError as exc:
        return _error(f"not JSON ({exc.msg}): {line.strip()[:80]!r}")
    if not isinstance(fields, dict):
        return _error(f"expected a JSON object, got {line.strip()[:80]!r}")
    try:
        request = build_request(fields)
    except RequestError as exc:
        return _error(str(exc))
    return score_safely(rules, request).to_json()


def parse_extras(items: list[str]) -> dict[str, Any]:
    """``KEY=JSON`` strings as a dict (a later KEY wins); RequestError quotes a bad one."""
    extras: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise RequestError(f"--extra needs KEY=JSON, got {item!r}")
        try:
            extras[key.strip()] = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RequestError(
                f"--extra {key.strip()}: the value is not JSON ({exc.msg}): {text!r}"
                " (quote strings: own_discards='\"ESWN\"')"
            ) from None
    return extras


def build_request(fields: dict[str, Any]) -> WinRequest:
    unknown = sorted(set(fields) - _FIELDS)
    if unknown:
        raise RequestError(f"unknown field(s) {unknown} (known: {sorted(_FIELDS)})")
    text = fields.get("hand")
    if not isinstance(text, str) or not text.strip():
        raise RequestError(f"'hand' must be a non-empty string, got {text!r}")
    try:
        hand = hand_from_json(text, "hand")
        win_text = fields.get("win_tile")
        if win_text is None:
            if not hand.concealed:
                raise RequestError(f"no concealed tile to take as the winning tile in {text!r}")
            win = hand.concealed[-1]
            hand = Hand(hand.concealed[:-1], hand.melds)
        else:
            win = tile_from_json(win_text, "win_tile")
        seat = wind_from_json(fields.get("seat_wind", "E"), "seat_wind")
        prevalent = wind_from_json(fields.get("prevalent_wind", "E"), "prevalent_wind")
    except JsonFormError as exc:
        raise RequestError(str(exc)) from None
    flowers = fields.get("flowers", 0)
    if isinstance(flowers, bool) or not isinstance(flowers, int) or not 0 <= flowers <= 8:
        raise RequestError(f"'flowers' must be a whole number 0-8, got {flowers!r}")
    flags = {flag: fields.get(flag, False) for flag in _FLAGS}
    for flag, value in flags.items():
        if not isinstance(value, bool):
            raise RequestError(f"{flag!r} must be true or false, got {value!r}")
    extras = fields.get("extras", {})
    if not isinstance(extras, dict):
        raise RequestError(f"'extras' must be a JSON object of rule-set facts, got {extras!r}")
    return WinRequest(
        hand,
        win,
        seat_wind=seat,
        prevalent_wind=prevalent,
        flowers=flowers,
        extras=extras,
        **flags,
    )


def _error(message: str) -> dict[str, Any]:
    return ScoreResult(total=0, valid=False, error=message).to_json()


def _width(text: str) -> int:
    """Columns on a terminal: Chinese characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def format_result(request: WinRequest, result: ScoreResult) -> str:
    """A readable table of the fans, the total and the payments."""
    how = "self-drawn" if request.self_drawn or request.kong_replacement else "discard"
    lines = [f"hand {request.hand}  winning tile {request.win_tile} ({how})"]
    if result.fans:
        width = max(_width(f"{f.name} {f.chinese}") for f in result.fans)
        lines.append(f"{'id':>4}  {'fan':<{width}}  points  count  subtotal")
        for fan in result.fans:
            label = f"{fan.name} {fan.chinese}"
            pad = " " * (width - _width(label))
            lines.append(
                f"{fan.id!s:>4}  {label}{pad}  {fan.points:>6}  {fan.count:>5}  "
                f"{fan.points * fan.count:>8}"
            )
    lines.append(f"total {result.total}" + ("" if result.valid else "  (not a valid win)"))
    if result.payments is not None:
        pay = result.payments
        if pay.discarder is None:
            lines.append(f"payments: each other seat pays {pay.each_other}")
        else:
            lines.append(f"payments: discarder {pay.discarder}, each other seat {pay.each_other}")
    if result.error:
        lines.append(f"error: {result.error}")
    return "\n".join(lines)
