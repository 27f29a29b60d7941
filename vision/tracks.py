"""The stabiliser's tracks: one tile followed across frames (:class:`Track`), and what the
confirmed tracks show (:func:`table_observation`), two tracks over one tile counted once
(:func:`one_tile`).
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field

from engine.notation import NotationError
from engine.tiles import Tile
from vision.faces import BACK, Face
from vision.hand_row import split_hand_row
from vision.layout import TILE_H, TILE_W
from vision.observation import SeatObservation, TableObservation
from vision.zones import place_of

PLACE_FRAMES = 9  # a confirmed discard's place: the median of its last this many boxes' centres


@dataclass
class Track:
    """One tile followed across frames: the votes on its face, place, and whether it is
    confirmed."""

    face: Face
    x: float
    y: float
    sideways: bool
    streak: int = 1
    confirmed: bool = False
    missing: int = 0
    challenger: Face | None = None
    challenger_streak: int = 0
    votes: Counter[Face] = field(default_factory=Counter)
    seen_at: int = 0  # the last frame a box of its own showed it
    boxes: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=PLACE_FRAMES))


MATCH_RADIUS = 0.45 * TILE_W  # a detection this close to a track is that tile seen again
CROWD_RADIUS = 0.6 * TILE_W  # neighbouring tiles' centres are at least a tile width apart
SAME_TILE = 0.8 * TILE_W  # two confirmed river tracks this close are one tile seen twice


def apart(a: Track, b: Track) -> float:
    return float(((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5)


def one_tile(a: Track, b: Track, frame: int) -> bool:
    """Two confirmed tracks closer than ``SAME_TILE`` are one tile seen twice, unless they
    are two tiles side by side in one seat's river (in different slots) or hand row (a hand
    laid down: national seed 4 hand 2's 7s 7s): both upright or both turned, each seen by
    a box of its own in the last frame, and no closer than a stray box may lie to a tile
    (``CROWD_RADIUS``). River tiles lie a tile width apart, edge to edge,
    and a box may lean a fifth of a tile toward its neighbour for as long as the neighbour
    lies there (national seed 1 hand 1: once seat 1's 6s lay beside its 9s, the 9s box sat
    0.2 tile widths nearer it, its place followed, and the 6s, read every frame, was
    dropped as the 9s seen twice, until the winner's hand went down)."""
    if apart(a, b) >= SAME_TILE:
        return False
    if a.seen_at != frame or b.seen_at != frame or a.sideways != b.sideways:
        return True
    if apart(a, b) < CROWD_RADIUS:
        return True
    here, there = place_of(a.x, a.y), place_of(b.x, b.y)
    slots = (here.row, here.column) != (there.row, there.column)
    return not (
        here.zone == there.zone
        and here.seat == there.seat
        and (here.zone == "hand_row" or (here.zone == "river" and slots))
    )


def table_observation(tracks: list[Track], frame: int) -> TableObservation:
    """What the confirmed ``tracks`` show in frame ``frame``. Two tracks closer than
    ``SAME_TILE`` are one tile (tiles never overlap): a second box over part of a discard, kept
    apart from its track (a wide stray reads as turned, so it does not crowd the upright tile),
    is not a second discard, nor one over part of a meld's tile a fourth tile of that meld
    (national seed 1000: a pung of 8s read as a kong). The tile is a track not counted missing
    (a ghost of a meld pushed along is, and the tile now lying there is not), then the one seen
    most."""
    rivers: list[list[tuple[int, int, Face]]] = [[] for _ in range(4)]
    rows: list[list[tuple[float, float, Track]]] = [[] for _ in range(4)]
    kept: list[Track] = []
    confirmed = [t for t in tracks if t.confirmed]
    ranked = sorted(confirmed, key=lambda t: (t.missing == 0, t.votes.total()), reverse=True)
    for track in ranked:
        place = place_of(track.x, track.y)
        if place.zone not in ("river", "hand_row"):
            continue
        if any(one_tile(track, other, frame) for other in kept):
            continue
        kept.append(track)
        if place.zone == "river" and place.row is not None and place.column is not None:
            rivers[place.seat].append((place.row, place.column, track.face))
        elif place.zone == "hand_row":
            half = (TILE_H if track.sideways else TILE_W) / 2
            rows[place.seat].append((place.u - half, place.u + half, track))
    seats = []
    for seat in range(4):
        river = tuple(_river_tile(face) for _, _, face in sorted(rivers[seat], key=_by_slot))
        row = split_hand_row(rows[seat])
        seats.append(
            SeatObservation(
                river,
                row.melds,
                row.revealed,
                row.concealed_kongs,
                row.face_down_kongs,
                row.fours_apart,
                row.flowers,
                row.apart,
            )
        )
    return TableObservation(tuple(seats))


def _by_slot(item: tuple[int, int, Face]) -> tuple[int, int, str]:
    """A river's order: row, column, then (two tracks in one slot) the faces' notation."""
    row, column, face = item
    return row, column, str(face)


def _river_tile(face: Face) -> Tile:
    if face is BACK:  # backs are dropped outside hand rows: none should reach a river
        raise NotationError(f"not a tile: {str(face)!r}")
    return face
