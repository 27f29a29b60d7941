"""The smaller findings of issue 44 (7): an image claiming 100000 x 100000 pixels refused from
its header, the table CLI's ``--timeout`` honoured on a noisy line with one-line errors, and a
shuffle riding out a slow table never holding up the other commands."""

from __future__ import annotations

import struct
import subprocess
import time
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from devices.emulator import Emulator
from tests.service.conftest import TILESIGHT, Probe, make_service, wait_until
from tests.service.hostile_helpers import REPLY, replies, send
from tilesight.demo.broker import MosquittoBroker
from tilesight.table_bridge import TableBridge, emulated_table
from vision.capture import CaptureError, read_image
from vision.image_limits import header_size


def _png_claiming(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return b"\x89PNG\r\n\x1a\n" + chunk + b"\x00\x00\x00\x00IEND\xaeB`\x82"


def test_a_69_byte_png_claiming_100000_squared_is_refused_before_decoding(tmp_path: Path):
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(_png_claiming(100_000, 100_000))
    with pytest.raises(CaptureError, match="claims 100000 x 100000 pixels"):
        read_image(bomb)
    result = subprocess.run(
        [TILESIGHT, "score", "--photo", str(bomb)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert len(bomb.read_bytes()) < 70
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "claims 100000 x 100000 pixels" in result.stderr


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp"])
def test_header_sizes_match_the_decoded_images(suffix: str, tmp_path: Path):
    path = tmp_path / f"photo{suffix}"
    cv2.imwrite(str(path), np.zeros((37, 53, 3), np.uint8))
    assert header_size(path.read_bytes()) == (53, 37)
    assert read_image(path).shape == (37, 53, 3)


@pytest.mark.slow
def test_table_cli_timeout_is_honoured_on_a_noisy_line():
    """5 % of bytes dropped or corrupted: every ``dice --timeout 5`` ends within the limit,
    with the roll or a one-line error, never a traceback."""
    emulator = Emulator(time_scale=1.0, fault_rate=0.05, seed=11)
    port = emulator.start_pty()
    try:
        runs = []
        for _ in range(3):
            started = time.monotonic()
            result = subprocess.run(
                [TILESIGHT, "table", "dice", "--port", str(port), "--timeout", "5", "--json"],
                check=False, capture_output=True, text=True, timeout=60,
            )  # fmt: skip
            runs.append((time.monotonic() - started, result))
    finally:
        emulator.stop()
    for took, result in runs:
        assert took < 7.5, (took, result)
        assert result.returncode in (0, 2) and "Traceback" not in result.stderr, result.stderr
        if result.returncode == 2:
            assert len(result.stderr.strip().splitlines()) == 1


def test_a_slow_shuffle_does_not_hold_up_other_commands(broker: MosquittoBroker):
    service = make_service(broker.url, table="T05", tournament="hall")
    bridge = TableBridge(service)
    service.table_control = bridge.control
    service.start()
    try:
        with emulated_table(bridge, seed=2, time_scale=1.0):  # a real table's pace: seconds
            wait_until(service.link.connected.is_set, 10, "service connection")
            with Probe(broker.url, "ref") as probe:
                probe.subscribe(REPLY)
                send(probe, "shuffle", b"{}", b"shuffle")
                time.sleep(0.3)
                sent = time.monotonic()
                send(probe, "ack", b'{"alert": "a1"}', b"ack")
                wait_until(lambda: b"ack" in replies(probe), 10, "the ack")
                ack_took = time.monotonic() - sent
                shuffle_done_first = b"shuffle" in replies(probe)
                wait_until(lambda: b"shuffle" in replies(probe), 60, "the shuffle")
    finally:
        service.stop()
    assert ack_took < 2.0 and not shuffle_done_first
    assert replies(probe)[b"shuffle"]["ok"] is True
