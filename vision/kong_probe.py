"""A second look beside short hand-row groups for the face-down tiles of a concealed kong.

The detector was trained on backs in walls; beside a concealed kong's face-up tiles it finds the
face-down ones only now and then (0.3-0.7, often not at all), so a kong would flicker between a
kong and two loose faces. The classifier reads a back well. So where a hand row shows a short
group (one to three upright faces of one kind, perhaps with backs, or two or three backs alone:
a kong laid all face down), the tile-sized slots just
beyond its ends are cut and read; a slot read as a back with probability ``min_back`` or more
becomes a "back" detection, and the search goes on outward until the group holds four tiles.
Slots holding a detection of ``strong`` confidence, or outside the hand row, are not read; a
weaker detection in a slot read as a back is replaced. Other groups (melds with a turned tile,
revealed hands) are left alone, and a table without short groups costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np

from vision.crops import crop_tile, kind_probabilities
from vision.detector import Detection
from vision.detector_backends import CANVAS
from vision.faces import BACK, Face
from vision.layout import HAND_V, TILE_W, to_table
from vision.zones import place_of

KONG = 4
WEAK_BACK = 0.25  # a back this sure may start a search (see _groups)


def _centre(d: Detection) -> np.ndarray:
    x1, y1, x2, y2 = d.box
    return np.array([(x1 + x2) / 2, (y1 + y2) / 2])


def _upright(d: Detection, seat: int) -> bool:
    x1, y1, x2, y2 = d.box
    return (x2 - x1 > y2 - y1) == (seat % 2 == 1)


def _pitch(seat: int) -> np.ndarray:
    """One tile width along the seat's row, owner's left to right, in canvas pixels."""
    return (np.subtract(to_table(seat, TILE_W, HAND_V), to_table(seat, 0.0, HAND_V))) * CANVAS


def _groups(found: list[Detection], strong: float) -> list[tuple[int, list[Detection]]]:
    """Hand-row detections of ``strong`` confidence or more per seat (backs of ``WEAK_BACK``
    or more: the detector scores the backs of a kong laid face down low), split where
    neighbours are more than 1.28 tile widths apart (a turned tile within a meld is 1.19 from
    its neighbour, the next meld 1.375)."""
    rows: dict[int, list[tuple[float, Detection]]] = {}
    for d in found:
        if d.confidence < (min(strong, WEAK_BACK) if d.face is BACK else strong):
            continue
        x, y = _centre(d) / CANVAS
        place = place_of(float(x), float(y))
        if place.zone == "hand_row":
            rows.setdefault(place.seat, []).append((place.u, d))
    out = []
    for seat, row in sorted(rows.items()):
        row.sort(key=lambda item: item[0])
        group = [row[0]]
        for item in row[1:]:
            if item[0] - group[-1][0] > 1.28 * TILE_W:
                out.append((seat, [d for _, d in group]))
                group = []
            group.append(item)
        out.append((seat, [d for _, d in group]))
    return out


def _candidates(seat: int, group: list[Detection], strong: float) -> list[list[Detection]]:
    """The parts of a hand-row group to search beside: the group itself when it may be part of
    a kong, else each run of backs in it (a weak back can bridge a kong laid face down to the
    meld beside it), its ``strong`` backs first: a weak back's box may be poorly fitted, while
    the slot beside the strong ones is cut to the tile's pitch."""
    if _kong_part(seat, group, strong):
        return [group]
    kinds = [part for part in _by_kind(group) if _kong_part(seat, part, strong)]
    if len(kinds) > 1:  # two kongs laid end tiles down side by side, their backs touching
        return kinds
    runs: list[list[Detection]] = [[]]
    for d in group:
        if d.face is BACK:
            runs[-1].append(d)
        elif runs[-1]:
            runs.append([])
    out = []
    for run in runs:
        sure = [d for d in run if d.confidence >= strong]
        pick = next((r for r in (sure, run) if r and _kong_part(seat, r, strong)), None)
        if pick is not None and len(run) < len(group):
            out.append(pick)
    return out


def _by_kind(group: list[Detection]) -> list[list[Detection]]:
    """``group`` split where backs lie between faces of different kinds, those backs shared out
    half each way (the touching end tiles of two kongs side by side)."""
    parts: list[list[Detection]] = [[]]
    backs: list[Detection] = []  # backs since the last face
    kind: Face | None = None
    for d in group:
        if d.face is BACK:
            backs.append(d)
            continue
        if kind is not None and d.face != kind and backs:
            half = (len(backs) + 1) // 2
            parts[-1] += backs[:half]
            parts.append(backs[half:])
        else:
            parts[-1] += backs
        backs = []
        parts[-1].append(d)
        kind = d.face
    parts[-1] += backs
    return parts


def _kong_part(seat: int, group: list[Detection], strong: float) -> bool:
    """Upright tiles, one kind's faces: fewer than four, or four with a back among them; or
    backs alone, fewer than four or four with one under ``strong`` (a kong laid all face down,
    backs not found or found weakly)."""
    shown = [d.face for d in group]
    upright = all(_upright(d, seat) for d in group)
    faces = set(shown) - {BACK}
    if not faces:
        weak = any(d.confidence < strong for d in group)
        return upright and (len(group) < KONG or (len(group) == KONG and weak))
    short = len(group) < KONG or (len(group) == KONG and BACK in shown)
    return short and len(faces) == 1 and upright


def probe_kong_backs(
    canvas: np.ndarray,
    found: list[Detection],
    read_crops: Callable[[np.ndarray], np.ndarray],
    *,
    min_back: float = 0.8,
    strong: float = 0.35,
    empty_at: Callable[[float, float], bool] | None = None,
) -> list[Detection]:
    """``found`` (canvas pixels) plus the backs read beside short hand-row groups; a back the
    detector scored low inside such a group takes the classifier's probability when that is
    ``min_back`` or more. ``strong``: the confidence that makes a tile (the stabiliser's
    ``min_confidence``). The two ends are tried in turn (a kong laid end tiles down finds one
    back on each side before either side goes further; beside two faces only the slot just
    beyond each is read), and a side stops at its first slot that is not a back, that another
    group's tile lies next to (that slot is the other group's), that is taken, or where
    ``empty_at`` (table units; vision.reader.FeltCheck) sees bare felt: the classifier was never
    shown felt, and calls some felts a back. A slot where the detector found a weak back is read
    whatever ``empty_at`` says: backs may share the felt's colour."""

    def back_probability(box: tuple[float, float, float, float]) -> float:
        probs = read_crops(crop_tile(canvas, box)[None])
        return float(kind_probabilities(probs)[0, -1])

    out = list(found)
    parts = [
        (seat, part)
        for seat, whole in _groups(found, strong)
        for part in _candidates(seat, whole, strong)
    ]
    for seat, group in parts:
        members = []  # the group, then the backs found beside it
        for seen in group:
            tile = seen
            if not any(d is seen for d in out):
                continue  # replaced by an earlier group's search
            if seen.face is BACK and seen.confidence < min_back:
                back = back_probability(seen.box)
                if back >= min_back:
                    tile = Detection(BACK, seen.box, back, seen.orientation)
                    out[out.index(seen)] = tile
            members.append(tile)
        pitch = _pitch(seat)
        faces = [d for d in group if d.face is not BACK]
        # two faces side by side: the kong's backs are the slots just beyond them, no further
        reach, outer = (1, faces) if len(faces) > 1 else (KONG - 1, group)
        ends = sorted(outer, key=lambda d: float(_centre(d) @ pitch))
        sides = {-1: (ends[0], 1), 1: (ends[-1], 1)}  # direction: (end tile, steps out)
        while len(members) < KONG and sides:
            for direction, (end, steps) in list(sides.items()):
                if steps > reach:
                    del sides[direction]
                    continue
                shift = np.tile(direction * steps * pitch, 2)
                box = cast("tuple[float, float, float, float]", tuple(np.add(end.box, shift)))
                weak = _weak_holders(box, out, strong)
                back = 0.0
                # a weak back found there is no felt (backs can share the felt's colour)
                seen_back = weak is not None and any(out[i].face is BACK for i in weak)
                bare = empty_at is not None and not seen_back and empty_at(*_table_point(box))
                beside = _next_to_another_group(box, seat, members, out, strong)
                if weak is not None and not bare and not beside:
                    back = back_probability(box)
                if weak is None or back < min_back:
                    del sides[direction]
                    continue
                orientation = 90 if box[2] - box[0] > box[3] - box[1] else 0
                out = [d for i, d in enumerate(out) if i not in weak]
                members.append(Detection(BACK, box, back, orientation))
                out.append(members[-1])
                sides[direction] = (end, steps + 1)
                if len(members) == KONG:
                    break
    return out


def _table_point(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2 / CANVAS, (box[1] + box[3]) / 2 / CANVAS


def _next_to_another_group(
    box: tuple[float, float, float, float],
    seat: int,
    group: list[Detection],
    found: list[Detection],
    strong: float,
) -> bool:
    """A strong face of another kind, or a turned one, lies within 1.2 tile widths of the slot:
    the slot belongs beside that tile, not to this group (backs and the kong's own other face
    do not count)."""
    x1, y1, x2, y2 = box
    centre = np.array([(x1 + x2) / 2, (y1 + y2) / 2])
    reach = 1.2 * TILE_W * CANVAS
    kinds = {d.face for d in group} - {BACK}
    return any(
        d.confidence >= strong
        and d.face is not BACK
        and (d.face not in kinds or not _upright(d, seat))
        and all(d is not g for g in group)
        and np.linalg.norm(_centre(d) - centre) < reach
        for d in found
    )


def _weak_holders(
    box: tuple[float, float, float, float], found: list[Detection], strong: float
) -> set[int] | None:
    """For a slot in a hand row, on the canvas, with no ``strong`` detection centred within half
    a tile of its centre: the indices of the weaker ones there; else None (not to be read)."""
    x1, y1, x2, y2 = box
    centre = np.array([(x1 + x2) / 2, (y1 + y2) / 2])
    if x1 < 0 or y1 < 0 or x2 > CANVAS or y2 > CANVAS:
        return None
    if place_of(float(centre[0] / CANVAS), float(centre[1] / CANVAS)).zone != "hand_row":
        return None
    near = 0.5 * TILE_W * CANVAS
    there = {i for i, d in enumerate(found) if np.linalg.norm(_centre(d) - centre) < near}
    return None if any(found[i].confidence >= strong for i in there) else there
