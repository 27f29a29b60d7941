"""Frames in, what happens on the table out: calibration -> detector -> stabiliser ->
observation diffs, as :mod:`vision.observed` values (``watch`` prints each one's JSON form):
discards (``inferred``: claimed before the camera could confirm it, the meld's turned tile
shows it), melds and melds unreadable, concealed kongs (face down but for one to three faces)
and kongs laid all face down, flowers set aside (each reported once; one read as a kind
already on the table reported as a free one) and flowers read again, revealed hands, river
tiles taken and rivers corrected, and ``TableCleared``: no river tile, meld, flower or face-up
tile on the table for ``clear_frames`` frames in a row, once per such stretch (not for the
engine: a camera-only table starts its next hand on it, :class:`CameraFeed`).

A reader started mid-hand (:meth:`TableReader.prime`) with tiles on the table publishes nothing
for its first ``confirm_frames + settle_frames`` frames: its stabiliser starts empty, and an
empty table settled meanwhile would report every tile on the table taken, then new again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from engine.tiles import Tile
from vision.calibration import Calibration
from vision.claimed_discards import SeenDiscard, infer_claimed_discards, seen_again_dropped
from vision.crop_memory import CropMemory
from vision.detector import Detection, Detector
from vision.detector_backends import CANVAS
from vision.kong_probe import probe_kong_backs
from vision.layout import TILE_H, TILE_W
from vision.observation import TableDetection, TableObservation
from vision.observed import (
    DiscardSeen,
    HandRevealed,
    MeldSeen,
    Observed,
    RiverCorrected,
    TableCleared,
)
from vision.reported import Reported, cleared
from vision.reveal_hold import LastDiscard, RevealHold, discard_in_river
from vision.stabiliser import Stabiliser
from vision.table_diff import diff, in_play_order, melds_in_flux
from vision.turn_hold import TurnHold, lapped_from, next_to_play
from vision.zones import seat_of


def table_detections(found: list[Detection]) -> list[TableDetection]:
    """Canvas-pixel detections to table units, ``sideways`` as seen from the tile's owner.

    A box wider than tall is turned for seats 0 and 2; seats 1 and 3 sit across the image axes,
    so for them an upright tile is the wide one and a turned (claimed) tile is the tall one.
    """
    out = []
    for d in found:
        x1, y1, x2, y2 = d.box
        x, y = (x1 + x2) / 2 / CANVAS, (y1 + y2) / 2 / CANVAS
        wide = x2 - x1 > y2 - y1
        out.append(TableDetection(d.face, x, y, wide != (seat_of(x, y) % 2 == 1), d.confidence))
    return out


class FeltCheck:
    """Does bare felt show at a table point? Compares a tile-sized patch with the felt colour
    (the canvas median: felt covers most of a table) and asks for little texture."""

    def __init__(self, canvas: np.ndarray) -> None:
        small = cv2.resize(canvas, (64, 64), interpolation=cv2.INTER_AREA)
        self.canvas = canvas
        self.felt = np.median(small.reshape(-1, 3), axis=0)

    def __call__(self, x: float, y: float) -> bool:
        hw, hh = int(TILE_W * CANVAS * 0.35), int(TILE_H * CANVAS * 0.35)
        cx, cy = int(x * CANVAS), int(y * CANVAS)
        patch = self.canvas[max(cy - hh, 0) : cy + hh, max(cx - hw, 0) : cx + hw].reshape(-1, 3)
        if patch.size == 0:
            return False
        pixels = patch.astype(np.float32) + 1
        felt = self.felt.astype(np.float32) + 1
        # light varies across a table: compare chroma, and brightness only loosely
        chroma = np.abs(pixels / pixels.sum(axis=1, keepdims=True) - felt / felt.sum()).max(axis=1)
        ratio = pixels.sum(axis=1) / felt.sum()
        felt_like = (chroma < 0.05) & (ratio > 0.5) & (ratio < 1.6)
        return bool(np.mean(felt_like) > 0.85)


@dataclass
class TableReader:
    """Feed frames with :meth:`process`; it returns the events each frame settles."""

    detector: Detector | None
    calibration: Calibration
    stabiliser: Stabiliser
    settle_frames: int = 2
    hold_frames: int = 12
    self_draw_frames: int = 20  # a whole hand waits this long to see if the discard is taken
    kong_probe: bool = True  # read the face-down slots beside short hand-row groups
    clear_frames: int = 20  # a table cleared this long is ``table_cleared`` (2 s at 10 fps)

    def __post_init__(self) -> None:
        self.frame = 0
        self.published: TableObservation | None = None
        self._candidate: TableObservation | None = None
        self._candidate_age = 0
        self.reported = Reported()  # each claim, kong and flower reported once
        self._recent: deque[SeenDiscard] = deque(maxlen=4)  # the last round's discards
        self._held_for = [0, 0, 0, 0]  # frames each seat's new discards have waited
        self._lost: set[tuple[int, int, Tile]] = set()  # river tiles gone with no claim yet
        self._reveal = RevealHold(self.hold_frames, self.self_draw_frames)
        self._turns = TurnHold(self.hold_frames)
        self._as_reported: list[tuple[Tile, ...]] = [()] * 4  # rivers as discards were reported
        self._expected: int | None = None  # the seat expected to discard next
        self.memory = CropMemory()  # unchanged tiles keep the last frame's reading
        self._warm_up = 0  # frames a primed reader still waits for its stabiliser
        self._cleared_for = 0  # frames in a row the table has looked cleared
        self._cleared_told = False  # ``table_cleared`` reported for this stretch

    def prime(
        self, seen: TableObservation, expected: int | None, last: tuple[int, Tile] | None = None
    ) -> None:
        """Start from a table already reported (a restart mid-hand, :mod:`vision.resume`):
        ``seen`` published and all it shows reported, ``expected`` the seat to play next,
        ``last`` the last discard (seat, tile), still claimable. The stabiliser starts empty:
        when tiles lie on ``seen``, the next ``confirm_frames + settle_frames`` frames only
        feed it, so that an empty table, settled before it confirms them, is not published
        (every tile reported taken, then new again); after them only what changed is
        reported."""
        warm_up = self.stabiliser.confirm_frames + self.settle_frames
        self._warm_up = 0 if cleared(seen) else warm_up
        self.published = seen
        self._as_reported = [s.river for s in seen.seats]
        self._expected = expected
        self.reported.prime(seen)
        if last is not None:
            index = len(seen.seats[last[0]].river) - 1
            self._recent.append(SeenDiscard(last[0], last[1], index=index))

    def process(self, image: np.ndarray) -> list[Observed]:
        """Read one camera frame; returns the events it settles."""
        if self.detector is None:
            raise ValueError("this reader has no detector: use process_table")
        canvas = self.calibration.rectify(image, CANVAS)
        found = self.detector.detect_table(canvas, self.memory)
        felt = FeltCheck(canvas)
        if self.kong_probe:
            strong = self.stabiliser.min_confidence
            found = probe_kong_backs(
                canvas, found, self.detector.read_crops, strong=strong, empty_at=felt
            )
        return self.process_table(table_detections(found), felt)

    def process_table(
        self,
        detections: list[TableDetection],
        empty_at: Callable[[float, float], bool] | None = None,
    ) -> list[Observed]:
        """The same from detections already in table units (tests, other detectors)."""
        self.frame += 1
        stable = self.stabiliser.update(detections, empty_at)
        if self._warm_up > 0:  # primed: the stabiliser confirms what lies there first
            self._warm_up -= 1
            return []
        observation = self._hold_claimers_discards(stable)
        events = self._settle(observation)
        return [*events, *self._table_cleared(observation)]

    def _table_cleared(self, observation: TableObservation) -> list[TableCleared]:
        """``table_cleared`` once the table (as published, and as seen) has looked cleared
        for ``clear_frames`` frames in a row; again only after something lay there."""
        if not cleared(observation) or self.published is None or not cleared(self.published):
            self._cleared_for, self._cleared_told = 0, False
            return []
        self._cleared_for += 1
        if self._cleared_for < self.clear_frames or self._cleared_told:
            return []
        self._cleared_told = True
        return [TableCleared(self.frame)]

    def _settle(self, observation: TableObservation) -> list[Observed]:
        """The events of a held ``observation`` once it has settled."""
        shown = [self.reported.melds_shown(seat) for seat in range(4)]
        observation = self._turns.apply(self.published, observation, self._expected, shown)
        observation = self._reveal.apply(self.published, observation, self._last_discard(), shown)
        if observation == self._candidate:
            self._candidate_age += 1
        else:
            self._candidate, self._candidate_age = observation, 1
        if self._candidate_age < self.settle_frames or observation == self.published:
            return []
        changes = diff(self.published, observation, self.frame, self._as_reported)
        last = self._recent[-1].seat if self._recent else None
        if self._expected is not None:  # after a claim, play goes on from the claimer
            last = lapped_from(changes, self._expected)
        upgrades = {
            e.seat for e in changes if isinstance(e, MeldSeen) and self.reported.is_added_kong(e)
        }
        if self.reported.forget_if_cleared(observation):
            self._expected = None  # a new hand: its dealer plays first
            self._recent.clear()  # nor can a claim take a discard of the hand before
        news = self.reported.news(changes, observation)  # flickers are not news
        news = seen_again_dropped(news, self._lost, self.published, self._recent)
        if cleared(observation):
            self._lost.clear()  # the hand's tiles swept: nothing of it comes back
        played = in_play_order(news, last, upgrades)
        events = infer_claimed_discards(played, self._recent, self.reported, self.published)
        earlier = self.published.seats if self.published else observation.seats
        for seat, (old, new) in enumerate(zip(earlier, observation.seats, strict=True)):
            if old.river != new.river:
                self._held_for[seat] = 0  # a new hold may start for the next discard
        self.published = observation
        self._note_reported(events, observation)
        self._expected = next_to_play(events, self._expected)
        return [self._told_discard(e, observation) for e in events]

    def _told_discard(self, event: Observed, observation: TableObservation) -> Observed:
        """A revealed hand told whether the last discard still lies in its river."""
        if not isinstance(event, HandRevealed):
            return event
        down = discard_in_river(observation, self._last_discard(), event.seat)
        return replace(event, discard_in_river=down is not None)

    def _note_reported(self, events: Sequence[Observed], observation: TableObservation) -> None:
        """Each seat's river as its discards were reported: the published river, except that a
        correction is not taken in (only the discards reported with it are added), so a tile
        put back before a new discard still leaves that discard new (:func:`diff`)."""
        corrected = {e.seat for e in events if isinstance(e, RiverCorrected)}
        for seat, now in enumerate(observation.seats):
            if seat not in corrected:
                self._as_reported[seat] = now.river
                continue
            river = list(self._as_reported[seat])
            for event in events:
                if isinstance(event, DiscardSeen) and event.seat == seat and not event.inferred:
                    river[event.index :] = [event.tile]
            self._as_reported[seat] = tuple(river)

    def _last_discard(self) -> LastDiscard | None:
        last = self._recent[-1] if self._recent else None
        return None if last is None else LastDiscard(last.seat, last.tile, last.claimed, last.index)

    def _hold_claimers_discards(self, observation: TableObservation) -> TableObservation:
        """A seat mid-claim (:func:`_melds_in_flux`) has its new discards wait until its melds
        read, at most ``hold_frames``, so the claim is published before the claimer's discard;
        other seats' new discards (played after it) wait with it, then all go in turn order."""
        if self.published is None:
            return observation
        seats = list(observation.seats)
        grown = []
        holding = False
        for seat, now in enumerate(seats):
            before = self.published.seats[seat].river
            if len(now.river) > len(before) and now.river[: len(before)] == before:
                grown.append(seat)
            if seat not in grown or not melds_in_flux(now, self.reported.melds_shown(seat)):
                self._held_for[seat] = 0
            elif self._held_for[seat] < self.hold_frames:  # past it: released until published
                self._held_for[seat] += 1
                holding = True
        for seat in grown if holding else []:
            seats[seat] = replace(seats[seat], river=self.published.seats[seat].river)
        return TableObservation(tuple(seats))
