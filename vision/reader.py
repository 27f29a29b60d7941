"""Frames in, table events out: calibration -> detector -> stabiliser -> observation diffs.

Events are plain JSON-ready dicts (``watch`` prints one per line)::

    {"type": "discard", "seat": 1, "tile": "5m", "index": 3, "row": 0, "column": 3, "frame": 42}
    {"type": "discard", "seat": 2, "tile": "E", "index": 5, ..., "inferred": true}
      (a discard claimed before the camera could confirm it: the meld's turned tile shows it)
    {"type": "meld", "seat": 2, "kind": "pung", "tiles": ["E", "E", "E"], "source": "upper",
     "claimed": "E", "frame": 97}
    {"type": "concealed_kong", "seat": 1, "tile": "5p", "frame": 130}
      (four tiles in a hand row, face down but for one to three faces of one kind)
    {"type": "face_down_kong", "seat": 1, "frame": 131}
      (four backs in a hand row: a concealed kong laid face down, its kind not seen)
    {"type": "flower", "seat": 2, "tile": "3f", "frame": 12}
      (a flower set aside face up in the seat's hand row, reported once; one read as a kind
      already on the table is reported as a free one, with ``read_as`` the kind it was read as)
    {"type": "flowers_corrected", "seat": 2, "flowers": ["4f"], "frame": 20}
      (the seat's flowers read again as other kinds, none more: for the referee, not the engine)
    {"type": "hand_revealed", "seat": 0, "tiles": ["1m", ...], "frame": 310}
      (``win_tile``: a tile laid apart at the hand's right, the self-drawn winning tile)
    {"type": "river_taken", "seat": 3, "tile": "7p", "frame": 96}   (the last discard claimed)
    {"type": "river_corrected", "seat": 1, "river": [...], "frame": 120}
    {"type": "meld_unreadable", "seat": 2, "tiles": [...], "frame": 99, ...}
      (a group with a turned tile whose tiles make no legal meld: for the referee, not the engine)
    {"type": "table_cleared", "frame": 400}
      (no river tile, meld, flower or face-up tile on the table for ``clear_frames`` frames in
      a row: the table cleared for the next hand, or dealt; once per such stretch. Not for the
      engine: a camera-only table starts its next hand on it, :class:`CameraFeed`)

A reader started mid-hand (:meth:`TableReader.prime`) with tiles on the table publishes nothing
for its first ``confirm_frames + settle_frames`` frames: its stabiliser starts empty, and an
empty table settled meanwhile would report every tile on the table taken, then new again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
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
from vision.reported import Reported, cleared
from vision.reveal_hold import LastDiscard, RevealHold, discard_in_river
from vision.stabiliser import Stabiliser
from vision.table_diff import diff, in_play_order, melds_in_flux
from vision.turn_hold import TurnHold, lapped_from, next_to_play
from vision.zones import seat_of

#: A table seen cleared for the next hand (``tilesight.camera_feed`` names it too).
TABLE_CLEARED = "table_cleared"


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
        out.append(TableDetection(d.tile, x, y, wide != (seat_of(x, y) % 2 == 1), d.confidence))
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
        self._lost: set[tuple[int, int, str]] = set()  # river tiles gone with no claim yet
        self._reveal = RevealHold(self.hold_frames, self.self_draw_frames)
        self._turns = TurnHold(self.hold_frames)
        self._as_reported: list[tuple[Tile, ...]] = [()] * 4  # rivers as discards were reported
        self._expected: int | None = None  # the seat expected to discard next
        self.memory = CropMemory()  # unchanged tiles keep the last frame's reading
        self._warm_up = 0  # frames a primed reader still waits for its stabiliser
        self._cleared_for = 0  # frames in a row the table has looked cleared
        self._cleared_told = False  # ``table_cleared`` reported for this stretch

    def prime(
        self, seen: TableObservation, expected: int | None, last: tuple[int, str] | None = None
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

    def process(self, image: np.ndarray) -> list[dict[str, object]]:
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
    ) -> list[dict[str, object]]:
        """The same from detections already in table units (tests, other detectors)."""
        self.frame += 1
        stable = self.stabiliser.update(detections, empty_at)
        if self._warm_up > 0:  # primed: the stabiliser confirms what lies there first
            self._warm_up -= 1
            return []
        observation = self._hold_claimers_discards(stable)
        events = self._settle(observation)
        return [*events, *self._table_cleared(observation)]

    def _table_cleared(self, observation: TableObservation) -> list[dict[str, object]]:
        """``table_cleared`` once the table (as published, and as seen) has looked cleared
        for ``clear_frames`` frames in a row; again only after something lay there."""
        if not cleared(observation) or self.published is None or not cleared(self.published):
            self._cleared_for, self._cleared_told = 0, False
            return []
        self._cleared_for += 1
        if self._cleared_for < self.clear_frames or self._cleared_told:
            return []
        self._cleared_told = True
        return [{"type": TABLE_CLEARED, "frame": self.frame}]

    def _settle(self, observation: TableObservation) -> list[dict[str, object]]:
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
            int(str(e["seat"]))
            for e in changes
            if e["type"] == "meld" and self.reported.is_added_kong(int(str(e["seat"])), e)
        }
        if self.reported.forget_if_cleared(observation):
            self._expected = None  # a new hand: its dealer plays first
            self._recent.clear()  # nor can a claim take a discard of the hand before
        news = [e for e in changes if self.reported.is_news(e, observation)]  # flickers aren't
        news = seen_again_dropped(news, self._lost, self.published)
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
        for event in events:
            if event["type"] == "hand_revealed":
                seat = int(str(event["seat"]))
                down = discard_in_river(observation, self._last_discard(), seat)
                event["discard_in_river"] = down is not None
        return events

    def _note_reported(
        self, events: list[dict[str, object]], observation: TableObservation
    ) -> None:
        """Each seat's river as its discards were reported: the published river, except that a
        correction is not taken in (only the discards reported with it are added), so a tile
        put back before a new discard still leaves that discard new (:func:`diff`)."""
        corrected = {e["seat"] for e in events if e["type"] == "river_corrected"}
        for seat, now in enumerate(observation.seats):
            if seat not in corrected:
                self._as_reported[seat] = now.river
                continue
            river = list(self._as_reported[seat])
            for event in events:
                if event["type"] == "discard" and event["seat"] == seat and "inferred" not in event:
                    index = int(str(event["index"]))
                    river[index:] = [Tile.parse(str(event["tile"]))]
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
