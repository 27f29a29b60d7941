"""Overhead cameras (vision) coupled to the service: frames in, engine actions out.

OpenCV and onnxruntime are imported only inside the worker, when a camera is configured.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine import actions as act

if TYPE_CHECKING:
    from tilesight.config import CameraConfig, ServiceConfig
    from tilesight.service import TableService
    from tilesight.supervisor import Work
    from vision.calibration import Calibration

log = logging.getLogger("tilesight.camera")


class CameraFeed:
    """Overhead camera frames -> vision (detector, stabiliser) -> engine actions.

    The camera sees discards, melds and revealed hands, not draws or concealed tiles, so the
    engine runs in partial-information mode (``vision.engine_bridge``). A new hand starts when
    the shuffling table's dice arrive (:meth:`new_hand`), or at once when there is no table; a
    restarted process carries on the hand its journal holds (:meth:`resume`).
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
        self.frames = 0

    def new_hand(self, dice: tuple[int, ...]) -> None:
        """Start the hand the cameras follow (the hand before ends as a washout when its wall
        is spent: no camera sees one)."""
        for action in self.actions.close(self.service.engine.snapshot()):
            self.service.apply(action)
        dealer = int(self.service.engine.snapshot().get("next_dealer") or 0)
        start, *deals = self.actions.start(dealer=dealer)
        assert isinstance(start, act.HandStart)
        for action in (replace(start, dice=dice), *deals):
            self.service.apply(action)

    def resume(self) -> bool:
        """Carry on the hand the engine holds (rebuilt from the journal after a restart); False
        when no hand is in play. Each camera's reader starts from it too (:meth:`worker`)."""
        return self.actions.resume(self.service.engine.snapshot())

    def worker(self, camera: CameraConfig) -> Work:
        def work(stop: threading.Event) -> None:
            # heavy imports (OpenCV, onnxruntime) only when a camera is configured
            from tilesight.camera_check import check_first_frame, load_calibration  # noqa: PLC0415
            from vision.capture import Source, frames  # noqa: PLC0415
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
            # what the engine holds was reported already: a reopened stream or a restarted
            # process sees the same tiles, not new discards
            prime_reader(reader, self.service.engine.snapshot())
            period = 1.0 / camera.fps
            next_due = 0.0
            for number, image in frames(Source(camera.source), on_error=log.warning, stop=stop):
                if number == 1:  # a fault (not retried) when the frames do not fit
                    check_first_frame(calibration, image, self.config.calibration.path)
                if time.monotonic() < next_due:
                    continue  # drop frames beyond the configured rate
                next_due = time.monotonic() + period
                self.frames += 1
                for event in reader.process(image):
                    for action in self.actions.actions(event):
                        self.service.apply(action)
            if not stop.is_set():
                raise ConnectionError(f"camera {camera.source!r}: the stream ended")

        return work


def hold_frames_for(fps: float) -> dict[str, int]:
    """The reader's waits, set in frames for 10 frames a second, kept in seconds at ``fps``:
    1.2 s for a claim or a kong to read, 2 s to see whether a discard is taken by a win."""
    return {
        "hold_frames": max(2, round(1.2 * fps)),
        "self_draw_frames": max(3, round(2.0 * fps)),
    }


def _detector(config: ServiceConfig) -> Any:
    from vision.boxes import BoxBackend, OnnxBoxes, UltralyticsBoxes  # noqa: PLC0415
    from vision.detector import Detector  # noqa: PLC0415

    options = config.detector
    if options.backend == "ultralytics":
        if options.model is None:
            raise ValueError("detector backend 'ultralytics' needs [detector] model")
        boxes: BoxBackend = UltralyticsBoxes(options.model, threshold=options.confidence)
    elif options.model is not None:
        boxes = OnnxBoxes(options.model, threshold=options.confidence)
    else:
        boxes = OnnxBoxes(threshold=options.confidence)
    return Detector(boxes=boxes, use_expert=options.expert)
