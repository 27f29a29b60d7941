"""Turn noisy per-frame detections into stable table observations.

A tile counts as present only after it is seen at the same spot in ``confirm_frames`` consecutive
frames with one kind read in a strict majority of them (a classifier that wavers between two
kinds delays it; one odd frame does not). A confirmed tile is removed only after
``remove_frames`` frames in which it is missing *and* its spot is seen to be empty: bare felt
there (when the caller can tell, see ``empty_at``) or its confirmed neighbours seen. An arm over
a river hides the tile and its neighbours together and shows no felt, so it deletes nothing;
whatever the arm looks like for a frame or two invents nothing. A detection too unsure to vote
(below ``min_confidence``) still shows that a confirmed tile is there, unless bare felt shows. A
confirmed tile read as another kind for ``2 * confirm_frames`` frames in a row is corrected. A
confirmed discard lies still (the median of its last boxes): a box misplaced for a few frames
does not move it onto its neighbour.

Backs count only in a hand row, where a concealed kong lies as four tiles, one to three of them
face down, or all four face down (national rules: its kind is not seen); a wall's backs are
dropped.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Sequence
from statistics import median

import numpy as np

from vision.faces import BACK, Face
from vision.layout import TILE_H
from vision.observation import SeatObservation, TableDetection, TableObservation
from vision.tracks import (
    CROWD_RADIUS,
    MATCH_RADIUS,
    PLACE_FRAMES,
    SAME_TILE,
    Track,
    table_observation,
)
from vision.zones import place_of

__all__ = ["SeatObservation", "Stabiliser", "TableDetection", "TableObservation"]


class Stabiliser:
    def __init__(
        self,
        confirm_frames: int = 3,
        remove_frames: int = 8,
        min_confidence: float = 0.35,
        keep_confidence: float = 0.1,
    ) -> None:
        """Detections below ``min_confidence`` neither add tiles nor vote on a kind; one above
        ``keep_confidence`` at a known tile still shows that the tile is there."""
        self.confirm_frames = confirm_frames
        self.remove_frames = remove_frames
        self.min_confidence = min_confidence
        self.keep_confidence = keep_confidence
        self.tracks: list[Track] = []
        self.frame = 0

    def update(
        self,
        detections: Sequence[TableDetection],
        empty_at: Callable[[float, float], bool] | None = None,
    ) -> TableObservation:
        """One frame's detections; ``empty_at(x, y)`` says whether bare felt shows there."""
        self.frame += 1
        dets = [
            d
            for d in detections
            if d.confidence >= self.keep_confidence
            and (d.face is not BACK or place_of(d.x, d.y).zone == "hand_row")
        ]
        matched = self._match(dets)
        seen = set(matched.values())
        for di, det in enumerate(dets):
            if di in matched:
                track = self.tracks[matched[di]]
                if det.confidence >= self.min_confidence:
                    self._observe(track, det)
                elif empty_at is not None and empty_at(track.x, track.y):
                    seen.discard(matched[di])  # a faint box over bare felt shows nothing
                else:  # still there, but this frame's reading is too unsure to vote
                    track.missing = 0
            elif det.confidence >= self.min_confidence and not self._crowds_a_confirmed_tile(det):
                self.tracks.append(
                    Track(
                        det.face,
                        det.x,
                        det.y,
                        det.sideways,
                        confirmed=self.confirm_frames <= 1,
                        votes=Counter({det.face: 1}),
                        boxes=deque([(det.x, det.y)], maxlen=PLACE_FRAMES),
                    )
                )
                seen.add(len(self.tracks) - 1)
        self._age(seen, empty_at)
        return self.observation()

    def _match(self, dets: Sequence[TableDetection]) -> dict[int, int]:
        """Detection index -> track index, closest pairs first (a stray box beside a tile must
        not take that tile's track from the tile's own detection). A turned tile where an
        upright one lay (a meld re-laid as a kong) is a different tile, not the old one moved."""
        if not self.tracks or not dets:
            return {}
        at = np.array([(t.x, t.y) for t in self.tracks])
        seen_at = np.array([(d.x, d.y) for d in dets])
        distance = np.linalg.norm(at[:, None, :] - seen_at[None, :, :], axis=2)
        confirmed = np.array([t.confirmed for t in self.tracks])
        turned = np.array([t.sideways for t in self.tracks])
        turned_now = np.array([d.sideways for d in dets])
        distance[confirmed[:, None] & (turned[:, None] != turned_now[None, :])] = np.inf
        close_t, close_d = np.nonzero(distance < MATCH_RADIUS)
        gaps = distance[close_t, close_d].tolist()
        pairs = sorted(zip(gaps, close_d.tolist(), close_t.tolist(), strict=True))
        matched: dict[int, int] = {}
        taken: set[int] = set()
        for _, di, ti in pairs:
            if di not in matched and ti not in taken:
                matched[di] = ti
                taken.add(ti)
        return matched

    def _crowds_a_confirmed_tile(self, det: TableDetection) -> bool:
        """Tiles never overlap: an unmatched box whose centre is this close to a confirmed tile
        of the same turn is a stray (a box over part of that tile), not a new tile."""
        return any(
            track.confirmed
            and track.sideways == det.sideways
            and ((track.x - det.x) ** 2 + (track.y - det.y) ** 2) ** 0.5 < CROWD_RADIUS
            for track in self.tracks
        )

    def _observe(self, track: Track, det: TableDetection) -> None:
        """A track's place follows its boxes (a moving average), except a confirmed discard's:
        a discard lies still, its place the median of its last ``PLACE_FRAMES`` boxes, so a box
        misplaced for a few frames does not drag it toward its neighbour (national seed 1 hand
        2: a 7s box a third of a tile up for three frames moved its track so close to the C
        beside it that the two read as one tile, and the C, dropped, came back as a discard
        never made). A hand row's tiles are re-laid (a meld pushed along by a kong): there the
        track follows the tile now lying where it was."""
        track.missing = 0
        track.boxes.append((det.x, det.y))
        if track.confirmed and place_of(track.x, track.y).zone == "river":
            track.x = median(x for x, _ in track.boxes)
            track.y = median(y for _, y in track.boxes)
        else:
            track.x, track.y = 0.7 * track.x + 0.3 * det.x, 0.7 * track.y + 0.3 * det.y
        track.votes[det.face] += 1
        if track.confirmed:
            self._challenge(track, det.face)
            return
        # present in N consecutive frames, and one kind read in a strict majority of them
        track.streak += 1
        track.sideways = det.sideways
        leader, count = track.votes.most_common(1)[0]
        track.face = leader
        track.confirmed = (
            track.streak >= self.confirm_frames and count > sum(track.votes.values()) / 2
        )

    def _challenge(self, track: Track, seen: Face) -> None:
        if seen == track.face:
            track.challenger_streak = 0
            return
        if seen == track.challenger:
            track.challenger_streak += 1
        else:
            track.challenger, track.challenger_streak = seen, 1
        if track.challenger_streak >= 2 * self.confirm_frames:
            track.face, track.challenger_streak = seen, 0

    def _age(self, seen: set[int], empty_at: Callable[[float, float], bool] | None) -> None:
        keep = []
        for i, track in enumerate(self.tracks):
            if i in seen:
                track.seen_at = self.frame
                keep.append(track)
                continue
            if not track.confirmed:
                continue  # an unconfirmed track must be seen every frame until it confirms
            empty = empty_at(track.x, track.y) if empty_at is not None else False
            if empty or self._neighbours_seen(track, seen) or self._overlapped(track, seen):
                track.missing += 1
            if track.missing < self.remove_frames:
                keep.append(track)
        self.tracks = keep

    def _overlapped(self, track: Track, seen: set[int]) -> bool:
        """True when a confirmed tile seen this frame lies where ``track`` would overlap it:
        tiles never overlap, so ``track`` was re-laid (a meld row pushed along by a kong) and
        is a ghost of where a tile was; unseen ghosts side by side would otherwise keep each
        other alive, each the other's unseen neighbour."""
        return any(
            i in seen
            and other.confirmed
            and ((other.x - track.x) ** 2 + (other.y - track.y) ** 2) ** 0.5 < SAME_TILE
            for i, other in enumerate(self.tracks)
            if other is not track
        )

    def _neighbours_seen(self, track: Track, seen: set[int]) -> bool:
        """True when confirmed tiles right next to ``track`` were seen (so it is not occluded)."""
        near = [
            i
            for i, other in enumerate(self.tracks)
            if other is not track
            and other.confirmed
            and abs(other.x - track.x) < 1.6 * TILE_H
            and abs(other.y - track.y) < 1.6 * TILE_H
        ]
        return bool(near) and all(i in seen for i in near)

    def observation(self) -> TableObservation:
        """What the confirmed tracks show (:func:`vision.tracks.table_observation`)."""
        return table_observation(self.tracks, self.frame)
