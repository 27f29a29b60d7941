"""Where the tiles of a photographed hand lie: the owner's up, each tile's pose, rows and gaps.

No calibration: a tile's own quad says where its row runs (an upright tile's top edge lies
along it, a turned tile's side), and a homography keeps lines straight, so two tiles are in one
row when each lies on the other's row line. Perspective only changes the local scale, so gaps
are measured in the widths of the tiles beside them.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from vision.photo import PhotoTile

REACH = 6.0  # tiles of one row are linked up to this many tile lengths apart ...
ROW_BAND = 0.5  # ... when each lies within half the other's depth of the other's row line
SECOND_ROW = 3.5  # a second row within this many tile depths of the main one is the hand's
SECOND_ROW_LEAST = 3  # ... when it holds a meld's tiles at least, all lying square to the hand
SQUARE_TO_HAND = math.cos(math.radians(15))  # a tile within 15 degrees of the hand's grid
WHOLE_ROW = 14  # a row this long is a whole hand: a second row beside it is the table's
TURNED_ASPECT = 0.75  # width over length of a tile, for a turned tile with no upright tile near
GAP_MARGIN = 0.25  # a gap this many tile widths over the hand's usual spacing splits groups
SAME_TILE = 0.5  # quads whose centres are closer than this many tile widths are of one tile
GRID_LINE = 4  # a hand laid as a block: lines of at most this many tiles ...
GRID_LINES = 4  # ... at least this many of them, one behind another ...
GRID_STEP = 1.8  # ... each within this many tile depths of the next ...
GRID_TILES = (13, 18)  # ... holding a hand's tiles


@dataclass(frozen=True)
class TilePose:
    """A tile as laid: its centre, unit row (owner's right) and up directions in the image, its
    extent along the row and across it (px), and whether it lies turned."""

    centre: np.ndarray
    right: np.ndarray
    up: np.ndarray
    length: float
    depth: float
    turned: bool


def owner_up(faces: list[PhotoTile]) -> np.ndarray:
    """The owner's up in the image: where most faces point (turned tiles are 90 degrees off it
    and fewer; a face read upside down is outvoted)."""
    if not faces:
        return np.array([0.0, -1.0])
    angles = np.array([np.arctan2(t.up[1], t.up[0]) for t in faces])
    axis = float(np.angle(np.exp(4j * angles).sum())) / 4  # the grid's turn, modulo 90 degrees
    candidates = axis + np.pi / 2 * np.arange(4)
    near = [np.cos(angles - c) > np.cos(np.pi / 4) for c in candidates]
    best = int(np.argmax([n.sum() for n in near]))
    mean = np.array([np.cos(angles[near[best]]).sum(), np.sin(angles[near[best]]).sum()])
    return _unit(mean, np.array([np.cos(candidates[best]), np.sin(candidates[best])]))


def pose(tile: PhotoTile, up: np.ndarray) -> TilePose:
    """``tile`` laid in a hand whose owner's up is ``up``: turned when its face's up is nearer
    the row than the owner's up (a back's quad is taken as the reader gives it)."""
    q = tile.quad
    across = (q[1] - q[0] + q[2] - q[3]) / 2  # the face's left to right
    along = (q[0] + q[1] - q[2] - q[3]) / 2  # the face's bottom to top
    right = np.array([-up[1], up[0]])  # the owner's right (image y points down)
    direction = _unit(along, up)
    turned = bool(abs(direction @ up) < abs(direction @ right))
    lengthwise, depthwise = (along, across) if turned else (across, along)
    lengthwise = lengthwise if lengthwise @ right >= 0 else -lengthwise
    depthwise = depthwise if depthwise @ up >= 0 else -depthwise
    length = max(float(np.linalg.norm(lengthwise)), 1e-6)
    depth = max(float(np.linalg.norm(depthwise)), 1e-6)
    centre = q.mean(axis=0)
    return TilePose(centre, _unit(lengthwise, right), _unit(depthwise, up), length, depth, turned)


def one_per_tile(
    tiles: tuple[PhotoTile, ...], indices: list[int]
) -> tuple[list[int], list[tuple[int, int]]]:
    """Of quads over one tile the likeliest reading stays: the indices kept, and (kept, dropped)
    pairs of differing readings."""
    kept: list[int] = []
    differing = []
    for i in sorted(indices, key=lambda i: -tiles[i].confidence):
        size = SAME_TILE * min(tiles[i].width, tiles[i].height)
        near = (k for k in kept if math.dist(tiles[k].centre, tiles[i].centre) < size)
        twin = next(near, None)
        if twin is None:
            kept.append(i)
        elif tiles[twin].tile != tiles[i].tile:
            differing.append((twin, i))
    return sorted(kept), differing


def hand_rows(poses: dict[int, TilePose], up: np.ndarray) -> tuple[list[list[int]], list[int]]:
    """The hand's rows, front (nearest the owner) to back and each from the owner's left: the
    longest row and, when it is short of a whole hand, one beside it that could hold melds (three
    tiles or more, each square to the hand: loose tiles of the game lie at any angle). The tiles
    of any other row are returned apart."""
    parent = {i: i for i in poses}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in itertools.combinations(poses, 2):
        if _same_row(poses[a], poses[b]):
            parent[root(a)] = root(b)
    found: dict[int, list[int]] = {}
    for i in poses:
        found.setdefault(root(i), []).append(i)
    rows = sorted(found.values(), key=len, reverse=True)
    block = _block(rows, poses, up)
    if block is not None:  # one concealed run: a block shows no meld (no tile turned)
        return [block], sorted(i for i in poses if i not in block)
    hand = rows[:1]
    for row in rows[1:] if rows and len(rows[0]) < WHOLE_ROW else []:
        if len(hand) == 1 and _could_hold_melds(row, poses, up) and _beside(hand[0], row, poses):
            hand.append(row)
    hand.sort(key=lambda row: float(np.mean([poses[i].centre @ up for i in row])))
    outside = sorted(i for row in rows if row not in hand for i in row)
    return [_ordered(row, poses) for row in hand], outside


def _block(rows: list[list[int]], poses: dict[int, TilePose], up: np.ndarray) -> list[int] | None:
    """A hand laid as a block of short lines one behind another (a set to a line, as photos of
    sorted hands often show): its tiles line by line from the front; None when the longest row
    is longer than GRID_LINE or no such block of upright lines holds a hand's tiles."""
    if not rows or len(rows[0]) > GRID_LINE:
        return None
    lines = [
        _ordered(row, poses)
        for row in rows
        if len(row) >= 2
        and all(not poses[i].turned and float(poses[i].up @ up) >= SQUARE_TO_HAND for i in row)
    ]
    if len(lines) < GRID_LINES:
        return None
    depth = float(np.median([poses[i].depth for line in lines for i in line]))
    length = float(np.median([poses[i].length for line in lines for i in line]))
    right = _unit(np.array([-up[1], up[0]]), np.array([1.0, 0.0]))
    centre = {id(line): np.mean([poses[i].centre for i in line], axis=0) for line in lines}
    lines.sort(key=lambda line: float(centre[id(line)] @ up))
    chains: list[list[list[int]]] = [[lines[0]]]
    for line in lines[1:]:
        step = centre[id(line)] - centre[id(chains[-1][-1])]
        if abs(float(step @ up)) <= GRID_STEP * depth and abs(float(step @ right)) <= length * 2:
            chains[-1].append(line)
        else:
            chains.append([line])
    best = max(chains, key=lambda chain: sum(map(len, chain)))
    tiles = sum(map(len, best))
    if len(best) < GRID_LINES or not GRID_TILES[0] <= tiles <= GRID_TILES[1]:
        return None
    return [i for line in best for i in line]


def split_at_gaps(rows: list[list[int]], poses: dict[int, TilePose]) -> list[list[list[int]]]:
    """Each row cut into groups where a gap is wider than the hand's usual spacing (its median
    gap, at most 0.4 tile widths) by GAP_MARGIN."""
    gaps = [row_gaps(row, poses) for row in rows]
    usual = min(max(float(np.median([g for row in gaps for g in row] or [0.0])), 0.0), 0.4)
    split = []
    for row, row_gap in zip(rows, gaps, strict=True):
        cuts = [k + 1 for k, gap in enumerate(row_gap) if gap > usual + GAP_MARGIN]
        split.append([row[a:b] for a, b in itertools.pairwise([0, *cuts, len(row)])])
    return split


def row_gaps(row: list[int], poses: dict[int, TilePose]) -> list[float]:
    """The gap after each tile of an ordered row but the last, in the local tile width (a
    turned tile's width is that of the upright tile nearest it)."""
    direction = _direction(row, poses)
    upright = [i for i in row if not poses[i].turned]

    def width(i: int) -> float:
        tile = poses[i]
        if not tile.turned:
            return tile.length
        if not upright:
            return tile.length * TURNED_ASPECT
        near = min(upright, key=lambda k: float(np.linalg.norm(poses[k].centre - tile.centre)))
        return poses[near].length

    gaps = []
    for i, k in itertools.pairwise(row):
        a, b = poses[i], poses[k]
        span = float((b.centre - a.centre) @ direction) - (a.length + b.length) / 2
        gaps.append(span / ((width(i) + width(k)) / 2))
    return gaps


def _offset(a: TilePose, b: TilePose) -> tuple[float, float]:
    """Where b's centre lies from a's: a's lengths along a's row, a's depths across it."""
    basis = np.column_stack([a.right, a.up])
    if abs(float(np.linalg.det(basis))) < 1e-6:
        return np.inf, np.inf
    along, across = np.linalg.solve(basis, b.centre - a.centre)
    return float(along) / a.length, float(across) / a.depth


def _same_row(a: TilePose, b: TilePose) -> bool:
    return all(
        abs(along) <= REACH and abs(across) < ROW_BAND
        for along, across in (_offset(a, b), _offset(b, a))
    )


def _beside(main: list[int], row: list[int], poses: dict[int, TilePose]) -> bool:
    """``row`` lies alongside ``main`` within SECOND_ROW tile depths of it."""
    return any(near_row(poses[b], main, poses) for b in row)


def near_row(tile: TilePose, row: list[int], poses: dict[int, TilePose]) -> bool:
    """``tile`` lies within SECOND_ROW tile depths of ``row`` (and REACH lengths of its
    nearest tile along it): a flower set aside beside a hand, a second row of melds."""
    if not row:
        return False
    a = min(row, key=lambda a: float(np.linalg.norm(poses[a].centre - tile.centre)))
    along, across = _offset(poses[a], tile)
    return abs(along) <= REACH and abs(across) < SECOND_ROW


def _could_hold_melds(row: list[int], poses: dict[int, TilePose], up: np.ndarray) -> bool:
    """Three tiles or more, each lying square to the owner's up (upright or turned)."""
    return len(row) >= SECOND_ROW_LEAST and all(
        abs(float(poses[i].up @ up)) >= SQUARE_TO_HAND for i in row
    )


def _direction(row: list[int], poses: dict[int, TilePose]) -> np.ndarray:
    return _unit(np.sum([poses[i].right for i in row], axis=0), poses[row[0]].right)


def _ordered(row: list[int], poses: dict[int, TilePose]) -> list[int]:
    direction = _direction(row, poses)
    return sorted(row, key=lambda i: float(poses[i].centre @ direction))


def _unit(vector: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 1e-9 else fallback
