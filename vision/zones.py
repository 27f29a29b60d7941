"""Which seat and zone a tile lies in, and its river slot, from its centre in table units.

The table (0..1 square, seat 0 at the bottom, counter-clockwise) splits into four triangles, one
per seat; within a seat's triangle the distance from the centre toward the owner picks the zone:
river (rows of six, row 0 nearest the centre), wall, then the hand row where exposed melds lie at
the owner's right and a revealed hand at the left. Geometry comes from vision.layout, the same
numbers the renderer used.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.layout import (
    HAND_HALF_SPAN,
    HAND_V,
    RIVER_COLUMNS,
    RIVER_INNER,
    TILE_H,
    TILE_W,
    WALL_STACKS,
    WALL_V,
    from_table,
    to_table,
)

RIVER_MAX_ROWS = 5  # a long hand spills into a fifth row before the wall
_MARGIN = 0.35 * TILE_W


@dataclass(frozen=True)
class Place:
    """Where a tile lies: seat 0-3, zone name, and (row, column) for a river tile."""

    seat: int
    zone: str  # "river", "wall", "hand_row" (melds and revealed hands), "centre" or "off"
    row: int | None = None
    column: int | None = None
    u: float = 0.0  # along the owner's left-to-right, table units from the centre
    v: float = 0.0  # from the centre toward the owner


def seat_of(x: float, y: float) -> int:
    """The seat whose triangle of the table holds the point."""
    return max(range(4), key=lambda seat: from_table(seat, x, y)[1])


def place_of(x: float, y: float) -> Place:
    seat = seat_of(x, y)
    u, v = from_table(seat, x, y)
    if not (0 <= x <= 1 and 0 <= y <= 1):
        return Place(seat, "off", u=u, v=v)
    river_end = min(RIVER_INNER + RIVER_MAX_ROWS * TILE_H, WALL_V - TILE_H / 2)
    if RIVER_INNER - _MARGIN <= v < river_end and abs(u) <= RIVER_COLUMNS / 2 * TILE_W + _MARGIN:
        row = min(max(int((v - RIVER_INNER) // TILE_H), 0), RIVER_MAX_ROWS - 1)
        column = min(max(round(u / TILE_W + (RIVER_COLUMNS - 1) / 2), 0), RIVER_COLUMNS - 1)
        return Place(seat, "river", row, column, u, v)
    if abs(v - WALL_V) <= TILE_H / 2 + _MARGIN and abs(u) <= WALL_STACKS / 2 * TILE_W + _MARGIN:
        return Place(seat, "wall", u=u, v=v)
    if abs(v - HAND_V) <= TILE_H / 2 + 2 * _MARGIN and abs(u) <= HAND_HALF_SPAN + _MARGIN:
        return Place(seat, "hand_row", u=u, v=v)
    return Place(seat, "centre" if v < RIVER_INNER else "off", u=u, v=v)


def zone_polygons() -> dict[str, list[tuple[float, float]]]:
    """Each seat's river, wall and hand-row zones as 0..1 polygons (for overlays and docs)."""
    out = {}
    spans = {
        "river": (RIVER_COLUMNS / 2 * TILE_W, RIVER_INNER, RIVER_INNER + 4 * TILE_H),
        "wall": (WALL_STACKS / 2 * TILE_W, WALL_V - TILE_H / 2, WALL_V + TILE_H / 2),
        "hand_row": (HAND_HALF_SPAN, HAND_V - TILE_H / 2, HAND_V + TILE_H / 2),
    }
    for seat in range(4):
        for zone, (half, near, far) in spans.items():
            corners = [(-half, near), (half, near), (half, far), (-half, far)]
            out[f"seat{seat}.{zone}"] = [to_table(seat, u, v) for u, v in corners]
    return out
