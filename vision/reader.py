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
      (a flower set aside face up in the seat's hand row, reported once)
    {"type": "flowers_corrected", "seat": 2, "flowers": ["4f"], "frame": 20}
      (the seat's flowers read again as other kinds, none more: for the referee, not the engine)
    {"type": "hand_revealed", "seat": 0, "tiles": ["1m", ...], "frame": 310}
      (``win_tile``: a tile laid apart at the hand's right, the self-drawn winning tile)
    {"type": "river_taken", "seat": 3, "tile": "7p", "frame": 96}   (the last discard claimed)
    {"type": "river_corrected", "seat": 1, "river": [...], "frame": 120}
    {"type": "meld_unreadable", "seat": 2, "tiles": [...], "frame": 99, ...}
      (a group with a turned tile whose tiles make no legal meld: for the referee, not the engine)
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import cast

import cv2
import numpy as np

from engine.tiles import RelativeSeat, Tile
from vision.boxes import CANVAS
from vision.calibration import Calibration
from vision.crop_memory import CropMemory
from vision.detector import Detection, Detector
from vision.kong_probe import probe_kong_backs
from vision.layout import TILE_H, TILE_W
from vision.reveal_hold import LastDiscard, RevealHold, discard_in_river
from vision.stabiliser import (
    Stabiliser,
    TableDetection,
    TableObservation,
)
from vision.table_diff import diff, in_play_order, melds_in_flux
from vision.turn_hold import TurnHold, next_to_play
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
class _Discard:
    seat: int
    tile: str
    claimed: bool = False
    index: int | None = None  # its place in the river


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

    def __post_init__(self) -> None:
        self.frame = 0
        self.published: TableObservation | None = None
        self._candidate: TableObservation | None = None
        self._candidate_age = 0
        self._melds_reported: list[list[Counter[str]]] = [[] for _ in range(4)]
        self._kongs_reported: list[Counter[str]] = [Counter() for _ in range(4)]
        self._face_down_reported = [0, 0, 0, 0]
        self._flowers_reported: list[tuple[Tile, ...]] = [()] * 4
        self._recent: deque[_Discard] = deque(maxlen=4)  # the last round's discards
        self._held_for = [0, 0, 0, 0]  # frames each seat's new discards have waited
        self._reveal = RevealHold(self.hold_frames, self.self_draw_frames)
        self._turns = TurnHold(self.hold_frames)
        self._as_reported: list[tuple[Tile, ...]] = [()] * 4  # rivers as discards were reported
        self._expected: int | None = None  # the seat expected to discard next
        self.memory = CropMemory()  # unchanged tiles keep the last frame's reading

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
        observation = self._hold_claimers_discards(self.stabiliser.update(detections, empty_at))
        shown = [self._melds_shown(seat) for seat in range(4)]
        observation = self._turns.apply(self.published, observation, self._expected, shown)
        observation = self._reveal.apply(self.published, observation, self._last_discard(), shown)
        if observation == self._candidate:
            self._candidate_age += 1
        else:
            self._candidate, self._candidate_age = observation, 1
        if self._candidate_age < self.settle_frames or observation == self.published:
            return []
        last = self._recent[-1].seat if self._recent else None
        changes = diff(self.published, observation, self.frame, self._as_reported)
        upgrades = {
            int(str(e["seat"]))
            for e in changes
            if e["type"] == "meld" and self._is_added_kong(int(str(e["seat"])), e)
        }
        self._forget_cleared_melds(observation)
        news = [e for e in changes if self._is_news(e, observation)]  # a flicker is no claim
        events = self._infer_claimed_discards(in_play_order(news, last, upgrades))
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
            if seat not in grown or not melds_in_flux(now, self._melds_shown(seat)):
                self._held_for[seat] = 0
            elif self._held_for[seat] < self.hold_frames:  # past it: released until published
                self._held_for[seat] += 1
                holding = True
        for seat in grown if holding else []:
            seats[seat] = replace(seats[seat], river=self.published.seats[seat].river)
        return TableObservation(tuple(seats))

    def _infer_claimed_discards(self, events: list[dict[str, object]]) -> list[dict[str, object]]:
        """A claim takes a discard of the last round. When a meld's turned tile matches no
        unclaimed discard of its source seat in the last four reported (it was taken before the
        camera confirmed it in the river, e.g. under the claimer's arm), the discard is reported
        first, marked ``inferred``. A meld read late, after the claimer's own next discard, still
        finds its discard; one whose source's unclaimed discard was read as another kind is a
        misread, not a second discard, and adds nothing."""
        out: list[dict[str, object]] = []
        for event in events:
            seat = int(str(event.get("seat", -1)))
            if event["type"] == "discard":
                index = event.get("index")
                place = int(str(index)) if index is not None else None
                self._recent.append(_Discard(seat, str(event["tile"]), index=place))
            elif event["type"] == "meld" and not self._is_added_kong(seat, event):
                source = RelativeSeat[str(event["source"]).upper()]
                discarder, tile = (seat + int(source)) % 4, str(event["claimed"])
                open_ones = [d for d in self._recent if d.seat == discarder and not d.claimed]
                same = [d for d in open_ones if d.tile == tile]
                if same or open_ones:
                    (same or open_ones)[-1].claimed = True
                else:
                    out.append(self._inferred(discarder, tile, event))
                    self._recent.append(_Discard(discarder, tile, claimed=True))
            out.append(event)
        return out

    def _melds_shown(self, seat: int) -> int:
        """The melds the seat has shown: each reported once (an added kong is its pung grown)."""
        reported = self._melds_reported[seat]
        grown = sum(
            1 for m in reported if sum(m.values()) == 4 and Counter({next(iter(m)): 3}) in reported
        )
        return len(reported) - grown

    def _is_added_kong(self, seat: int, event: dict[str, object]) -> bool:
        tile = str(event["claimed"])
        return event["kind"] == "kong" and Counter({tile: 3}) in self._melds_reported[seat]

    def _inferred(self, seat: int, tile: str, meld: dict[str, object]) -> dict[str, object]:
        index = len(self.published.seats[seat].river) if self.published else 0
        row, column = divmod(index, 6)
        return {
            "type": "discard",
            "seat": seat,
            "tile": tile,
            "index": index,
            "row": row,
            "column": column,
            "frame": meld["frame"],
            "inferred": True,
        }

    def _forget_cleared_melds(self, now: TableObservation) -> None:
        """Reported melds are forgotten only when the table is cleared for the next hand (no
        river, no meld and no face-up tile anywhere). A meld that vanishes while it is re-laid (a
        pung turned into an added kong, a hand passing over it) is still the same claim when it
        returns."""
        if any(
            s.river or s.melds or s.revealed or s.concealed_kongs or s.face_down_kongs or s.flowers
            for s in now.seats
        ):
            return  # face-up tiles in a hand row: melds being re-laid, not a cleared table
        self._expected = None  # a new hand: its dealer plays first
        for reported in self._melds_reported:
            reported.clear()
        for kongs in self._kongs_reported:
            kongs.clear()
        self._face_down_reported = [0, 0, 0, 0]
        self._flowers_reported = [()] * 4

    def _flower_news(self, event: dict[str, object], showing: tuple[Tile, ...]) -> bool:
        seat = int(str(event["seat"]))
        reported = self._flowers_reported[seat]
        if len(showing) > len(reported):
            self._flowers_reported[seat] = (*reported, Tile.parse(str(event["tile"])))
            return True
        if Counter(showing) == Counter(reported):
            return False
        self._flowers_reported[seat] = showing
        event["type"] = "flowers_corrected"
        event["flowers"] = [str(t) for t in showing]
        del event["tile"]
        return True

    def _is_news(self, event: dict[str, object], now: TableObservation) -> bool:
        """Report each meld once: a group that flickers back to part of a meld already reported
        (a kong seen as three tiles for a frame) is not a new claim, nor is a meld seen again
        unless the seat now shows more copies of it (two identical chows); a group that makes
        no legal meld is reported as ``meld_unreadable``, never as a meld. A concealed kong,
        likewise, once (a back unread for a frame breaks it up); a kong laid face down once per
        kong the seat shows (one turned up at the hand's end is not a new one). A flower once
        per flower the seat shows: one hidden and seen again is not news; read again as another
        kind, with none more, it is ``flowers_corrected``."""
        if event["type"] == "flower":
            return self._flower_news(event, now.seats[int(str(event["seat"]))].flowers)
        if event["type"] == "face_down_kong":
            seat = int(str(event["seat"]))
            if self._face_down_reported[seat] >= now.seats[seat].face_down_kongs:
                return False
            self._face_down_reported[seat] += 1
            return True
        if event["type"] == "concealed_kong":
            seat, tile = int(str(event["seat"])), str(event["tile"])
            showing = sum(str(t) == tile for t in now.seats[seat].concealed_kongs)
            if self._kongs_reported[seat][tile] >= showing:
                return False
            self._kongs_reported[seat][tile] += 1
            return True
        if event["type"] != "meld":
            return True
        if event["kind"] == "unreadable":
            event["type"] = "meld_unreadable"
            del event["kind"]
            return True
        seat = int(str(event["seat"]))
        tiles = Counter(str(t) for t in cast("list[object]", event["tiles"]))
        reported = self._melds_reported[seat]
        if any(not tiles - earlier and tiles != earlier for earlier in reported):
            return False
        showing = sum(Counter(str(t) for t in m.tiles) == tiles for m in now.seats[seat].melds)
        if sum(earlier == tiles for earlier in reported) >= showing:
            return False
        reported.append(tiles)
        return True
