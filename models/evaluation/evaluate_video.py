"""Part 3 of the evaluation: scripted hands rendered as video and read by the full path
(calibration, detector, stabiliser, reader), their events compared with the truth."""

from __future__ import annotations

import numpy as np

from models.art.faces import load_faces
from vision.calibration import Calibration
from vision.detector import Detector
from vision.observed import to_json
from vision.reader import TableReader
from vision.stabiliser import Stabiliser


def hand_video(
    detector: Detector, turns: int, seed: int, kongs: float = 0.0, face_down: bool = False
) -> dict:
    """Part 3: a scripted hand rendered as video; ``kongs``: its concealed kongs per turn,
    laid all face down with ``face_down``."""
    from models.drawn.handvideo import scripted_hand, video_frames

    rng = np.random.default_rng(seed)
    faces = {name: [image] for name, image in load_faces().items()}
    steps = scripted_hand(
        rng, turns=turns, claim_rate=0.2, concealed_kong_rate=kongs, face_down=face_down
    )
    reader: TableReader | None = None
    seen: list[dict[str, object]] = []  # in their JSON form, as the script's truth is
    frames = 0
    for image, corners in video_frames(steps, faces, rng, hold=4, arm_frames=2):
        if reader is None:
            calibration = Calibration(tuple((float(x), float(y)) for x, y in corners))
            reader = TableReader(detector, calibration, Stabiliser(confirm_frames=3))
        seen.extend(to_json(e) for e in reader.process(image))
        frames += 1
    truth = [e for step in steps for e in step.events]
    return {"frames": frames, **compare_events(truth, seen)}


def compare_events(truth: list[dict[str, object]], seen: list[dict[str, object]]) -> dict:
    """Discards, melds and concealed kongs (face down too) read against the truth, in order."""
    compared = ("discard", "meld", "concealed_kong", "face_down_kong")

    def key(e: dict[str, object]) -> tuple[object, ...]:
        if e["type"] in ("discard", "concealed_kong", "face_down_kong"):
            return (e["type"], e["seat"], e.get("tile", "?"))
        return ("meld", e["seat"], e.get("kind"), e.get("claimed"))

    want = [key(e) for e in truth if e["type"] in compared]
    got = [key(e) for e in seen if e["type"] in compared]
    # longest common subsequence: what was read in the right order
    table = np.zeros((len(want) + 1, len(got) + 1), np.int32)
    for i in range(len(want)):
        for j in range(len(got)):
            table[i + 1, j + 1] = (
                table[i, j] + 1 if want[i] == got[j] else max(table[i, j + 1], table[i + 1, j])
            )
    in_order = int(table[-1, -1])
    missing = [w for w in want if w not in got]
    extra = [g for g in got if g not in want]
    wrong_tile = sum(1 for g in extra if any(w[:2] == g[:2] for w in missing))
    return {
        "true_events": len(want),
        "read_events": len(got),
        "in_order": in_order,
        "missed": len(missing) - wrong_tile,
        "false": len(extra) - wrong_tile,
        "wrong_tile": wrong_tile,
        "wrong_order": len(got) - in_order - len(extra),
        "corrections": sum(1 for e in seen if e["type"] == "river_corrected"),
    }
