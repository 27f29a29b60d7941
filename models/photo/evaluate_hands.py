"""``score --photo`` measured on photographed winning hands whose truth is known.

    PYTHONPATH=. .venv/bin/python -m models.photo.evaluate_hands ~/.cache/tilesight/scenes/hands

The hands are rendered by ``models.scenes.render --hands`` (models/scenes/hands.py). Each is read
and scored as the command does it: a discard win is given its winning tile (``--win-tile``: the
referee saw the discard), a self-drawn one is read with its tile laid apart. Counted: the right
total (the same total and validity as the truth scored from its own tiles), the provisional
ones, and the one count that must stay 0: a wrong total presented as final.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import cv2

from engine.notation import Hand, parse_hand, parse_tile
from engine.rulesets import WinRequest, find_rules
from engine.tiles import Wind
from models.evaluation.metrics import wilson_interval
from models.scenes.obb_set import rendered


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


def evaluate(folder: Path, rules_name: str = "mcr", verbose: bool = False) -> HandTally:
    from vision.hand_photo import read_hand
    from vision.photo import PhotoReader
    from vision.photo_alternatives import score_photo_tiles

    rules = find_rules(rules_name)
    reader = PhotoReader()
    tally = HandTally()
    for image_path, record in rendered([folder]):
        truth = record.get("truth")
        if truth is None:
            continue
        expected = truth_request(truth)
        want = rules.score(expected)
        tiles = reader.read(cv2.imread(str(image_path)))
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
        tally.hand_read_right += (
            scored.notation == truth["notation"] and scored.win == expected.win_tile
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--rules", default="mcr")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--json", type=Path, help="write the counts here")
    args = parser.parse_args()
    tally = evaluate(args.folder, args.rules, args.verbose)
    print(tally.line())
    if args.json:
        args.json.write_text(json.dumps(tally.__dict__, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
