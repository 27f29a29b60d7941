"""Capture decodes real video files written by OpenCV; bad input gives clear errors."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.capture import CaptureError, Source, frames, read_image


def _write_video(path: Path, count: int) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    assert writer.isOpened()
    for i in range(count):
        image = np.zeros((120, 160, 3), np.uint8)
        cv2.putText(image, str(i), (40, 80), cv2.FONT_HERSHEY_SIMPLEX, 2, (255, 255, 255), 3)
        image[:, :, 2] = i * 20
        writer.write(image)
    writer.release()


def test_reads_every_frame_of_a_video_file(tmp_path: Path) -> None:
    video = tmp_path / "table.avi"
    _write_video(video, 8)
    got = list(frames(Source(str(video))))
    assert [n for n, _ in got] == list(range(1, 9))
    reds = [int(image[:, :, 2].mean()) for _, image in got]
    assert reds == sorted(reds) and reds[-1] > reds[0] + 100
    assert not Source(str(video)).is_live and Source("0").is_live


def test_missing_and_garbage_sources_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(CaptureError, match="no such video file"):
        list(frames(Source(str(tmp_path / "nope.mp4"))))
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"\x00\x01 not a video" * 50)
    with pytest.raises(CaptureError, match="cannot open video source"):
        list(frames(Source(str(junk))))


def test_corrupt_image_is_a_clear_error_naming_the_file(tmp_path: Path) -> None:
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), np.full((10, 10, 3), 200, np.uint8))
    assert read_image(good).shape == (10, 10, 3)
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(good.read_bytes()[:20])
    with pytest.raises(CaptureError, match=r"cannot decode image .*broken\.jpg"):
        read_image(broken)
    with pytest.raises(CaptureError, match="no such image"):
        read_image(tmp_path / "missing.png")
