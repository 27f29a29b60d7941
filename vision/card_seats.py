"""Gouji plays from a card camera: the cards read in each seat's zone, held until steady.

A table's calibration gives six seat zones (polygons in frame pixels, :class:`SeatZones`): the
place in front of each seat where its play of the current trick lies. Each frame's reads
(:class:`vision.cards.CardRead`) are sorted into the zones by their card's centre. A seat's
cards count only once the same read (the same multiset of codes) holds for ``hold_frames``
frames, none read otherwise between them (:class:`PlayWatcher`), the card side's counterpart of
the tile stabiliser (:mod:`vision.stabiliser`): one odd frame, a hand reaching over or a card
misread once, adds nothing. A frame that merely misses some of the cards (:func:`dropout`)
neither counts nor breaks the run, unless, before the longer read counted, the same shorter
read holds for ``hold_frames`` in a row: then it is the one that counts (the longer one had a
card invented). Reads are compared by their ranks (:func:`ranks_of`: the rules ignore suits, so
a suit misread in one frame breaks nothing; the play shows the cards as read most often). When
the candidate has held, a drop-out of it read more often since the zone changed wins instead
(a card invented now and then). Once a play counts, a read of another count is never a new
play (a seat's next play in a trick has as many cards). Plays steady in the same frame come
in the order they were first seen. A steady change of
a seat's zone to other cards is a play (:class:`SeenPlay`); every zone steady and empty after a
play is the trick cleared (:class:`TrickCleared`).

A camera cannot see a pass: :func:`next_action` gives the one action the game needs next for
what was seen, given the game as it stands: while seats the game waits on come before the
seat that played, each of them passed (a :class:`GoujiPass` flagged ``inferred``); then the play
itself (a :class:`GoujiPlay` flagged ``camera``). A gathered trick means every seat still
waited on passed. A play by a seat the game does not wait on (a misread zone, an illegal play)
is handed over as it is: the engine records the violation.

The table's custom the reader relies on (docs/cards.md): each seat lays a play in its own zone,
facing itself, and a seat playing again in the same trick first puts its earlier cards on the
face-down pile in the middle, so a zone holds one play, the seat's latest.

>>> zones = SeatZones.from_boxes([(0, 0, 10, 10), (10, 0, 20, 10)])
>>> zones.seat_at((12.0, 3.0)), zones.seat_at((30.0, 3.0))
(1, None)
>>> game = GoujiGame([parse_cards("3s 4s 5s 6s")] * 6, leader=0)
>>> actions_for(SeenPlay(0, ("3s",), 1), game)
[GoujiPlay(at=None, seat=0, cards='3s', camera=True)]
>>> actions_for(SeenPlay(2, ("5s",), 5), game)[0]
GoujiPass(at=None, seat=1, inferred=True)
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.actions import Action
from engine.gouji.events import Pass, Play
from engine.gouji.notation import RANK_SYMBOLS, parse_card, parse_cards
from engine.gouji.table import GoujiGame
from engine.gouji.table_events import GoujiPass, GoujiPlay
from vision.calibration_check import CARD_TABLE_ZONES
from vision.cards import CardRead

#: Frames a seat's read must hold, unchanged, before it counts.
HOLD_FRAMES = 3
#: A six-seat card table's zones, as fractions of the table (x0, y0, x1, y1; x from the far
#: left corner towards the far right, y from the far side towards the near side, seats 0 and
#: 1 on the near side, turn order counter-clockwise seen from above): 0 and 1 near, 2 at the
#: right end, 3 and 4 far, 5 at the left end. The middle is left for the face-down pile.
TABLE_ZONES = CARD_TABLE_ZONES


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

    @classmethod
    def from_corners(
        cls,
        corners: Sequence[Sequence[float]] | np.ndarray,
        boxes: Sequence[tuple[float, float, float, float]] = TABLE_ZONES,
    ) -> SeatZones:
        """Zones from the table's four corners in the frame (far left, far right, near right,
        near left: a calibration's corners, ``vision.calibration.Calibration.corners``),
        ``boxes`` as fractions of the table (:data:`TABLE_ZONES`)."""
        unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
        to_frame = cv2.getPerspectiveTransform(unit, np.asarray(corners, np.float32))
        polygons = []
        for x0, y0, x1, y1 in boxes:
            box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32).reshape(-1, 1, 2)
            polygons.append(cv2.perspectiveTransform(box, to_frame).reshape(-1, 2))
        return cls(polygons)

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
    """Whether ``codes`` is ``candidate`` with some cards not found this frame (the reader's
    usual slip: a card found is almost never read as another): some missing, at least one
    left, none added. Such a frame neither counts nor breaks the run. (A seat's next play in a
    trick has as many cards as its last, so fewer cards are never a play of their own.)"""
    if not codes or len(codes) >= len(candidate):
        return False
    return not Counter(codes) - Counter(candidate)


Key = tuple[str, ...]  # a read's ranks, sorted: what the rules compare (suits are ignored)


@functools.cache
def _rank(code: str) -> str:
    return RANK_SYMBOLS[parse_card(code).rank]


def ranks_of(codes: Iterable[str]) -> Key:
    """The ranks of a read's cards (jokers as themselves), sorted: the rules ignore suits, so a
    card's suit misread in one frame neither breaks a run nor makes another play."""
    return tuple(sorted(_rank(code) for code in codes))


@dataclass
class _Seat:
    steady: Key = ()  # what counts as lying there (ranks)
    shown: tuple[str, ...] = ()  # its cards as read most often (codes)
    candidate: Key = ()
    run: int = 0  # frames the candidate was read, none since read otherwise (drop-outs aside)
    since: int = 0  # the frame the candidate was first read in
    last: Key = ()  # the last frame's read
    streak: int = 0  # frames in a row it was read exactly so
    #: Frames each read was seen since the zone's content changed: the candidate's, and those
    #: of its drop-outs (kept when a longer candidate takes over); and each exact read's
    votes: Counter[Key] = field(default_factory=Counter)
    exact: Counter[tuple[str, ...]] = field(default_factory=Counter)
    first: dict[Key, int] = field(default_factory=dict)  # the frame each vote began


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
            seen = self._seat_read(state, codes)
            if seen is not None:
                self.live = True
                out.append(SeenPlay(seat, *seen))
        out.sort(key=lambda seen: seen.frame)  # two plays steady at once: in the order laid
        if self.live and not any(state.steady for state in self.seats):
            self.live = False
            out.append(TrickCleared(self.frame))
        return out

    def _seat_read(self, state: _Seat, codes: tuple[str, ...]) -> tuple[Key, int] | None:
        """One frame's read of a seat's zone; the play (ranks, first frame) it makes steady."""
        key = ranks_of(codes)
        state.streak = state.streak + 1 if key == state.last else 1
        state.last = key
        if state.steady and key and len(key) != len(state.steady):
            return None  # a seat's next play in a trick has as many cards: a misread
        state.votes[key] += 1
        state.exact[codes] += 1
        state.first.setdefault(key, self.frame)
        if key == state.candidate:
            state.run += 1
        elif not dropout(key, state.candidate):
            kept = {read: n for read, n in state.votes.items() if dropout(read, key)}
            state.votes = Counter({**kept, key: 1})
            state.first = {read: state.first[read] for read in kept} | {key: self.frame}
            state.candidate, state.run, state.since = key, 1, self.frame
        unsure = state.candidate != state.steady  # once it counts, fewer cards are a slip
        if unsure and state.streak >= self.hold_frames and key != state.candidate:
            # read the same, short of the candidate, for as long as a read must hold: the
            # candidate had a card too many (a one-frame invention), not these too few
            state.candidate, state.run = key, state.streak
            state.since = state.first.get(key, self.frame - state.streak + 1)
        if state.run < self.hold_frames or state.candidate == state.steady:
            return None
        # a drop-out read more often than the candidate: the candidate had a card invented
        shorter = [r for r, n in state.votes.items() if dropout(r, state.candidate)]
        best = max(shorter, key=lambda r: (state.votes[r], len(r)), default=None)
        if best is not None and state.votes[best] > state.votes[state.candidate]:
            if state.votes[best] < self.hold_frames or best == state.steady:
                return None
            state.candidate, state.since = best, state.first.get(best, state.since)
        state.steady = state.candidate
        reads = [r for r in state.exact if ranks_of(r) == state.steady]
        state.shown = max(reads, key=lambda r: state.exact[r], default=state.steady)
        state.exact = Counter()
        return (state.shown, state.since) if state.steady else None

    def prime(self, zones: Sequence[Sequence[str]]) -> None:
        """Start from what the engine says lies in each seat's zone (a reopened stream or a
        restarted process sees the same cards, not new plays): ``zones[seat]``, card codes."""
        for state, codes in zip(self.seats, zones, strict=True):
            state.shown = tuple(sorted(codes))
            state.steady = state.candidate = state.last = ranks_of(codes)
            state.run = state.streak = self.hold_frames
        self.live = any(zones)

    def counts(self) -> list[Counter[str]]:
        """What lies steady in each zone now, as multisets of codes."""
        return [Counter(state.shown) if state.steady else Counter() for state in self.seats]


# From what was seen to the table's actions -------------------------------------------------
#: At most this many passes are inferred for one thing seen (six seats).
MAX_PASSES = 6


def next_action(
    seen: SeenPlay | TrickCleared, game: GoujiGame | None, *, done: bool
) -> Action | None:
    """The next action ``seen`` asks of ``game``; ``done``: its play was handed over already."""
    if done:
        return None
    live = game is not None and not game.over and game.current is not None
    waiting = game.queue if game is not None and live else []
    if isinstance(seen, TrickCleared):
        return GoujiPass(seat=waiting[0], inferred=True) if waiting else None
    if seen.seat in waiting and waiting[0] != seen.seat:
        return GoujiPass(seat=waiting[0], inferred=True)
    return GoujiPlay(seat=seen.seat, cards=" ".join(seen.cards), camera=True)


def actions_for(seen: SeenPlay | TrickCleared, game: GoujiGame) -> list[Action]:
    """All the actions ``seen`` asks of ``game``, applied to ``game`` as they are worked out
    (for a game held here; a service's table is fed one :func:`next_action` at a time)."""
    out: list[Action] = []
    done = False
    for _ in range(MAX_PASSES + 1):
        action = next_action(seen, game, done=done)
        if action is None:
            break
        out.append(action)
        if isinstance(action, GoujiPass):
            game.apply(Pass(action.seat))
        else:
            assert isinstance(action, GoujiPlay)
            game.apply(Play(action.seat, parse_cards(action.cards)))
            done = True
    return out
