"""``score --photo`` measured on photographed winning hands whose truth is known.

    PYTHONPATH=. .venv/bin/python -m models.photo.evaluate_hands ~/.cache/tilesight/scenes/hands
    PYTHONPATH=. .venv/bin/python -m models.photo.evaluate_hands --real hk-table-rf

Rendered hands come from ``models.scenes.render --hands`` (models/scenes/hands.py). Real ones are
the photos of a labelled real set (models.photo.sources) whose labels hold exactly 14 tiles
besides flowers that make a winning hand: players' hands standing on their racks, loose tiles
of the game around them unlabelled (:func:`real_hands`); which tile won is not in a photo, so
the truth takes the one scoring most, given as the discard a referee saw. Each is read
and scored as the command does it: a discard win is given its winning tile (``--win-tile``: the
referee saw the discard), a self-drawn one is read with its tile laid apart. Counted: the right
total (the same total and validity as the truth scored from its own tiles), the provisional
ones, and the one count that must stay 0: a wrong total presented as final.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2

from engine.notation import Hand, format_hand, parse_hand, parse_tile
from engine.rulesets import WinRequest, find_rules
from engine.tiles import Wind
from models.evaluation.metrics import wilson_interval
from models.scenes.obb_set import rendered, usable

Case = tuple[Path, dict]  # a photo and its truth: notation, win, self_drawn, flowers


@dataclass
class HandTally:
    hands: int = 0
    right: int = 0
    provisional: int = 0
    right_and_final: int = 0
    wrong_but_final: int = 0
    hand_read_right: int = 0

    def line(self) -> str:
        low, high = wilson_interval(self.right, self.hands)
        return (
            f"{self.hands} hands: right total {self.right} ({self.right / max(self.hands, 1):.3f}, "
            f"{low:.2f}-{high:.2f}), hand read exactly {self.hand_read_right}, provisional "
            f"{self.provisional}, right and final {self.right_and_final}, "
            f"WRONG BUT FINAL {self.wrong_but_final}"
        )


def truth_request(truth: dict) -> WinRequest:
    hand = parse_hand(truth["notation"])
    win = parse_tile(truth["win"])
    concealed = list(hand.concealed)
    concealed.remove(win)
    return WinRequest(
        Hand(tuple(sorted(concealed)), hand.melds),
        win,
        self_drawn=truth["self_drawn"],
        seat_wind=Wind.EAST,
        prevalent_wind=Wind.EAST,
        flowers=len(truth["flowers"]),
    )


def rendered_hands(folder: Path) -> Iterator[Case]:
    """Rendered hands; their truth holds the flowers the photo shows (a flower the camera left
    out of the frame cannot be read: a referee gives it with ``--flowers``)."""
    for image_path, record in rendered([folder]):
        if record.get("truth") is not None:
            width, height = record["width"], record["height"]
            seen = [
                t["kind"]
                for t in record["tiles"]
                if str(t["kind"]).endswith("f") and usable(t, width, height) is not None
            ]
            yield image_path, {**record["truth"], "flowers": seen}


def real_hands(name: str, rules_name: str = "mcr", cache: Path | None = None) -> Iterator[Case]:
    """Photos of source ``name`` whose labelled tiles are 14 plus flowers and win: the truth
    wins on the tile that scores most (a discard, as a referee would tell the reader)."""
    from models.photo.sources import DEFAULT_CACHE, load

    rules = find_rules(rules_name)
    for image_path, record in load(name, cache or DEFAULT_CACHE):
        names = [t["tile"] for t in record.get("tiles") or []]
        if None in names or not names:
            continue
        flowers = [n for n in names if n.endswith("f")]
        body = sorted(parse_tile(n) for n in names if not n.endswith("f"))
        if len(body) != 14:
            continue
        best: tuple[int, str, str] | None = None
        for win in sorted(set(body)):
            rest = list(body)
            rest.remove(win)
            hand = Hand(tuple(rest), ())
            request = WinRequest(
                hand,
                win,
                self_drawn=False,
                seat_wind=Wind.EAST,
                prevalent_wind=Wind.EAST,
                flowers=len(flowers),
            )
            result = rules.score(request)
            if result.valid and (best is None or result.total > best[0]):
                full = Hand(tuple(body), ())
                best = (result.total, format_hand(full), str(win))
        if best is not None:
            yield (
                image_path,
                {"notation": best[1], "win": best[2], "self_drawn": False, "flowers": flowers},
            )


def evaluate(cases: Iterable[Case], rules_name: str = "mcr", verbose: bool = False) -> HandTally:
    from vision.hand_photo import read_hand
    from vision.photo import PhotoReader
    from vision.photo_alternatives import score_photo_tiles

    rules = find_rules(rules_name)
    reader = PhotoReader()
    tally = HandTally()
    for image_path, truth in cases:
        expected = truth_request(truth)
        want = rules.score(expected)
        _, tiles, _ = reader.read_unstretched(cv2.imread(str(image_path)))
        reading = read_hand(tiles)
        base = WinRequest(
            expected.hand,
            expected.win_tile,
            self_drawn=truth["self_drawn"],
            seat_wind=Wind.EAST,
            prevalent_wind=Wind.EAST,
            flowers=min(len(reading.flowers), 8),
        )
        chosen = None if truth["self_drawn"] else expected.win_tile
        scored = score_photo_tiles(tiles, chosen, base, rules)
        right = (scored.result.total, scored.result.valid) == (want.total, want.valid)
        tally.hands += 1
        tally.right += right
        tally.provisional += scored.provisional
        tally.right_and_final += right and not scored.provisional
        tally.wrong_but_final += (not right) and not scored.provisional
        tally.hand_read_right += _same_tiles(scored.notation, truth["notation"]) and (
            scored.win == expected.win_tile
        )
        if verbose and not right:
            print(
                image_path.name,
                truth["notation"],
                "read",
                scored.notation,
                scored.win,
                [d.kind for d in scored.doubts],
                want.total,
                scored.result.total,
            )
    return tally


def _same_tiles(read: str | None, truth: str) -> bool:
    """The same hand: the same notation, or the same tiles with no melds (a real truth's
    concealed tiles are in no particular sets)."""
    if read is None:
        return False
    if read == truth:
        return True
    a, b = parse_hand(read), parse_hand(truth)
    return not a.melds and not b.melds and sorted(a.concealed) == sorted(b.concealed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path, nargs="?", help="rendered hands")
    parser.add_argument(
        "--real", help="a labelled real set (models.photo.sources), e.g. hk-table-rf"
    )
    parser.add_argument("--rules", default="mcr")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--json", type=Path, help="write the counts here")
    args = parser.parse_args()
    if (args.folder is None) == (args.real is None):
        parser.error("give a folder of rendered hands or --real SET")
    cases = rendered_hands(args.folder) if args.folder else real_hands(args.real, args.rules)
    tally = evaluate(cases, args.rules, args.verbose)
    print(tally.line())
    if args.json:
        args.json.write_text(json.dumps(tally.__dict__, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
