"""A video file of a simulated Gouji game, as an overhead card camera would record it, for
``tilesight run`` with a card camera (docs/cards.md) and its tests.

The simulator plays a game (a short one: ``cards_per_seat`` cards a seat); every change a
camera can see (a play laid in its seat's zone, a seat's earlier play of the trick put on the
face-down pile, a trick gathered) is rendered by :class:`models.cards.gouji_frames.GoujiTableRender`
for ``frames_per_change`` frames, after a few frames of the empty table. Besides the video
(MJPG in AVI: OpenCV writes and reads it everywhere), it writes the calibration the table's
corners give (``tilesight calibrate``'s JSON) and the truth: the deal as a ``gouji_start``
action (no camera sees the hands: a scorer sends it as ``cmd/action``) and every play in order.

    python -m models.cards.gouji_video game.avi --seed 3 --cards-per-seat 4 --size 960x540

writes ``game.avi``, ``game.calibration.json`` and ``game.truth.json``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.actions import action_to_dict
from engine.gouji.events import Play, TrickWon
from engine.gouji.notation import card_list
from engine.gouji.simulate import SimulatedGame, simulate_short_game, table_actions
from engine.gouji.table import GoujiGame
from models.cards.gouji_frames import GoujiTableRender
from vision.calibration import Calibration

#: Frames of the empty table before the first play (a camera running before the lead).
EMPTY_FRAMES = 3


@dataclass(frozen=True)
class GameVideo:
    """What :func:`write_game_video` wrote: the paths, and the truth's plays (seat, cards)."""

    video: Path
    calibration: Path
    truth: Path
    plays: list[tuple[int, list[str]]]
    frames: int


def table_states(game: SimulatedGame) -> Iterator[tuple[list[list[str]], int, list[int]]]:
    """Each table state a camera sees in turn: what lies in each seat's zone, how many cards
    the face-down pile holds, and the change at which each zone's play was laid (a play lies
    still while it lies there). The empty table first, the table cleared last."""
    zones: list[list[str]] = [[] for _ in range(6)]
    laid, pile, changes = [0] * 6, 0, 0
    yield [list(z) for z in zones], pile, list(laid)
    truth = GoujiGame(game.hands, game.leader, revolutionary=game.revolutionary)
    for action in game.actions:
        step = truth.apply(action)
        if isinstance(action, Play):
            pile += len(zones[action.seat])  # its earlier play of the trick goes on the pile
            changes += 1
            zones[action.seat], laid[action.seat] = card_list(action.cards), changes
            yield [list(z) for z in zones], pile, list(laid)
        if any(isinstance(e, TrickWon) for e in step.events) and any(zones):
            pile += sum(map(len, zones))
            zones = [[] for _ in range(6)]
            yield [list(z) for z in zones], pile, list(laid)
    if any(zones):  # the game is over: the table is cleared
        pile += sum(map(len, zones))
        yield [[] for _ in range(6)], pile, list(laid)


def write_game_video(
    out: Path,
    *,
    seed: int = 3,
    cards_per_seat: int = 4,
    size: tuple[int, int] = (960, 540),
    frames_per_change: int = 5,
    fps: float = 10.0,
) -> GameVideo:
    """Simulate a short game from ``seed`` and write its video, calibration and truth next
    to ``out`` (``<stem>.calibration.json``, ``<stem>.truth.json``)."""
    game = simulate_short_game(seed, cards_per_seat)
    render = GoujiTableRender(seed, frame=size)
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"MJPG"), fps, size)
    if not writer.isOpened():
        raise OSError(f"cannot write a video to {str(out)!r}")
    frames = 0
    try:
        for change, (zones, pile, laid) in enumerate(table_states(game)):
            count = EMPTY_FRAMES if change == 0 else frames_per_change
            for image in render.frames(zones, pile, count, change, laid=laid):
                writer.write(np.ascontiguousarray(image))
                frames += 1
    finally:
        writer.release()
    corners = tuple((float(x), float(y)) for x, y in render.corners)
    calibration = out.with_name(out.stem + ".calibration.json")
    calibration.write_text(Calibration(corners, size).to_json(), encoding="utf-8")
    plays = [(a.seat, card_list(a.cards)) for a in game.actions if isinstance(a, Play)]
    truth = out.with_name(out.stem + ".truth.json")
    start = action_to_dict(table_actions(game)[0])
    truth.write_text(json.dumps({"start": start, "plays": plays}), encoding="utf-8")
    return GameVideo(out, calibration, truth, plays, frames)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the video file to write (.avi)")
    parser.add_argument("--seed", type=int, default=3, help="the game's and the table's seed")
    parser.add_argument("--cards-per-seat", type=int, default=4, help="1..36 (default 4)")
    parser.add_argument("--size", default="960x540", help="frame size WxH (default 960x540)")
    parser.add_argument("--frames-per-change", type=int, default=5, help="frames a state shows")
    args = parser.parse_args(argv)
    width, _, height = args.size.partition("x")
    made = write_game_video(
        args.out,
        seed=args.seed,
        cards_per_seat=args.cards_per_seat,
        size=(int(width), int(height)),
        frames_per_change=args.frames_per_change,
    )
    print(f"{made.video}: {made.frames} frames, {len(made.plays)} plays")
    print(f"calibration {made.calibration}; deal and truth {made.truth}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
