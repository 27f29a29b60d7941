"""``--limiter``: how many frames a second the camera worker's rate limiter keeps of a live
stream, against the limiter it replaced."""

from __future__ import annotations

import time

import cv2
import numpy as np

from bench.camera_run.stream import CameraStream


class _OldLimiter:
    """The limiter ``CameraFeed.worker`` had: the next frame due one period after the kept one."""

    def __init__(self, fps: float) -> None:
        self.period, self.due = 1.0 / fps, 0.0

    def keep(self, now: float) -> bool:
        if now < self.due:
            return False
        self.due = now + self.period
        return True


def limiter_check(seconds: float = 6.0) -> list[str]:
    """Frames a second the camera worker's rate limiter keeps of a live stream: the loop of
    ``CameraFeed.worker`` with its ``FrameLimiter`` (and, for comparison, the limiter it
    replaced), the reading replaced by a sleep, fed by :class:`CameraStream` through
    ``vision.capture.frames``."""
    from tilesight.camera_stream import FrameLimiter
    from vision.capture import Source, frames

    ok, data = cv2.imencode(".jpg", np.zeros((720, 1152, 3), np.uint8))
    assert ok
    lines = []
    for camera_fps, fps, work_s in ((10, 10, 0.03), (10, 10, 0.07), (20, 10, 0.07), (30, 10, 0.03)):
        rates = []
        for limiter in (_OldLimiter(fps), FrameLimiter(fps)):
            stream = CameraStream(camera_fps)
            stream.load([data.tobytes()], [1 << 20])
            kept = 0
            began = time.monotonic()
            for _number, _image in frames(Source(stream.url)):
                if time.monotonic() - began > seconds:
                    break
                if not limiter.keep(time.monotonic()):
                    continue  # as camera_feed.py: drop frames beyond the rate
                kept += 1
                time.sleep(work_s)  # the detector and reader
            stream.load([data.tobytes()], [1])  # detach the client
            stream.server.shutdown()
            rates.append(kept / seconds)
        lines.append(
            f"camera {camera_fps} frames/s, config fps {fps}, {work_s * 1000:.0f} ms a frame: "
            f"{rates[1]:.1f} frames/s processed (the old limiter: {rates[0]:.1f})"
        )
    return lines
