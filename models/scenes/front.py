"""Tiles seen from the front: a standing hand (and what lies before it) through a low camera.

A webcam on the table's edge, a phone held low over a player's shoulder, a stream's side
camera: the tiles stand on their long edges facing the camera, which looks 50-80 degrees from
straight down, upright (little roll). The overhead scenes of :func:`models.scenes.plan.random_plan`
keep the camera within 62 degrees of vertical and turn it any way, so a standing face seen
from the front was rare in training, and the real webcam frames of riichi-webcam-rf (standing
riichi rows) were where the detector found fewest tiles (docs/vision.md). ``front_plan`` gives
such scenes: one to three standing rows, sometimes a river or a revealed hand lying in front,
the camera aimed at the faces of the first row.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from models.scenes.groups import GROUP_MAKERS, Slot, pose_matrix
from models.scenes.plan import Deck, random_plan, tile_style

LYING = ("river", "revealed_hand", "loose", "suit_row")


def _standing_row(rng: np.random.Generator, deck: Deck, style: dict[str, Any]) -> list[Slot]:
    """5-14 tiles standing side by side, faces toward -y, now and then one tipped or a gap."""
    w = style["w"]
    slots, x = [], 0.0
    for _ in range(int(rng.integers(5, 15))):
        pose = "lean" if rng.random() < 0.06 else "stand"
        slots.append(Slot(deck.draw(), pose, (x, float(rng.normal(0, 0.03 * w)))))
        x += w * (1.0 + (rng.uniform(0.3, 1.2) if rng.random() < 0.1 else rng.uniform(0, 0.06)))
    return slots


def front_plan(seed: int) -> dict[str, Any]:
    """One front-view scene, fully determined by ``seed`` (a plan as ``random_plan`` gives)."""
    rng = np.random.default_rng(seed)
    plan = random_plan(seed, empty=0.0)  # surface, light, clutter of an ordinary scene
    style = tile_style(rng)
    plan["style"] = style
    deck = Deck(rng)
    w, h = style["w"], style["h"]
    facing = float(rng.uniform(0, 2 * math.pi))  # the rows' turn; faces point along -y turned
    c, s = math.cos(facing), math.sin(facing)
    rows: list[tuple[list[Slot], float]] = []
    depth = 0.0
    if rng.random() < 0.35:  # something lying in front of the standing tiles, nearer the camera
        lying = GROUP_MAKERS[str(rng.choice(LYING))](rng, deck, style)
        rows.append((lying, -1.6 * h - (max(p.xy[1] for p in lying) if lying else 0.0)))
    for _ in range(int(rng.choice([1, 1, 1, 2, 3]))):
        rows.append((_standing_row(rng, deck, style), depth))
        depth += float(rng.uniform(2.5, 6.0)) * h  # the next player's row, farther away
    tiles = []
    for slots, offset in rows:
        xs = [p.xy[0] for p in slots] or [0.0]
        shift = float(rng.normal(0, 0.4 * w))
        for slot in slots:
            x = slot.xy[0] - (min(xs) + max(xs)) / 2 + shift
            y = slot.xy[1] + offset
            wx, wy = c * x - s * y, s * x + c * y
            matrix = pose_matrix(slot, wx, wy, facing, style)
            tiles.append({"name": slot.name, "face_up": slot.pose != "down", "matrix": matrix})
    plan["tiles"] = tiles
    near = [t for t in tiles if abs(t["matrix"][2][2]) < 0.5] or tiles  # the standing ones
    centre = np.mean([[t["matrix"][0][3], t["matrix"][1][3]] for t in near], axis=0)
    camera = plan["camera"]
    tile_px = float(np.exp(rng.uniform(math.log(18), math.log(110))))
    res = plan["resolution"]
    distance = max(15.0, w * camera["focal_mm"] * max(res) / (tile_px * 36.0))
    camera.update(
        target=[float(centre[0]), float(centre[1]), float(h * 0.4)],
        tilt_deg=float(rng.uniform(50, 80)),
        azimuth_deg=float(math.degrees(facing) - 90 + rng.normal(0, 20)),
        roll_deg=float(rng.normal(0, 4) if rng.random() < 0.85 else rng.uniform(-30, 30)),
        distance=distance,
    )
    plan["clutter"] = [
        k for k in plan["clutter"] if np.hypot(*(np.asarray(k["xy"]) - centre)) > 4 * w
    ]
    return plan
