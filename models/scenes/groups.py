"""How tiles lie together: a revealed hand, a river, a wall, a standing hand, loose tiles, a row
of one suit, a tray of tiles packed in a grid. Each maker returns slots in the group's own plane
coordinates (x along the row, the owner at -y); models.scenes.plan turns and moves the group
onto the table.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np


class _Deck(Protocol):
    def draw(self, name: str | None = None) -> str: ...

    def draw_same(self, count: int) -> list[str]: ...


@dataclass(frozen=True)
class Slot:
    """One tile of a group: kind, how it lies, where (group plane, cm) and how high it stacks."""

    name: str
    pose: str  # "up" face up, "down" face down, "stand" standing facing -y, "lean" tipped
    xy: tuple[float, float]
    turn: float = 0.0  # extra turn about the vertical, radians (a claimed tile: pi/2)
    level: int = 0  # 0 on the surface, 1 on top of another tile (a wall's upper tier)


def _row(
    names: list[tuple[str, str, bool]], style: dict[str, Any], rng: np.random.Generator, y: float
) -> list[Slot]:
    """Tiles side by side along x: (name, pose, turned) each; turned tiles lie sideways with
    their long side along the row, flush with the row's near edge. A name "|" is a gap."""
    w, h = style["w"], style["h"]
    slots, x = [], 0.0
    for name, pose, turned in names:
        if name == "|":
            x += w * float(rng.uniform(0.3, 1.2))
            continue
        span = h if turned else w
        jitter = float(rng.normal(0, 0.02))
        yc = y - (h - w) / 2 if turned else y
        slots.append(Slot(name, pose, (x + span / 2, yc), math.pi / 2 * turned + jitter))
        x += span + w * float(rng.uniform(0.0, 0.05))
    return slots


def revealed_hand(rng: np.random.Generator, deck: _Deck, style: dict[str, Any]) -> list[Slot]:
    """A winning hand laid face up: melds (a claimed tile turned), a concealed kong, the rest."""
    items: list[tuple[str, str, bool]] = []
    melds = int(rng.integers(0, 4))
    for _ in range(melds):
        size = 4 if rng.random() < 0.2 else 3
        if rng.random() < 0.15:  # a concealed kong, ends face down
            kong = deck.draw_same(4)
            items += [(kong[0], "down", False), (kong[1], "up", False), (kong[2], "up", False)]
            items += [(kong[3], "down", False), ("|", "", False)]
            continue
        if size == 3 and rng.random() < 0.5:  # a chow (each tile drawn, so none is a fifth)
            start = f"{int(rng.integers(1, 8))}{'mps'[int(rng.integers(3))]}"
            names = [deck.draw(f"{int(start[0]) + i}{start[1]}") for i in range(3)]
        else:
            names = deck.draw_same(size)
        turned = int(rng.integers(size))
        items += [(n, "up", i == turned) for i, n in enumerate(names)] + [("|", "", False)]
    rest = 14 - 3 * melds
    items += [(deck.draw(), "up", False) for _ in range(max(1, rest - 1))]
    if rng.random() < 0.3:
        items.append(("|", "", False))
    items.append((deck.draw(), "up", False))
    if rng.random() < 0.4:  # flowers set aside at the left
        items = [(deck.draw(f"{k}f"), "up", False) for k in rng.permutation(8)[:2]] + items
    return _row(items, style, rng, 0.0)


def river(rng: np.random.Generator, deck: _Deck, style: dict[str, Any]) -> list[Slot]:
    """Discards in rows of six, the first row nearest the table's centre (+y)."""
    count = int(rng.integers(3, 22))
    slots = []
    for row in range(0, count, 6):
        names = [(deck.draw(), "up", bool(rng.random() < 0.04)) for _ in range(min(6, count - row))]
        slots += _row(names, style, rng, -row * style["h"] * float(rng.uniform(1.0, 1.08)))
    return [Slot(s.name, s.pose, s.xy, s.turn + float(rng.normal(0, 0.06)), s.level) for s in slots]


def wall(rng: np.random.Generator, deck: _Deck, style: dict[str, Any]) -> list[Slot]:
    """Stacks of two face-down tiles, lying across the wall (long side toward the owner)."""
    stacks = int(rng.integers(4, 19))
    slots = []
    for level in (0, 1):
        for i in range(stacks):
            if level == 1 and rng.random() < 0.1:
                continue
            slots.append(Slot(deck.draw(), "down", (i * style["w"] * 1.01, 0.0), 0.0, level))
    return slots


def standing_hand(rng: np.random.Generator, deck: _Deck, style: dict[str, Any]) -> list[Slot]:
    """A concealed hand standing on its long edge, faces toward the owner."""
    count = int(rng.integers(5, 15))
    return _row([(deck.draw(), "stand", False) for _ in range(count)], style, rng, 0.0)


def loose(rng: np.random.Generator, deck: _Deck, style: dict[str, Any]) -> list[Slot]:
    """A few tiles lying anyhow: face up, face down, standing or tipped against one another."""
    slots: list[Slot] = []
    reach = style["h"] * 1.05  # centres closer than a tile's length may intersect
    for _ in range(int(rng.integers(1, 9))):
        pose = str(rng.choice(["up", "down", "stand", "lean"], p=[0.6, 0.25, 0.08, 0.07]))
        for _try in range(20):
            xy = (float(rng.uniform(-4, 4)) * style["w"], float(rng.uniform(-3, 3)) * style["w"])
            if all(math.dist(xy, s.xy) > reach for s in slots):
                slots.append(Slot(deck.draw(), pose, xy, float(rng.uniform(0, 2 * math.pi))))
                break
    return slots


def suit_row(rng: np.random.Generator, deck: _Deck, style: dict[str, Any]) -> list[Slot]:
    """A row of one suit 1-9, the seven honours or the eight flowers, some upside down."""
    pick = int(rng.integers(5))
    if pick < 3:
        names = [f"{r}{'mps'[pick]}" for r in range(1, 10)]
    elif pick == 3:
        names = ["E", "S", "W", "N", "C", "F", "P"]
    else:
        names = [f"{r}f" for r in range(1, 9)]
    flip = rng.random() < 0.5
    items = [(deck.draw(n), "up", False) for n in names]
    slots = _row(items, style, rng, 0.0)
    if flip:  # the whole row upside down, as a photo taken from across the table
        slots = [Slot(s.name, s.pose, s.xy, s.turn + math.pi) for s in slots]
    return slots


def tray(rng: np.random.Generator, deck: _Deck, style: dict[str, Any]) -> list[Slot]:
    """Tiles packed in a grid, touching (a tray, a box, a set laid out to be checked): the
    seams between faces are where a detector must tell one tile from the next."""
    rows, columns = int(rng.integers(2, 6)), int(rng.integers(3, 9))
    gap = style["w"] * float(rng.uniform(0.0, 0.04))
    flip = rng.random() < 0.15
    slots = []
    for row in range(rows):
        for column in range(columns):
            xy = (column * (style["w"] + gap), -row * (style["h"] + gap))
            turn = math.pi if flip and rng.random() < 0.3 else 0.0
            slots.append(Slot(deck.draw(), "up", xy, turn + float(rng.normal(0, 0.01))))
    return slots


GROUP_MAKERS: dict[str, Callable[[np.random.Generator, _Deck, dict[str, Any]], list[Slot]]] = {
    "revealed_hand": revealed_hand,
    "river": river,
    "wall": wall,
    "standing_hand": standing_hand,
    "loose": loose,
    "suit_row": suit_row,
    "tray": tray,
}


def _rotation(axis: str, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def pose_matrix(
    slot: Slot, x: float, y: float, group_turn: float, style: dict[str, Any]
) -> list[list[float]]:
    """The tile's 4x4 pose in the world for ``slot`` placed at (x, y) in a group turned by
    ``group_turn``: its body rests on the surface (or on the tile below, ``level`` 1)."""
    w, h, d = style["w"], style["h"], style["d"]
    spin = _rotation("z", group_turn + slot.turn)
    if slot.pose == "up":
        rot, z = spin, d / 2
    elif slot.pose == "down":
        rot, z = spin @ _rotation("y", math.pi), d / 2 + slot.level * d
    elif slot.pose == "stand":  # on its bottom edge, face toward the group's -y
        rot, z = spin @ _rotation("x", math.pi / 2), h / 2
    else:  # tipped back against something, about 30-60 degrees up from flat
        lift = float(np.random.default_rng(int(abs(x * 997 + y * 131))).uniform(0.5, 1.05))
        rot = spin @ _rotation("x", lift)
        z = (h / 2) * math.sin(lift) + (d / 2) * math.cos(lift)
    matrix = np.eye(4)
    matrix[:3, :3] = rot
    matrix[:3, 3] = (x, y, z)
    del w
    return [[float(v) for v in row] for row in matrix]
