"""What the stabiliser reads: detections in table units in, per-seat observations out.

A :class:`TableDetection` is one box on the table; a :class:`TableObservation` is what the
confirmed tiles show, seat by seat (river, melds, revealed tiles, kongs, flowers).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.tiles import Tile
from vision.faces import Face
from vision.hand_row import MeldObservation


@dataclass(frozen=True)
class TableDetection:
    """One detection in table units (centre) with what it shows; ``sideways`` from the box
    shape."""

    face: Face
    x: float
    y: float
    sideways: bool
    confidence: float = 1.0


@dataclass(frozen=True)
class SeatObservation:
    river: tuple[Tile, ...]
    melds: tuple[MeldObservation, ...]
    revealed: tuple[Tile, ...]
    concealed_kongs: tuple[Tile, ...] = ()  # one tile per kong laid with backs showing
    face_down_kongs: int = 0  # kongs laid all face down
    fours_apart: tuple[Tile, ...] = ()  # four faces of one kind alone in the row (a kong shown)
    flowers: tuple[Tile, ...] = ()  # flowers set aside in the hand row
    win_apart: Tile | None = None  # a face laid alone right of a revealed hand (in ``revealed``)


@dataclass(frozen=True)
class TableObservation:
    seats: tuple[SeatObservation, ...]
