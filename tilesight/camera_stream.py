"""A camera's stream at its configured rate, for the tile camera (:mod:`tilesight.camera_feed`)
and the card camera (:mod:`tilesight.card_feed`): the first frame checked against the
calibration, frames beyond the rate dropped (:class:`FrameLimiter`), a stream that ends
reported for the supervisor to reopen."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tilesight.config import CameraConfig, ServiceConfig
    from vision.calibration import Calibration

log = logging.getLogger("tilesight.camera")


def read_stream(
    source: Any,
    camera: CameraConfig,
    calibration: Calibration,
    config: ServiceConfig,
    stop: threading.Event,
    *,
    first: Callable[[], None],
    each: Callable[[Any], None],
) -> None:
    """A camera's frames at its configured rate: the first checked against the calibration (a
    fault, not retried, when they do not fit) and then ``first()``, each frame kept given to
    ``each``; a stream that ends before ``stop`` is a ``ConnectionError`` (the supervisor
    reopens it)."""
    from tilesight.camera_check import check_first_frame  # noqa: PLC0415 - OpenCV
    from vision.capture import frames  # noqa: PLC0415

    limiter = FrameLimiter(camera.fps)
    for number, image in frames(source, on_error=log.warning, stop=stop):
        if number == 1:
            check_first_frame(calibration, image, config.calibration.path, config.game)
            first()
        if not limiter.keep(time.monotonic()):
            continue  # drop frames beyond the configured rate
        each(image)
    if not stop.is_set():
        raise ConnectionError(f"camera {camera.source!r}: the stream ended")


class FrameLimiter:
    """Keeps ``fps`` frames a second of a camera that may send more: a frame is kept once its
    time is due, and the due time then moves on by whole periods, not from the frame kept, so a
    frame arriving a little early (jitter) is not lost: a camera at ``fps`` keeps every frame,
    a faster one ``fps`` a second. Early by up to half a period still counts as due. After a
    stall (the due time a period or more behind) it restarts from now: no burst of backlog."""

    def __init__(self, fps: float) -> None:
        self.period = 1.0 / fps
        self.due: float | None = None

    def keep(self, now: float) -> bool:
        """Whether the frame arriving at ``now`` (seconds, monotonic) is kept."""
        if self.due is not None and now < self.due - self.period / 2:
            return False
        due = now if self.due is None else self.due
        self.due = due + self.period if due + self.period > now else now + self.period
        return True
