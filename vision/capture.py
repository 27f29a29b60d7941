"""Camera frames from a USB index, an RTSP/HTTP URL or a video file, with reconnects.

Live sources reconnect after a failed read (with a capped back-off); a video file ends at its end.
A frame that cannot be decoded is reported through ``on_error`` with a clear message and skipped;
it never stops the stream.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.image_limits import MAX_FILE_BYTES, size_problem


class CaptureError(RuntimeError):
    """The source cannot be opened at all."""


@dataclass(frozen=True)
class Source:
    """``"0"`` -> USB camera 0; ``rtsp://...``/``http://...`` -> stream; else a video file path."""

    spec: str

    @property
    def is_live(self) -> bool:
        return self.spec.isdigit() or "://" in self.spec

    def open(self) -> cv2.VideoCapture:
        if self.spec.isdigit():
            capture = cv2.VideoCapture(int(self.spec))
        elif "://" in self.spec:
            capture = cv2.VideoCapture(self.spec, cv2.CAP_FFMPEG)
        else:
            path = Path(self.spec)
            if not path.is_file():
                raise CaptureError(f"no such video file: {self.spec!r}")
            capture = cv2.VideoCapture(str(path))
        if not capture.isOpened():
            capture.release()
            raise CaptureError(f"cannot open video source {self.spec!r}")
        return capture


def _usable(frame: np.ndarray | None) -> str | None:
    """Why a decoded frame is unusable, or None."""
    if frame is None:
        return "decoder returned no image"
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.size == 0:
        return f"unexpected frame shape {frame.shape}"
    return None


def frames(
    source: Source,
    on_error: Callable[[str], None] | None = None,
    stop: threading.Event | None = None,
    max_reconnects: int = 1000,
    backoff_s: float = 0.5,
) -> Iterator[tuple[int, np.ndarray]]:
    """Yield ``(frame_number, BGR image)``; live sources reopen after read failures."""
    report = on_error or (lambda message: None)
    stop = stop or threading.Event()
    capture = source.open()
    number, reconnects, failures = 0, 0, 0
    try:
        while not stop.is_set():
            ok, frame = capture.read()
            if ok and _usable(frame) is None:
                failures = 0
                number += 1
                yield number, frame
                continue
            if not source.is_live:
                total = int(capture.get(cv2.CAP_PROP_FRAME_COUNT))
                if ok or 0 < number + failures + 1 < total:
                    failures += 1
                    report(
                        f"{source.spec!r}: frame {number + failures} unreadable "
                        f"({_usable(frame) or 'decode failed'}), skipped"
                    )
                    if failures < 25:
                        continue
                return
            reconnects += 1
            if reconnects > max_reconnects:
                raise CaptureError(f"{source.spec!r}: gave up after {max_reconnects} reconnects")
            report(f"{source.spec!r}: read failed, reconnecting ({reconnects})")
            capture.release()
            if stop.wait(min(backoff_s * reconnects, 5.0)):
                return
            try:
                capture = source.open()
            except CaptureError as exc:
                report(str(exc))
    finally:
        capture.release()


def read_image(path: Path) -> np.ndarray:
    """A still image, or a clear error naming the file (missing, empty, not an image, over the
    size limits of :mod:`vision.image_limits`, checked on the header before decoding)."""
    if not path.is_file():
        raise CaptureError(f"no such image: {str(path)!r}")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise CaptureError(f"image {str(path)!r}: {path.stat().st_size} bytes, too large")
    data = np.fromfile(str(path), np.uint8)
    if (problem := size_problem(data[:262144].tobytes())) is not None:
        raise CaptureError(f"image {str(path)!r} refused: {problem}")
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except cv2.error:  # OpenCV's own limits (other formats)
        image = None
    if image is None:
        raise CaptureError(
            f"cannot decode image {str(path)!r} ({data.size} bytes): not a PNG/JPEG/BMP or corrupt"
        )
    return image
