"""The simulated hands seen through the real perception path (``tilesight demo --vision``).

After each public action of a simulated hand the table is rendered from overhead (the training
renderer, :func:`models.drawn.camera.render_frame`) and read by the real detector, stabiliser and
:class:`vision.reader.TableReader`. The perceived discards and melds are compared with the
simulator's truth at the end of each hand. The engine still receives the simulator's actions (the
referee-grade source): a disagreement is a perception warning, never a rule violation. Evaluation
part 3b (:mod:`models.evaluation.evaluate_hands`) runs the same check over many hands.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

import numpy as np

from engine import actions as act
from models.art.faces import load_faces
from models.drawn.camera import random_camera, render_frame
from models.drawn.visible_table import Key, VisibleTable
from vision.calibration import Calibration
from vision.detector import Detector
from vision.observed import (
    ConcealedKongSeen,
    DiscardSeen,
    FaceDownKongSeen,
    FlowerSeen,
    MeldSeen,
    Observed,
)
from vision.reader import TableReader
from vision.stabiliser import Stabiliser

# the design point, river tiles ~40 px (at 1280x720, ~27 px, one 5m was read as 3m)
FRAME_SIZE = (1920, 1080)
_COMPARED = (DiscardSeen, MeldSeen, ConcealedKongSeen, FaceDownKongSeen, FlowerSeen)


@dataclass
class HandPerception:
    """How one hand's public events were read: ``seen + missed == expected``."""

    hand: int
    expected: int = 0
    seen: int = 0  # read exactly (kind, seat and tile)
    missed: int = 0  # not read exactly; includes those read as a wrong tile
    wrong_tile: int = 0
    invented: int = 0  # read where nothing happened
    wrong_order: int = 0  # read right, but out of order
    frames: int = 0
    seconds: float = 0.0  # reading only (detector, stabiliser, reader)
    render_seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds else 0.0

    def line(self) -> str:
        return (
            f"perception hand {self.hand}: {self.seen}/{self.expected} events seen, "
            f"{self.missed} missed ({self.wrong_tile} as a wrong tile), {self.invented} invented, "
            f"{self.wrong_order} out of order; {self.frames} frames read at {self.fps:.1f} "
            f"frames/s "
            f"(rendering them took {self.render_seconds:.1f} s)"
        )


def compare(hand: int, truth: list[Key], read: list[Key]) -> HandPerception:
    """Match read events to the truth as multisets, pair leftovers by seat, order by LCS."""
    result = HandPerception(hand, expected=len(truth))
    common = Counter(truth) & Counter(read)
    result.seen = sum(common.values())
    result.missed = result.expected - result.seen
    missing = list((Counter(truth) - common).elements())
    extra = list((Counter(read) - common).elements())
    for got in list(extra):
        twin = next((w for w in missing if w[:2] == got[:2]), None)
        if twin is not None:
            missing.remove(twin)
            extra.remove(got)
            result.wrong_tile += 1
            result.warnings.append(f"{_say(twin)} read as {_say(got)}")
    result.warnings += [f"{_say(w)} missed" for w in missing]
    result.warnings += [f"{_say(g)} invented" for g in extra]
    result.invented = len(extra)
    result.wrong_order = result.seen - _lcs(truth, read)
    if result.wrong_order:
        result.warnings.append(f"{result.wrong_order} events read out of order")
    return result


def _lcs(a: list[Key], b: list[Key]) -> int:
    row = [0] * (len(b) + 1)
    for x in a:
        prev = 0  # row[j - 1] of the previous row
        for j, y in enumerate(b):
            keep = row[j + 1]
            row[j + 1] = prev + 1 if x == y else max(row[j + 1], row[j])
            prev = keep
    return row[-1]


def _say(key: Key) -> str:
    kind, seat, what, claimed = key
    if kind == "meld":
        return f"seat {seat} {what} of {claimed}"
    return f"seat {seat} {kind.replace('_', ' ')} {what}"


class PerceptionCheck:
    """Feed it the simulator's actions (:meth:`observe`) between :meth:`start_hand` and
    :meth:`finish_hand`; it renders the frames each visible change needs and reads them."""

    def __init__(
        self,
        frames_per_action: int = 4,
        seed: int = 1,
        out: TextIO | None = None,
        *,
        frame_size: tuple[int, int] = FRAME_SIZE,
        arm_frames: int = 0,
        final_frames: int = 0,
        face_down_kongs: bool = False,
    ):
        """``arm_frames`` of each change's frames show an arm reaching over the table first;
        ``final_frames`` more frames show the table at rest after the hand's last change (a
        real camera keeps watching while the win is checked and scored); ``face_down_kongs``
        lays concealed kongs all face down (national rules), else with their end tiles down."""
        if frames_per_action < 1 or not 0 <= arm_frames < frames_per_action:
            raise ValueError(
                f"need frames per action >= 1 and 0 <= arm frames < that, got "
                f"{frames_per_action} and {arm_frames}"
            )
        self.frames_per_action = frames_per_action
        self.frame_size = frame_size
        self.arm_frames = arm_frames
        self.final_frames = final_frames
        self.face_down_kongs = face_down_kongs
        self.out = out
        self.rng = np.random.default_rng(seed)
        self.faces = {name: [image] for name, image in load_faces().items()}
        self.detector = Detector()
        self.hands: list[HandPerception] = []
        #: Called with each frame's reader events as they are read (``--camera-only``: the
        #: engine is fed from them).
        self.on_events: Callable[[list[Observed]], None] | None = None

    def start_hand(self, number: int) -> None:
        self.number = number
        self.table = VisibleTable(self.face_down_kongs)
        self.read: list[Key] = []
        self.reader: TableReader | None = None
        self.corners = installed_camera(*self.frame_size, self.rng)
        self.table_seed = int(self.rng.integers(1 << 30))  # same felt and backs all hand
        self.frames = 0
        self.seconds = self.render_seconds = 0.0
        self.events: list[Observed] = []  # everything the reader reported of the hand

    def observe(self, action: act.Action) -> None:
        """Update the visible table for one simulator action; render and read it if it changed."""
        if self.table.apply(action):
            self._look(self.frames_per_action, self.arm_frames)

    def reveal_win(
        self,
        seat: int,
        tiles: list[str],
        discarder: int | None,
        apart: str | None = None,
        *,
        show_kongs: bool = False,
    ) -> None:
        """The winner lays its concealed tiles face up, the winning tile among them (``apart``
        from the rest, its face-down kongs turned up with ``show_kongs``: see
        :meth:`VisibleTable.reveal_win`); a discard won on is taken from its river at the same
        time. Rendered and read."""
        self.table.reveal_win(seat, tiles, discarder, apart, show_kongs=show_kongs)
        self._look(self.frames_per_action, self.arm_frames)

    def finish_hand(self) -> HandPerception:
        if self.reader is not None:
            self._look(self.final_frames, arm_frames=0)
        result = compare(self.number, self.table.truth, self.read)
        result.frames, result.seconds = self.frames, self.seconds
        result.render_seconds = self.render_seconds
        self.hands.append(result)
        if self.out is not None:
            lines = [f"PERCEPTION WARNING (not a rule violation): {w}" for w in result.warnings]
            print("\n".join([*lines, result.line()]), file=self.out, flush=True)
        return result

    def _look(self, frames: int, arm_frames: int) -> None:
        for index in range(frames):
            started = time.monotonic()
            frame = render_frame(
                self.table.spec,
                self.faces,
                self.rng,
                frame_size=self.frame_size,
                arms=1 if index < arm_frames else 0,
                corners=self.corners,
                distortion=0.0,  # the calibration is a plain homography
                table_seed=self.table_seed,
            )
            self.render_seconds += time.monotonic() - started
            started = time.monotonic()
            if self.reader is None:
                corners = tuple((float(x), float(y)) for x, y in frame.table_corners)
                self.reader = TableReader(self.detector, Calibration(corners), Stabiliser())
            events = self.reader.process(frame.image)
            self.events += events
            self.read += [_key(e) for e in events if isinstance(e, _COMPARED)]
            self.seconds += time.monotonic() - started
            self.frames += 1
            if events and self.on_events is not None:
                self.on_events(events)


def installed_camera(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    """A random overhead camera that sees the whole table, as an installation must: the four
    corners at least 1% of the frame inside it (a corner cut off hides that seat's melds)."""
    margin = 0.01 * height
    while True:
        corners = random_camera(width, height, rng, span=(0.85, 0.95))
        inside = (corners >= margin) & (corners <= np.array([width, height]) - margin)
        if inside.all():
            return corners


def _key(event: DiscardSeen | MeldSeen | ConcealedKongSeen | FaceDownKongSeen | FlowerSeen) -> Key:
    if isinstance(event, MeldSeen):
        kind = event.kind.value if event.kind is not None else "unreadable"
        return ("meld", event.seat, kind, str(event.claimed))
    tile = "?" if isinstance(event, FaceDownKongSeen) else str(event.tile)
    return (event.TYPE, event.seat, tile, "")


def total_line(hands: list[HandPerception], camera_only: bool = False) -> str:
    """The summary's perception line over every hand."""
    seen, expected = sum(h.seen for h in hands), sum(h.expected for h in hands)
    frames, seconds = sum(h.frames for h in hands), sum(h.seconds for h in hands)
    how = (
        "the engine used only what the camera read"
        if camera_only
        else "warnings only, the engine used the simulator's actions"
    )
    return (
        f"perception ({how}): {seen}/{expected} "
        f"events seen, {sum(h.missed for h in hands)} missed, "
        f"{sum(h.wrong_tile for h in hands)} wrong tile, {sum(h.invented for h in hands)} "
        f"invented, {sum(h.wrong_order for h in hands)} out of order, "
        f"{frames / seconds if seconds else 0.0:.1f} frames/s"
    )
