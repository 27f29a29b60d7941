"""``tilesight score --photo PHOTO``: score a revealed hand from a referee's phone photo.

The photo is read by :class:`vision.photo.PhotoReader`, its tiles grouped into rows, melds,
kongs, flowers and the tile laid apart by :func:`vision.hand_photo.read_hand`, and the hand
scored like ``tilesight score HAND``. The winning tile is ``--win-tile`` (taken out of a whole
hand, or added to a hand a tile short: a discard won on, not laid down), else the tile laid
apart, else the best-scoring tile (doubted when the choice changes the total or the tile was
not seen). A win on the tile laid apart is self-drawn. ``--flowers`` overrides the flowers read.
Tiles that make no valid win as read are tried with one doubted tile read as its runner-up
(:mod:`vision.photo_alternatives`); a change that makes a win is shown, named as a doubt.

The total is **provisional** whenever anything is doubted: a tile read unsure, a group that is
no meld, a back where a face belongs, a count other than 14, a fifth copy, tiles that make no
winning shape, a winning tile guessed, a flower lying away from the hand. Tiles away from the
hand's rows (the game's other tiles on the table) are a **note** once the hand read is whole and
a valid win: shown, not holding the total back. Exit status: 0 a final valid win, 1 a sure
reading that is not a valid win (e.g. under MCR's 8 points), 3 provisional, 2 a usage error or
a photo that cannot be read.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

import numpy as np

from engine.notation import Hand, NotationError, parse_tile
from engine.rulesets import RuleSet, WinRequest
from engine.tiles import Wind
from vision.hand_photo import read_hand
from vision.photo import PhotoTile
from vision.photo_alternatives import score_photo_tiles
from vision.photo_hand import Doubt, GroupKind, PhotoHand, TileGroup
from vision.photo_score import ScoredPhoto
from vision.photo_stretch import stretched_back

PROVISIONAL_EXIT = 3


def run_photo(args: argparse.Namespace, rules: RuleSet) -> int:
    from tilesight.cli import CliError
    from tilesight.commands.score import RequestError, format_result, parse_extras
    from vision.capture import CaptureError, read_image
    from vision.detector_backends import DetectorError
    from vision.photo import PhotoReader

    try:
        image = read_image(Path(args.photo))
        base = WinRequest(
            Hand(()),
            parse_tile(args.win_tile or "1m"),  # a placeholder until the win is known
            self_drawn=args.self_drawn,
            seat_wind=Wind.parse(args.seat_wind),
            prevalent_wind=Wind.parse(args.prevalent_wind),
            flowers=args.flowers or 0,
            last_of_kind=args.last_of_kind,
            last_tile=args.last_tile,
            kong_replacement=args.kong_replacement,
            robbing_kong=args.robbing_kong,
            extras=parse_extras(args.extra),
        )
        _, tiles, squeeze = PhotoReader().read_unstretched(image)
    except (CaptureError, DetectorError, RequestError, NotationError) as exc:
        raise CliError(str(exc)) from None
    reading = read_hand(tiles)
    if not tiles:
        _annotate(args, image, reading, ["PROVISIONAL: no tiles found"], alert=True)
        raise CliError(f"no tiles found in {args.photo!r}")
    if args.flowers is None:
        base = replace(base, flowers=min(len(reading.flowers), 8))
    chosen = parse_tile(args.win_tile) if args.win_tile else None
    scored = _in_photo(score_photo_tiles(tiles, chosen, base, rules), squeeze)
    reading = scored.reading
    result = scored.result
    stretched = _stretch_note(squeeze)
    if args.json:
        out = scored.to_json()
        if stretched:  # read squeezed; coordinates are the photo's own all the same
            out["squeezed"] = {"width": squeeze[0], "height": squeeze[1], "note": stretched}
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(_summary(args.photo, reading))
        if stretched:
            print(f"note: {stretched}")
        print(format_result(scored.request, result) if scored.win else f"error: {result.error}")
        print("".join(f"{_label(d)}: {d.message}\n" for d in scored.doubts), end="")
        if scored.provisional:
            print("PROVISIONAL: the total is not final until the doubts are checked (exit 3)")
    verdict = f"total {result.total} ({'valid win' if result.valid else 'not a valid win'})"
    if scored.provisional:
        verdict = f"PROVISIONAL {verdict}: {len(scored.checks)} doubt(s)"
    lines = [verdict, f"{scored.notation}  win {scored.win or '?'}"]
    lines += [d.message for d in (scored.checks or scored.doubts)[:2]]
    _annotate(args, image, reading, lines, alert=scored.provisional, dropped=scored.dropped)
    if scored.provisional:
        return PROVISIONAL_EXIT
    return 0 if result.valid else 1


def _in_photo(scored: ScoredPhoto, squeeze: tuple[float, float]) -> ScoredPhoto:
    """``scored`` with its tiles in the photo's own pixels (read squeezed: vision.photo_stretch)."""
    if squeeze == (1, 1):
        return scored
    tiles = tuple(stretched_back(t, squeeze) for t in scored.reading.tiles)
    dropped = tuple(stretched_back(t, squeeze) for t in scored.dropped)
    return replace(scored, reading=replace(scored.reading, tiles=tiles), dropped=dropped)


def _stretch_note(squeeze: tuple[float, float]) -> str:
    """What a referee is told when the photo was read squeezed back (vision.photo_stretch)."""
    if squeeze == (1, 1):
        return ""
    axis, times = ("width", squeeze[0]) if squeeze[0] > 1 else ("height", squeeze[1])
    return f"the photo looks stretched {times:.3g}x in {axis}; read squeezed back"


def _label(doubt: Doubt) -> str:
    return "note" if doubt.note else "doubt"


def _summary(photo: str, reading: PhotoHand) -> str:
    rows = " | ".join(
        " ".join(_shown(g) for g in reading.groups if g.row == n) for n in range(len(reading.rows))
    )
    flowers = " ".join(str(t) for t in reading.flowers) or "none"
    return f"photo {photo}: {len(reading.tiles)} tiles; rows {rows or '-'}; flowers {flowers}"


def _shown(group: TileGroup) -> str:
    text = group.notation or group.kind.value.replace("_", " ")
    return f"{text} (apart)" if group.kind is GroupKind.APART else text


def _annotate(
    args: argparse.Namespace,
    image: np.ndarray,
    reading: PhotoHand,
    lines: list[str],
    *,
    alert: bool,
    dropped: tuple[PhotoTile, ...] = (),
) -> None:
    if not args.annotated:
        return
    from tilesight.cli import CliError
    from vision.annotate import AnnotateError, Outline, annotate, save

    outlines = [
        Outline(g.members, g.notation or g.kind.value, g.kind.value) for g in reading.groups
    ]
    first = len(reading.tiles)  # boxes taken for no tile: drawn apart, to be checked
    outlines += [Outline((first + n,), "no tile?", "dropped") for n in range(len(dropped))]
    tiles = (*reading.tiles, *dropped)
    try:
        save(Path(args.annotated), annotate(image, tiles, outlines, lines, alert=alert))
    except AnnotateError as exc:
        raise CliError(str(exc)) from None
