"""Short Gouji games as card-camera video files, read back by the card reader and the seat
watcher (what ``tilesight run`` does with a gouji table's camera), per seed.

    PYTHONPATH=. nice -n 10 .venv/bin/python bench/bench_card_video.py --size 1280x720 --seeds 3:21

Each seed's game (four cards a seat, ``models.cards.gouji_video.write_game_video``: five frames a
change at 10 frames/s, MJPG) is written to a temporary folder, decoded by OpenCV, each frame
read by :class:`vision.cards.CardReader`, the reads sorted into the calibration's seat zones and
held by :class:`vision.card_seats.PlayWatcher`. A game is read whole when its plays came out as
the truth's, seat by seat and in order, compared by rank (the rules ignore suits). Prints one
line per seed (plays, seen, the first difference) and the count of games read whole.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import cv2  # noqa: E402

from models.cards.gouji_video import write_game_video  # noqa: E402
from vision.card_seats import PlayWatcher, SeatZones, SeenPlay, ranks_of  # noqa: E402
from vision.cards import CardReader  # noqa: E402

Play = tuple[int, tuple[str, ...]]


def read_game(video: Path, zones: SeatZones, reader: CardReader) -> list[Play]:
    """The plays the watcher saw in ``video``, as (seat, ranks)."""
    watcher, seen = PlayWatcher(zones), []
    capture = cv2.VideoCapture(str(video))
    try:
        while True:
            ok, image = capture.read()
            if not ok:
                break
            for event in watcher.update(reader.read(image)):
                if isinstance(event, SeenPlay):
                    seen.append((event.seat, ranks_of(event.cards)))
    finally:
        capture.release()
    return seen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1280x720", help="frame size, WxH")
    parser.add_argument("--seeds", default="3:21", help="first:stop (stop not included)")
    parser.add_argument("--cards-per-seat", type=int, default=4)
    args = parser.parse_args(argv)
    width, height = map(int, args.size.lower().split("x"))
    first, stop = map(int, args.seeds.split(":"))
    reader, whole, games = CardReader(), 0, 0
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(first, stop):
            video = write_game_video(
                Path(folder) / f"game{seed}.avi",
                seed=seed,
                cards_per_seat=args.cards_per_seat,
                size=(width, height),
            )
            corners = json.loads(video.calibration.read_text(encoding="utf-8"))["corners"]
            seen = read_game(video.video, SeatZones.from_corners(corners), reader)
            truth = [(seat, ranks_of(cards)) for seat, cards in video.plays]
            games += 1
            whole += seen == truth
            line = f"seed {seed}: {len(truth)} plays, {len(seen)} seen"
            if seen != truth:
                match = difflib.SequenceMatcher(a=truth, b=seen, autojunk=False)
                op = next(op for op in match.get_opcodes() if op[0] != "equal")
                line += (
                    f"; first difference: {op[0]} {truth[op[1] : op[2]]} -> {seen[op[3] : op[4]]}"
                )
            print(line, flush=True)
    print(f"games read whole: {whole}/{games} at {width}x{height}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
