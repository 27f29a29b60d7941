"""Gouji plays from a card camera: the cards read in each seat's zone, held until steady.

A table's calibration gives six seat zones (polygons in frame pixels, :class:`SeatZones`): the
place in front of each seat where its play of the current trick lies. Each frame's reads
(:class:`vision.cards.CardRead`) are sorted into the zones by their card's centre. A seat's
cards count only once the same read (the same multiset of codes) holds for ``hold_frames``
frames, none read otherwise between them (:class:`PlayWatcher`), the card side's counterpart of
the tile stabiliser (:mod:`vision.stabiliser`): one odd frame, a hand reaching over or a card
misread once, adds nothing. A frame that merely misses some of the cards (:func:`dropout`)
neither counts nor breaks the run. A steady change of a seat's zone to other cards is a play
(:class:`SeenPlay`); every zone steady and empty after a play is the trick cleared
(:class:`TrickCleared`).

The table's custom the reader relies on (docs/cards.md): each seat lays a play in its own zone,
facing itself, and a seat playing again in the same trick first puts its earlier cards on the
face-down pile in the middle, so a zone holds one play, the seat's latest.

>>> zones = SeatZones.from_boxes([(0, 0, 10, 10), (10, 0, 20, 10)])
>>> zones.seat_at((12.0, 3.0)), zones.seat_at((30.0, 3.0))
(1, None)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.cards import CardRead

#: Frames a seat's read must hold, unchanged, before it counts.
HOLD_FRAMES = 3


@dataclass(frozen=True)
class SeenPlay:
    """A play seen: ``seat`` laid ``cards`` (codes, sorted), steady from frame ``frame``."""

    seat: int
    cards: tuple[str, ...]
    frame: int


@dataclass(frozen=True)
class TrickCleared:
    """Every zone steady and empty after a play: the trick was gathered (from ``frame``)."""

    frame: int


class SeatZones:
    """Seat zones as polygons in frame pixels, seat 0 first."""

    def __init__(self, polygons: Sequence[np.ndarray | Sequence[Sequence[float]]]) -> None:
        self.polygons = [np.asarray(p, np.float32).reshape(-1, 2) for p in polygons]
        if not self.polygons or any(len(p) < 3 for p in self.polygons):
            raise ValueError("each seat zone is a polygon of at least three points")

    @classmethod
    def from_boxes(cls, boxes: Iterable[tuple[float, float, float, float]]) -> SeatZones:
        """Zones from axis-aligned boxes (x0, y0, x1, y1)."""
        return cls([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)] for x0, y0, x1, y1 in boxes])

    def __len__(self) -> int:
        return len(self.polygons)

    def seat_at(self, point: tuple[float, float]) -> int | None:
        """The seat whose zone holds ``point`` (the first, where zones overlap), else None."""
        for seat, polygon in enumerate(self.polygons):
            if cv2.pointPolygonTest(polygon, (float(point[0]), float(point[1])), False) >= 0:
                return seat
        return None

    def sort(self, reads: Iterable[CardRead]) -> list[tuple[str, ...]]:
        """The codes read in each zone (sorted); reads outside every zone are left out."""
        zones: list[list[str]] = [[] for _ in self.polygons]
        for read in reads:
            centre = read.quad.mean(axis=0)
            seat = self.seat_at((float(centre[0]), float(centre[1])))
            if seat is not None:
                zones[seat].append(read.code)
        return [tuple(sorted(codes)) for codes in zones]


def dropout(codes: tuple[str, ...], candidate: tuple[str, ...]) -> bool:
    """Whether ``codes`` is ``candidate`` with a card or a few not found this frame (the
    reader's usual slip: a card found is almost never read as another): some cards, at most
    half of them, missing and none added. Such a frame neither counts nor breaks the run."""
    if not codes or len(codes) >= len(candidate) or 2 * len(codes) < len(candidate):
        return False
    return not Counter(codes) - Counter(candidate)


@dataclass
class _Seat:
    steady: tuple[str, ...] = ()  # what counts as lying there
    candidate: tuple[str, ...] = ()
    run: int = 0  # frames the candidate was read, none since read otherwise (drop-outs aside)
    since: int = 0  # the frame the candidate was first read in


@dataclass
class PlayWatcher:
    """Turns each frame's reads into plays and cleared tricks; ``hold_frames`` >= 1."""

    zones: SeatZones
    hold_frames: int = HOLD_FRAMES
    frame: int = 0
    seats: list[_Seat] = field(default_factory=list)
    live: bool = False  # some zone holds a play of the current trick

    def __post_init__(self) -> None:
        if self.hold_frames < 1:
            raise ValueError(f"hold_frames must be >= 1, got {self.hold_frames}")
        self.seats = [_Seat() for _ in range(len(self.zones))]

    def update(self, reads: Iterable[CardRead]) -> list[SeenPlay | TrickCleared]:
        """One frame's reads; the plays and clears that became steady with it."""
        self.frame += 1
        out: list[SeenPlay | TrickCleared] = []
        for seat, (state, codes) in enumerate(zip(self.seats, self.zones.sort(reads), strict=True)):
            if codes == state.candidate:
                state.run += 1
            elif not dropout(codes, state.candidate):
                state.candidate, state.run, state.since = codes, 1, self.frame
            if state.run < self.hold_frames or state.candidate == state.steady:
                continue
            state.steady = state.candidate
            if state.steady:
                self.live = True
                out.append(SeenPlay(seat, state.steady, state.since))
        if self.live and not any(state.steady for state in self.seats):
            self.live = False
            out.append(TrickCleared(self.frame))
        return out

    def counts(self) -> list[Counter[str]]:
        """What lies steady in each zone now, as multisets of codes."""
        return [Counter(state.steady) for state in self.seats]
