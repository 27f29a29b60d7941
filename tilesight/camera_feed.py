"""Overhead cameras (vision) coupled to the service: frames in, engine actions out.

OpenCV and onnxruntime are imported only inside the worker, when a camera is configured.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine import actions as act
from tilesight.dealer_watch import DealerWatch

if TYPE_CHECKING:
    from tilesight.config import CameraConfig, ServiceConfig
    from tilesight.service import TableService
    from tilesight.supervisor import Work
    from vision.calibration import Calibration
    from vision.observed import Observed
    from vision.reader import TableReader

log = logging.getLogger("tilesight.camera")


class CameraFeed:
    """Overhead camera frames -> vision (detector, stabiliser) -> engine actions.

    The camera sees discards, melds and revealed hands, not draws or concealed tiles, so the
    engine runs in partial-information mode (``vision.engine_bridge``). A new hand starts when
    the shuffling table's dice arrive (:meth:`new_hand`). Without a shuffling table the first
    hand starts at once (``tilesight run``) and each next one when a camera sees the table
    cleared after the hand before is over (:meth:`table_cleared`). A restarted process carries
    on the hand its journal holds (:meth:`resume`); one whose journal's last hand is over waits
    for the table to be cleared. Reader events reach the engine only for a hand this process
    started or resumed (:meth:`read`).
    ``calibration``: as checked at start (:func:`tilesight.camera_check.load_calibration`);
    None loads it in the worker. Each camera's first frame is checked against it.
    """

    def __init__(
        self, config: ServiceConfig, service: TableService, calibration: Calibration | None = None
    ) -> None:
        from vision.engine_bridge import ActionBridge  # noqa: PLC0415 - vision is optional

        self.config = config
        self.service = service
        self.calibration = calibration
        self.actions = ActionBridge(config.procedure)
        self.dealer_watch = DealerWatch()
        self.frames = 0
        self.shuffling_table = bool(config.table_port.url)  # its dice start each hand
        self.following = False  # a hand this process started or resumed is in view
        self._swept = False  # a cleared table was seen since the hand before was over
        self._lock = threading.RLock()  # cameras' workers and the shuffling table's dice

    def new_hand(self, dice: tuple[int, ...]) -> None:
        """Start the hand the cameras follow (the hand before ends as a washout when its wall
        is spent: no camera sees one)."""
        with self._lock:
            for action in self.actions.close(self.service.engine.snapshot()):
                self.service.apply(action)
            dealer = int(self.service.engine.snapshot().get("next_dealer") or 0)
            start, *deals = self.actions.start(dealer=dealer)
            assert isinstance(start, act.HandStart)
            start = replace(start, dice=dice)
            published = self.service.apply(start)
            for action in deals:
                self.service.apply(action)
            self.dealer_watch.started(start, published)
            self.following = True

    def resume(self) -> bool:
        """Carry on the hand the engine holds (rebuilt from the journal after a restart); False
        when no hand is in play. Each camera's reader starts from it too (:meth:`worker`)."""
        with self._lock:
            snapshot = self.service.engine.snapshot()
            self.following = self.actions.resume(snapshot)
            if self.following:  # a hand not played yet: its first discard may name the dealer
                start = getattr(self.service.engine, "last_hand_start", None)
                self.dealer_watch.resumed(start, snapshot)
            return self.following

    def read(self, events: Iterable[Observed], reader: TableReader | None = None) -> None:
        """One frame's observations (:mod:`vision.observed`): ``TableCleared`` may start the
        next hand (:meth:`table_cleared`); the others become engine actions, while a hand this
        process started or resumed is in play (a process started between hands does not take
        the table of the hand before, still in view, for news; nor does play seen after a hand
        ended reach it). Given the ``reader``, a next hand seen in play while this process
        waits for a cleared table is started at once (:meth:`catch_up`)."""
        if reader is not None and self.catch_up(reader):
            return  # the reader reports what lies on the table again, as the new hand's
        from vision.observed import TableCleared  # noqa: PLC0415 - vision is optional

        for event in events:
            if isinstance(event, TableCleared):
                self.table_cleared()
                continue
            with self._lock:
                if not self.following or self._ended():
                    continue
                if not self.actions.played:
                    self._check_dealer(event)
                for action in self.actions.actions(event):
                    self.service.apply(action)

    def catch_up(self, reader: TableReader) -> bool:
        """Start the next hand when ``reader`` shows it in play while the hand before is over
        and its cleared table went unseen for long enough (a restart after the sweep, or a
        busy machine that read too few frames of it: :func:`vision.next_hand.next_hand_in_view`).
        What lies on the table is its play so far, a lap at a time from its dealer
        (:func:`vision.next_hand.play_so_far`), and the reader goes on from that table. True
        when a hand started."""
        from vision import next_hand  # noqa: PLC0415 - vision is optional
        from vision.observed import DiscardSeen  # noqa: PLC0415
        from vision.reported import cleared  # noqa: PLC0415
        from vision.turn_hold import next_to_play  # noqa: PLC0415

        if self.shuffling_table:
            return False
        with self._lock:
            snapshot = self.service.engine.snapshot()
            if not next_hand.hand_over(snapshot):
                self._swept = False
                return False
            seen = reader.published
            if seen is not None and cleared(seen):
                self._swept = True
                return False
            before = next_hand.ended_rivers(snapshot)
            if seen is None or not next_hand.next_hand_in_view(before, seen, swept=self._swept):
                return False
            log.warning("the next hand is in play, its cleared table unseen: it starts now")
            self.table_cleared(forced=True)
            self._swept = False
            dealer = int(self.service.engine.snapshot()["hand"]["dealer"])
            played = next_hand.play_so_far(seen, dealer, reader.frame)
            for event in played:
                for action in self.actions.actions(event):
                    self.service.apply(action)
            discards = [e for e in played if isinstance(e, DiscardSeen)]
            last = (discards[-1].seat, discards[-1].tile) if discards else None
            reader.prime(seen, next_to_play(played, dealer), last)
            return True

    def _check_dealer(self, event: Observed) -> None:
        """The hand's first play read: after an abandoned hand, a discard by another seat than
        the engine's dealer corrects the dealer (:class:`tilesight.dealer_watch.DealerWatch`)."""
        from vision.observed import DiscardSeen  # noqa: PLC0415 - vision is optional

        seat = getattr(event, "seat", None)
        hand = self.service.engine.snapshot().get("hand")
        if seat is None or not isinstance(hand, Mapping) or not _is_play(event):
            return
        first = isinstance(event, DiscardSeen)
        fix = self.dealer_watch.correction(int(seat), int(hand["dealer"]), first_play=first)
        if fix is None:
            return
        log.warning("hand %s: %s", hand["number"], fix.reason)
        self.service.apply(fix)
        self.actions.start(dealer=int(seat))  # the bridge follows the hand from its dealer

    def _ended(self) -> bool:
        hand = self.service.engine.snapshot().get("hand")
        return isinstance(hand, Mapping) and hand.get("phase") == "ended"

    def table_cleared(self, *, forced: bool = False) -> bool:
        """A camera sees the table cleared (no river tile, meld or face-up tile for a while:
        ``table_cleared`` from :class:`vision.reader.TableReader`). Without a shuffling table
        the next hand starts (:meth:`new_hand`) once the hand before was played: what ends it
        first is :meth:`ActionBridge.close`'s (a washout, a win refused as read declared
        unscored); a hand with no result then is abandoned and the referee told
        (``hand_abandoned``). A hand not played yet goes on (this is its deal). True when a
        hand started. ``forced``: the next hand was seen in play (:meth:`catch_up`)."""
        if self.shuffling_table:
            return False  # its dice start the next hand
        with self._lock:
            snapshot = self.service.engine.snapshot()
            if self.following and not forced and not self.actions.over(snapshot):
                return False
            hand = snapshot.get("hand")
            if isinstance(hand, Mapping) and hand.get("phase") not in ("ended", "idle"):
                log.warning("the table was cleared: hand %s ends", hand["number"])
            self.new_hand(())
            log.info("the table was cleared: hand %s starts", self.hand_number())
            return True

    def hand_number(self) -> int | None:
        hand = self.service.engine.snapshot().get("hand")
        return int(hand["number"]) if isinstance(hand, Mapping) else None

    def worker(self, camera: CameraConfig) -> Work:
        def work(stop: threading.Event) -> None:
            # heavy imports (OpenCV, onnxruntime) only when a camera is configured
            from tilesight.camera_check import load_calibration  # noqa: PLC0415
            from tilesight.camera_stream import read_stream  # noqa: PLC0415
            from vision.capture import Source  # noqa: PLC0415
            from vision.reader import TableReader  # noqa: PLC0415
            from vision.resume import prime_reader  # noqa: PLC0415
            from vision.stabiliser import Stabiliser  # noqa: PLC0415

            calibration = self.calibration or load_calibration(self.config)
            reader = TableReader(
                _detector(self.config),
                calibration,
                Stabiliser(confirm_frames=self.config.detector.stable_frames),
                **hold_frames_for(camera.fps),
            )

            def first() -> None:
                # what the engine holds was reported already: a reopened stream or a
                # restarted process sees the same tiles, not new discards
                prime_reader(reader, self.service.engine.snapshot())

            def each(image: Any) -> None:
                self.frames += 1
                self.read(reader.process(image), reader)

            source = Source(camera.source)
            read_stream(source, camera, calibration, self.config, stop, first=first, each=each)

        return work


def hold_frames_for(fps: float) -> dict[str, int]:
    """The reader's waits, set in frames for 10 frames a second, kept in seconds at ``fps``:
    1.2 s for a claim or a kong to read, 2 s to see whether a discard is taken by a win, 2 s
    of a cleared table before the next hand starts (camera-only tables)."""
    return {
        "hold_frames": max(2, round(1.2 * fps)),
        "self_draw_frames": max(3, round(2.0 * fps)),
        "clear_frames": max(3, round(2.0 * fps)),
    }


def _detector(config: ServiceConfig) -> Any:
    from vision.detector import Detector  # noqa: PLC0415
    from vision.detector_backends import box_backend  # noqa: PLC0415

    options = config.detector
    boxes = box_backend(options.backend, options.model, options.confidence)
    return Detector(boxes=boxes, use_expert=options.expert)


def _is_play(event: Observed) -> bool:
    """A discard, claim, kong or reveal (not a flower set aside at the deal)."""
    from vision.engine_bridge import PLAY  # noqa: PLC0415 - vision is optional

    return isinstance(event, PLAY)
