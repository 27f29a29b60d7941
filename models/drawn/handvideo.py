"""Scripted hands as table states, and a rendered video of them with the true events.

A hand is played from a shuffled set of 136 tiles: seats discard in turn; now and then a later seat
pungs or the next seat chows the live discard (the tile leaves the river and appears turned in the
claimer's meld, on the side of the seat it came from); optionally a seat declares a concealed kong
in its own turn (four tiles laid with the two end ones face down, or all four face down). Each
state is held for some frames while an arm reaches to the table between states, so a reader must
cope with occlusion.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from models.drawn.camera import render_frame
from vision.layout import MeldSpec, TableSpec

SIDEWAYS_INDEX = {3: 0, 2: 1, 1: 2}  # relative seat of the discarder -> turned tile position


@dataclass
class Step:
    spec: TableSpec
    events: list[dict[str, object]]  # the true events this state adds


def _kinds() -> list[str]:
    from engine.tiles import KINDS

    return [str(tile) for tile in KINDS]


def scripted_hand(
    rng: np.random.Generator,
    turns: int = 24,
    claim_rate: float = 0.15,
    concealed_kong_rate: float = 0.0,
    face_down: bool = False,
) -> list[Step]:
    """States of one hand: each step adds one discard, one claim (meld plus removal) or, at
    ``concealed_kong_rate`` per turn not begun by a claim, one concealed kong (0 draws nothing,
    so a seed plays the same hand as before the option), laid all face down with ``face_down``
    (its true event is then a ``face_down_kong`` without a tile)."""
    wall = [name for name in _kinds() for _ in range(4)]
    rng.shuffle(wall)
    spec = TableSpec(walls=[(0, 18)] * 4)
    steps: list[Step] = [Step(copy.deepcopy(spec), [])]
    seat = 0
    claimed = False
    for _ in range(turns):
        if concealed_kong_rate and not claimed and rng.random() < concealed_kong_rate:
            kong = _concealed_kong(seat, spec, wall, face_down)
            if kong is not None:
                steps.append(Step(copy.deepcopy(spec), [kong]))
        claimed = False
        tile = wall.pop()
        spec.rivers[seat].append(tile)
        steps.append(Step(copy.deepcopy(spec), [{"type": "discard", "seat": seat, "tile": tile}]))
        claimer, meld = _claim(seat, tile, spec, wall, rng, rate=claim_rate)
        if claimer is not None and meld is not None:
            spec.rivers[seat].pop()
            spec.melds[claimer].append(meld)
            spec.concealed[claimer] -= 3
            kind = "pung" if len(set(meld.names)) == 1 else "chow"
            steps.append(
                Step(
                    copy.deepcopy(spec),
                    [
                        {
                            "type": "meld",
                            "seat": claimer,
                            "kind": kind,
                            "tiles": meld.names,
                            "claimed": tile,
                        }
                    ],
                )
            )
            seat = claimer
            claimed = True
            continue
        seat = (seat + 1) % 4
    return steps


def _concealed_kong(
    seat: int, spec: TableSpec, wall: list[str], face_down: bool = False
) -> dict[str, object] | None:
    """Four copies of the first kind the wall still holds all of, laid as the seat's kong."""
    if len(spec.melds[seat]) >= 3:
        return None
    tile = next((t for t in reversed(wall) if wall.count(t) == 4), None)
    if tile is None:
        return None
    for _ in range(4):
        wall.remove(tile)
    spec.concealed[seat] -= 3
    if face_down:
        spec.melds[seat].append(MeldSpec(["back"] * 4, -1))
        return {"type": "face_down_kong", "seat": seat}
    spec.melds[seat].append(MeldSpec(["back", tile, tile, "back"], -1))
    return {"type": "concealed_kong", "seat": seat, "tile": tile}


def _claim(
    discarder: int,
    tile: str,
    spec: TableSpec,
    wall: list[str],
    rng: np.random.Generator,
    *,
    rate: float,
) -> tuple[int | None, MeldSpec | None]:
    if rng.random() > rate:
        return None, None
    claimer = int((discarder + rng.integers(1, 4)) % 4)
    if len(spec.melds[claimer]) >= 3:
        return None, None
    relative = (discarder - claimer) % 4
    index = SIDEWAYS_INDEX[relative]
    if relative == 3 and tile[0].isdigit() and int(tile[0]) <= 7:
        run = [f"{int(tile[0]) + i}{tile[1]}" for i in range(3)]
        if all(run.count(t) <= wall.count(t) for t in run[1:]):
            for t in run[1:]:
                wall.remove(t)
            names = run[1:]
            names.insert(index, tile)
            return claimer, MeldSpec(names, index)
    if wall.count(tile) >= 2:
        wall.remove(tile)
        wall.remove(tile)
        return claimer, MeldSpec([tile] * 3, index)
    return None, None


def video_frames(
    steps: list[Step],
    faces: dict[str, list[np.ndarray]],
    rng: np.random.Generator,
    *,
    frame_size: tuple[int, int] = (1920, 1080),
    hold: int = 5,
    arm_frames: int = 2,
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(frame, table corners) for every frame: each state held ``hold`` frames after an arm."""
    from models.drawn.camera import random_camera

    w, h = frame_size
    corners = random_camera(w, h, rng, span=(0.85, 0.95))
    distortion = float(rng.uniform(-0.03, 0.03))
    table_seed = int(rng.integers(1 << 30))  # same felt, backs and tile placement throughout
    for step in steps:
        for i in range(arm_frames + hold):
            frame = render_frame(
                step.spec,
                faces,
                np.random.default_rng(rng.integers(1 << 30)),
                frame_size=frame_size,
                arms=1 if i < arm_frames else 0,
                corners=corners,
                distortion=distortion,
                table_seed=table_seed,
            )
            yield frame.image, frame.table_corners
