"""A random photo-like scene as plain data: tiles, clutter, surface, light and camera.

Units are centimetres; the surface is the plane z = 0. A tile's local axes are x across its face,
y along it (toward the face's top as its owner reads it) and z out of its face, centred on the
tile's body; ``matrix`` is its 4x4 pose in the world. A plan is JSON-ready, so the Blender side
(models.scenes.blender_scene) only builds what it is told and the randomness stays here, seeded.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from models.scenes.groups import GROUP_MAKERS, Slot, pose_matrix
from vision.crops import TILE_NAMES

SURFACES = ("felt", "wood", "glass", "cloth", "floor", "autotable", "marble")
SURFACE_WEIGHTS = (0.26, 0.16, 0.12, 0.12, 0.1, 0.14, 0.1)
BACK_COLOURS = (  # linear-ish RGB of a set's back layer (none white: a blank face is 白板)
    (0.05, 0.3, 0.08), (0.02, 0.12, 0.4), (0.75, 0.55, 0.05), (0.7, 0.25, 0.02),
    (0.5, 0.03, 0.03), (0.03, 0.03, 0.03), (0.45, 0.45, 0.42), (0.6, 0.2, 0.4),
    (0.25, 0.05, 0.4), (0.05, 0.35, 0.35),
)  # fmt: skip
CLUTTER = ("cup", "phone", "dice", "chips", "sticks", "card", "hand", "pen", "coaster", "bowl")
HDRIS = (
    "apartment", "bridge", "city", "dawn", "esplanade", "forest", "hall", "lab", "lobby",
    "night", "park", "sky", "studio", "sunrise", "sunset", "venice", "warehouse", "workshop",
)  # fmt: skip
FACE_SOURCES = ("camerash", "ours", "cc0", "mixed")
FACE_WEIGHTS = (0.4, 0.25, 0.2, 0.15)


def tile_style(rng: np.random.Generator) -> dict[str, Any]:
    """One set's look: size, body and back colours, gloss and where its faces come from."""
    width = float(rng.uniform(2.2, 3.2))
    ivory = 0.78 + 0.17 * rng.random()
    warm = rng.uniform(0.0, 0.08)
    return {
        "w": width,
        "h": width * float(rng.uniform(1.27, 1.42)),
        "d": width * float(rng.uniform(0.6, 0.82)),
        "back_frac": float(rng.uniform(0.25, 0.55)),
        "inset": float(rng.uniform(0.05, 0.1)),
        "bevel": float(rng.uniform(0.04, 0.09)),
        "ivory": [ivory, ivory - warm * 0.5, ivory - warm],
        "back": [float(c) for c in BACK_COLOURS[rng.integers(len(BACK_COLOURS))]],
        "roughness": float(rng.uniform(0.08, 0.4)),
        "faces": str(rng.choice(FACE_SOURCES, p=FACE_WEIGHTS)),
    }


class Deck:
    """Draws tile kinds with at most four of each (eight flowers, one of each)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.left = {name: 1 if name.endswith("f") else 4 for name in TILE_NAMES}

    def draw(self, name: str | None = None) -> str:
        if name is None or self.left.get(name, 0) <= 0:
            names = [n for n, k in self.left.items() if k > 0 and not n.endswith("f")]
            name = str(self.rng.choice(names))
        self.left[name] -= 1
        return name

    def draw_same(self, count: int) -> list[str]:
        """``count`` copies of one kind that still has them (a pung, a kong)."""
        names = [n for n, k in self.left.items() if k >= count and not n.endswith("f")]
        name = str(self.rng.choice(names))
        self.left[name] -= count
        return [name] * count


def _place_groups(slots_per_group: list[list[Slot]], rng: np.random.Generator, w: float) -> list:
    """Each group turned and moved so no two overlap (bounding circles), around the origin."""
    placed: list[tuple[float, float, float]] = []
    tiles = []
    for slots in slots_per_group:
        pts = np.array([s.xy for s in slots]) if slots else np.zeros((1, 2))
        centre = pts.mean(axis=0)
        radius = float(np.max(np.linalg.norm(pts - centre, axis=1))) + 1.2 * w
        for attempt in range(200):
            spread = 2.0 * w * (1 + len(placed)) ** 0.8 * (1 + attempt / 40)
            x, y = rng.uniform(-spread, spread, 2)
            if all(math.hypot(x - px, y - py) > radius + pr for px, py, pr in placed):
                break
        placed.append((float(x), float(y), radius))
        turn = float(rng.uniform(0, 2 * math.pi))
        c, s = math.cos(turn), math.sin(turn)
        for slot in slots:
            dx, dy = slot.xy[0] - centre[0], slot.xy[1] - centre[1]
            xy = (x + c * dx - s * dy, y + s * dx + c * dy)
            tiles.append((slot, xy, turn))
    return tiles


def _camera(rng: np.random.Generator, target: np.ndarray, w: float, res: tuple[int, int]) -> dict:
    tilt = float(rng.uniform(0, 45) if rng.random() < 0.85 else rng.uniform(45, 62))
    focal = float(rng.uniform(24, 70))
    tile_px = float(np.exp(rng.uniform(np.log(13), np.log(130))))
    distance = max(12.0, w * focal * max(res) / (tile_px * 36.0))
    return {
        "target": [float(target[0]), float(target[1]), 0.0],
        "tilt_deg": tilt,
        "azimuth_deg": float(rng.uniform(0, 360)),
        "roll_deg": float(rng.uniform(0, 360)),
        "focal_mm": focal,
        "distance": distance,
        "aperture": float(rng.choice([0.0, 0.0, rng.uniform(1.8, 4.0)])),
    }


def random_plan(seed: int, empty: float = 0.08) -> dict[str, Any]:
    """One scene, fully determined by ``seed``; ``empty`` is the share without any tile."""
    rng = np.random.default_rng(seed)
    style = tile_style(rng)
    deck = Deck(rng)
    makers = list(GROUP_MAKERS)
    groups: list[list[Slot]] = []
    if rng.random() >= empty:
        for _ in range(int(rng.integers(1, 4))):
            maker = GROUP_MAKERS[makers[int(rng.integers(len(makers)))]]
            groups.append(maker(rng, deck, style))
    placed = _place_groups(groups, rng, style["w"])
    tiles = []
    for slot, (x, y), turn in placed:
        matrix = pose_matrix(slot, x, y, turn, style)
        tiles.append({"name": slot.name, "face_up": slot.pose != "down", "matrix": matrix})
    centres = np.array([[t["matrix"][0][3], t["matrix"][1][3]] for t in tiles]) if tiles else None
    target = centres.mean(axis=0) + rng.normal(0, style["w"], 2) if tiles else rng.normal(0, 5, 2)
    res = (640, 480) if rng.random() < 0.7 else (480, 640)
    span = 8 * style["w"] + (float(np.ptp(centres, axis=0).max()) if tiles else 20.0)
    clutter = [
        {
            "kind": str(rng.choice(CLUTTER)),
            "xy": [float(v) for v in target + rng.uniform(-span, span, 2)],
            "turn": float(rng.uniform(0, 2 * math.pi)),
            "scale": float(rng.uniform(0.8, 1.25)),
            "colour": [float(c) for c in rng.uniform(0.02, 0.9, 3)],
        }
        for _ in range(int(rng.integers(0 if tiles else 2, 7)))
    ]
    return {
        "seed": seed,
        "resolution": list(res),
        "style": style,
        "tiles": tiles,
        "clutter": clutter,
        "surface": {
            "kind": str(rng.choice(SURFACES, p=SURFACE_WEIGHTS)),
            "colour": [float(c) for c in rng.uniform(0.02, 0.7, 3)],
            "colour2": [float(c) for c in rng.uniform(0.02, 0.9, 3)],
            "scale": float(rng.uniform(0.3, 3.0)),
        },
        "light": {
            "hdri": str(rng.choice(HDRIS)),
            "strength": float(rng.uniform(0.35, 2.2)),
            "turn": float(rng.uniform(0, 2 * math.pi)),
            "lamps": [
                {
                    "xyz": [float(v) for v in rng.uniform(-80, 80, 2)]
                    + [float(rng.uniform(40, 160))],
                    "colour": [float(c) for c in rng.uniform(0.55, 1.0, 3)],
                    "power": float(rng.uniform(2e4, 3e5)),
                    "size": float(rng.uniform(5, 60)),
                }
                for _ in range(int(rng.integers(0, 3)))
            ],
        },
        "camera": _camera(rng, target, style["w"], res),
    }
