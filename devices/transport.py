"""Bytes in, bytes out over any pyserial URL: /dev/ttyUSB0, loop://, socket://host:port, spy://.

The transport knows nothing of frames. Every failure of the port (unplugged adapter, closed pty,
refused socket) becomes :class:`LinkDownError`, which the driver answers by reconnecting.
"""

from __future__ import annotations

import contextlib
import time
from typing import Protocol

import serial

DEFAULT_BAUDRATE = 115200
_QUANTUM = 0.02  # longest single blocking read; bounds how late a deadline is noticed


class LinkDownError(ConnectionError):
    """The port is gone or cannot be opened; the message quotes the URL and the cause."""


class Transport(Protocol):
    """What the link layer needs; tests provide a scripted one."""

    def open(self) -> None: ...
    def close(self) -> None: ...
    def write(self, data: bytes) -> None: ...
    def read(self, timeout: float) -> bytes: ...
    def discard_input(self) -> None: ...


class SerialTransport:
    """A pyserial port opened from a URL, reopened on demand after a failure."""

    def __init__(self, url: str, *, baudrate: int = DEFAULT_BAUDRATE) -> None:
        self.url = url
        self.baudrate = baudrate
        self._port: serial.Serial | None = None

    def open(self) -> None:
        self.close()
        try:
            port = serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=_QUANTUM)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise LinkDownError(f"cannot open {self.url!r}: {exc}") from None
        self._port = port  # serial_for_url returns a Serial-like object for every scheme

    def close(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    def _require(self) -> serial.Serial:
        if self._port is None:
            raise LinkDownError(f"{self.url!r} is not open")
        return self._port

    def write(self, data: bytes) -> None:
        port = self._require()
        try:
            port.write(data)
        except (serial.SerialException, OSError) as exc:
            self.close()
            raise LinkDownError(f"write to {self.url!r} failed: {exc}") from None

    def read(self, timeout: float) -> bytes:
        """Whatever arrives within ``timeout`` seconds (returns as soon as anything does)."""
        port = self._require()
        deadline = time.monotonic() + timeout
        try:
            while True:
                data = port.read(max(1, port.in_waiting))
                if data:
                    while waiting := port.in_waiting:
                        data += port.read(waiting)
                    return bytes(data)
                if time.monotonic() >= deadline:
                    return b""
        except (serial.SerialException, OSError) as exc:
            self.close()
            raise LinkDownError(f"read from {self.url!r} failed: {exc}") from None

    def discard_input(self) -> None:
        port = self._require()
        try:
            port.reset_input_buffer()
        except (serial.SerialException, OSError) as exc:
            self.close()
            raise LinkDownError(f"flush of {self.url!r} failed: {exc}") from None
