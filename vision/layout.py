"""Where tiles lie on a table, in table units (0..1 square, centre 0.5, 0.5), for every seat.

Seat 0 sits at the bottom edge of the rectified table, seat 1 at the right, 2 at the top, 3 at the
left (turn order runs counter-clockwise seen from above). A tile's ``orientation`` is how far its
face is turned counter-clockwise in the image: seat 0's river reads 0, seat 1's 90, seat 2's 180.
The same geometry is used by the renderer (to place tiles) and by vision.zones (to read them back),
so the two can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

TILE_W, TILE_H = 0.032, 0.044
RIVER_INNER, RIVER_COLUMNS, RIVER_ROWS = 0.115, 6, 4
WALL_V, WALL_STACKS = 0.335, 18
HAND_V, HAND_HALF_SPAN = 0.43, 0.39
FLOWER_GAP = 0.5 * TILE_W  # between a seat's set-aside flowers and its hand
APART_GAP = 0.5 * TILE_W  # before a self-drawn winning tile laid apart from the hand (单摆)


def to_table(seat: int, u: float, v: float) -> tuple[float, float]:
    """Seat-local offsets (u: owner's left to right, v: from centre toward owner) to table units."""
    du, dv = {0: (u, v), 1: (v, -u), 2: (-u, -v), 3: (-v, u)}[seat % 4]
    return 0.5 + du, 0.5 + dv


def from_table(seat: int, x: float, y: float) -> tuple[float, float]:
    """Inverse of :func:`to_table`."""
    dx, dy = x - 0.5, y - 0.5
    return {0: (dx, dy), 1: (-dy, dx), 2: (-dx, -dy), 3: (dy, -dx)}[seat % 4]


@dataclass
class TileSpot:
    """One tile to draw: class name, centre in table units, size along the seat's axes."""

    name: str
    seat: int
    zone: str  # "river", "meld", "hand", "wall", "flower"
    centre: tuple[float, float]
    orientation: int  # 0/90/180/270, counter-clockwise
    sideways: bool = False
    slot: tuple[int, int] | None = None  # (row, column) for river tiles
    meld: int | None = None  # meld index within the seat

    def corners(self, jitter_deg: float = 0.0) -> np.ndarray:
        """The tile's four corners in table units (4x2), clockwise from the face's top-left."""
        w, h = (TILE_H, TILE_W) if self.orientation in (90, 270) else (TILE_W, TILE_H)
        # the face's top-left corner, after turning the face by its orientation (CCW)
        base = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        shift = {0: 0, 90: 1, 180: 2, 270: 3}[self.orientation]
        base = np.roll(base, shift, axis=0)
        theta = np.radians(jitter_deg)
        rot = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
        return np.asarray(base @ rot.T + np.array(self.centre), np.float64)


@dataclass
class MeldSpec:
    names: list[str]
    sideways_index: int  # 0 left (upper seat), 1 middle (opposite), 2/3 right (lower); -1 none


@dataclass
class TableSpec:
    """Everything visible on a table: per-seat rivers, melds, revealed hands, walls, flowers
    set aside (face up at the owner's left end of the hand row, the hand after them) and a
    self-drawn winning tile laid apart at the right of a revealed hand (``win_apart``)."""

    rivers: list[list[str]] = field(default_factory=lambda: [[] for _ in range(4)])
    melds: list[list[MeldSpec]] = field(default_factory=lambda: [[] for _ in range(4)])
    revealed: list[list[str] | None] = field(default_factory=lambda: [None] * 4)
    concealed: list[int] = field(default_factory=lambda: [13] * 4)
    walls: list[tuple[int, int]] = field(default_factory=lambda: [(0, WALL_STACKS)] * 4)
    flowers: list[list[str]] = field(default_factory=lambda: [[] for _ in range(4)])
    win_apart: list[str | None] = field(default_factory=lambda: [None] * 4)


def hand_start(spec: TableSpec, seat: int) -> float:
    """Where the seat's standing or revealed hand begins along its row (owner's left, table
    units from the centre): at the row's left end, or after the flowers set aside there."""
    count = len(spec.flowers[seat])
    return -HAND_HALF_SPAN + (count * TILE_W + FLOWER_GAP if count else 0.0)


def river_slot_centre(seat: int, row: int, col: int) -> tuple[float, float]:
    u = (col - (RIVER_COLUMNS - 1) / 2) * TILE_W
    v = RIVER_INNER + row * TILE_H + TILE_H / 2
    return to_table(seat, u, v)


def layout(spec: TableSpec) -> list[TileSpot]:
    """Every visible tile of ``spec`` placed on the table (concealed hands are not listed)."""
    spots: list[TileSpot] = []
    for seat in range(4):
        face = seat * 90
        for index, name in enumerate(spec.rivers[seat]):
            row, col = divmod(index, RIVER_COLUMNS)
            spots.append(
                TileSpot(
                    name, seat, "river", river_slot_centre(seat, row, col), face, slot=(row, col)
                )
            )
        first, last = spec.walls[seat]
        for stack in range(first, last):
            u = (stack - (WALL_STACKS - 1) / 2) * TILE_W
            spots.append(TileSpot("back", seat, "wall", to_table(seat, u, WALL_V), face))
        right = HAND_HALF_SPAN
        for meld_index, meld in enumerate(spec.melds[seat]):
            sizes = [TILE_H if i == meld.sideways_index else TILE_W for i in range(len(meld.names))]
            u = right - sum(sizes)
            for i, name in enumerate(meld.names):
                sideways = i == meld.sideways_index
                along = sizes[i]
                v = HAND_V + (TILE_H - TILE_W) / 2 if sideways else HAND_V
                orient = (face + 90) % 360 if sideways else face
                spots.append(
                    TileSpot(
                        name,
                        seat,
                        "meld",
                        to_table(seat, u + along / 2, v),
                        orient,
                        sideways=sideways,
                        meld=meld_index,
                    )
                )
                u += along
            right -= sum(sizes) + 0.012
        for index, name in enumerate(spec.flowers[seat]):
            u = -HAND_HALF_SPAN + (index + 0.5) * TILE_W
            spots.append(TileSpot(name, seat, "flower", to_table(seat, u, HAND_V), face))
        hand = spec.revealed[seat]
        if hand is not None:
            start = hand_start(spec, seat)
            for index, name in enumerate(hand):
                u = start + (index + 0.5) * TILE_W
                spots.append(TileSpot(name, seat, "hand", to_table(seat, u, HAND_V), face))
            apart = spec.win_apart[seat]
            if apart is not None:
                u = start + len(hand) * TILE_W + APART_GAP + TILE_W / 2
                spots.append(TileSpot(apart, seat, "hand", to_table(seat, u, HAND_V), face))
    return spots
