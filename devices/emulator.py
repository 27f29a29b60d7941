"""A table-agent board in software, served over a pseudo-terminal or TCP, with fault injection.

One thread runs a select loop over the port and a wake-up pipe. The pty is published through a
stable symlink (like /dev/serial/by-id/...) so that "unplug" (close the pty, power-cycle the
board) and "replug" (a new pty, same symlink) look to the host exactly like a USB adapter that
was pulled and pushed back.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import select
import socket
import tempfile
import threading
import time
import tty
from pathlib import Path

from devices.codes import BootReason, FaultCode
from devices.endpoint import DeviceEndpoint
from devices.table_model import TableModel, Timings


@dataclasses.dataclass
class ByteFaults:
    """Drops or corrupts each byte with probability ``rate`` (half each); delays some replies."""

    rate: float
    rng: random.Random
    dropped: int = 0
    corrupted: int = 0
    delayed: int = 0

    def apply(self, data: bytes) -> bytes:
        if not self.rate:
            return data
        out = bytearray()
        for byte in data:
            roll = self.rng.random()
            if roll < self.rate / 2:
                self.dropped += 1
            elif roll < self.rate:
                self.corrupted += 1
                out.append(byte ^ self.rng.randrange(1, 256))
            else:
                out.append(byte)
        return bytes(out)

    def delay(self) -> float:
        if self.rate and self.rng.random() < self.rate:
            self.delayed += 1
            return self.rng.uniform(0.005, 0.05)
        return 0.0


class Emulator:
    """Serve one emulated table; ``start_pty()`` or ``start_tcp()``, then ``stop()``."""

    def __init__(
        self,
        *,
        time_scale: float = 1.0,
        fault_rate: float = 0.0,
        seed: int | None = None,
        mechanical_fault_rate: float = 0.0,
        timings: Timings | None = None,
        counter_start: int = 0,
    ) -> None:
        if time_scale <= 0:
            raise ValueError(f"time scale must be positive, got {time_scale!r}")
        self.time_scale = time_scale
        rng = random.Random(seed)
        self.faults = ByteFaults(fault_rate, random.Random(rng.random()))
        self._t0 = time.monotonic()
        self._lock = threading.Lock()
        model = TableModel(
            now=0.0, rng=random.Random(rng.random()), timings=timings,
            mechanical_fault_rate=mechanical_fault_rate, counter_start=counter_start,
        )  # fmt: skip
        self.endpoint = DeviceEndpoint(model)
        self._wake_r, self._wake_w = os.pipe()
        self._stop = False
        self._thread: threading.Thread | None = None
        self._master = self._slave = -1
        self._link: Path | None = None
        self._tmpdir: str | None = None
        self._listener: socket.socket | None = None
        self._client: socket.socket | None = None
        self._tcp_addr: tuple[str, int] = ("", 0)
        self._replug_at: float | None = None
        self._outbox: list[tuple[float, bytes]] = []
        self.connected = threading.Event()  # set while the port is plugged in

    # ------------------------------------------------------------------ public API
    @property
    def model(self) -> TableModel:
        return self.endpoint.model

    def device_now(self) -> float:
        return (time.monotonic() - self._t0) / self.time_scale

    def start_pty(self, link: str | Path | None = None) -> str:
        """Serve on a new pty; returns the stable symlink path the host should open."""
        if link is None:
            self._tmpdir = tempfile.mkdtemp(prefix="tilesight-table-")
            link = Path(self._tmpdir) / "tty"
        self._link = Path(link)
        self._open_pty()
        self._start_thread()
        return str(self._link)

    def start_tcp(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Serve on TCP; returns the pyserial URL ``socket://host:port``."""
        self._tcp_addr = (host, port)
        self._open_listener()
        self._start_thread()
        return f"socket://{self._tcp_addr[0]}:{self._tcp_addr[1]}"

    def stop(self) -> None:
        self._stop = True
        self._wake()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with self._lock:
            self._close_port()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self._tmpdir is not None:
            with contextlib.suppress(OSError):
                Path(self._tmpdir).rmdir()

    def unplug(self, *, replug_after: float | None = 0.0) -> None:
        """Pull the cable: the port closes and the board power-cycles; replug after N seconds."""
        with self._lock:
            self._close_port()
            self.endpoint.power_cycle(self.device_now(), BootReason.POWER_ON)
            if replug_after is not None:
                self._replug_at = time.monotonic() + replug_after
        self._wake()

    def inject_fault(self, code: FaultCode, *, side: int = 0, expected: int = 0,
                     counted: int = 0) -> None:  # fmt: skip
        with self._lock:
            self.model.inject_fault(code, self.device_now(), side=side, expected=expected,
                                    counted=counted)  # fmt: skip

    def arm(self, *, jam_side: int = 0, short_side: int = 0) -> None:
        with self._lock:
            self.model.arm(jam_side=jam_side, short_side=short_side)

    def reset(self) -> None:
        """A board reset (watchdog) without unplugging the cable."""
        with self._lock:
            self.endpoint.power_cycle(self.device_now(), BootReason.WATCHDOG)

    def report(self) -> dict[str, object]:
        with self._lock:
            report = self.endpoint.counts.to_dict()
        report["bytes_dropped"] = self.faults.dropped
        report["bytes_corrupted"] = self.faults.corrupted
        report["replies_delayed"] = self.faults.delayed
        return report

    # ------------------------------------------------------------------ ports
    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        assert self._link is not None
        tmp = self._link.with_name(self._link.name + ".new")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        tmp.symlink_to(os.ttyname(slave))
        tmp.replace(self._link)
        self.connected.set()

    def _open_listener(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(self._tcp_addr)
        listener.listen(1)
        self._tcp_addr = listener.getsockname()[:2]
        self._listener = listener
        self.connected.set()

    def _close_port(self) -> None:
        self.connected.clear()
        self._outbox.clear()
        for fd in (self._master, self._slave):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = -1
        if self._link is not None:
            with contextlib.suppress(FileNotFoundError):
                self._link.unlink()
        for sock in (self._client, self._listener):
            if sock is not None:
                sock.close()
        self._client = self._listener = None

    def _plugged(self) -> bool:
        return self._master >= 0 or self._listener is not None

    def _replug(self) -> None:
        self._replug_at = None
        if self._link is not None:
            self._open_pty()
        else:
            self._open_listener()

    # ------------------------------------------------------------------ loop
    def _start_thread(self) -> None:
        self._thread = threading.Thread(target=self._run, name="table-emulator", daemon=True)
        self._thread.start()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")

    def _run(self) -> None:
        while not self._stop:
            with self._lock:
                watched, timeout = self._watched(), self._timeout()
            try:
                readable = select.select(watched, [], [], timeout)[0]
            except (OSError, ValueError):
                continue  # a port closed by unplug() between the snapshot and the select
            if self._wake_r in readable:
                os.read(self._wake_r, 4096)
            with self._lock:
                self._service(readable)

    def _watched(self) -> list[int | socket.socket]:
        watched: list[int | socket.socket] = [self._wake_r]
        if self._master >= 0:
            watched.append(self._master)
        watched += [s for s in (self._listener, self._client) if s is not None]
        return watched

    def _timeout(self) -> float:
        now = time.monotonic()
        times = [now + 0.5]
        if self._replug_at is not None:
            times.append(self._replug_at)
        times += [at for at, _ in self._outbox]
        deadline = self.model.next_deadline()
        if deadline is not None:
            times.append(self._t0 + deadline * self.time_scale)
        return max(0.0, min(times) - now)

    def _service(self, readable: list[int | socket.socket]) -> None:
        if self._replug_at is not None and time.monotonic() >= self._replug_at:
            self._replug()
        if self._listener is not None and self._listener in readable:
            if self._client is not None:
                self._client.close()  # a new host takes over the line
            self._client = self._listener.accept()[0]
            self._client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        data = self._read(readable)
        now = self.device_now()
        if data:
            reply = self.endpoint.receive(self.faults.apply(data), now)
            if reply:
                self._outbox.append((time.monotonic() + self.faults.delay(), reply))
        self.model.advance(now)
        self._flush()

    def _read(self, readable: list[int | socket.socket]) -> bytes:
        try:
            if self._master >= 0 and self._master in readable:
                return os.read(self._master, 4096)
            if self._client is not None and self._client in readable:
                data = self._client.recv(4096)
                if not data:
                    self._client.close()
                    self._client = None
                return data
        except OSError:
            return b""  # host side closed (EIO) or reset: a serial line just goes quiet
        return b""

    def _flush(self) -> None:
        now = time.monotonic()
        due = [item for item in self._outbox if item[0] <= now]
        self._outbox = [item for item in self._outbox if item[0] > now]
        for _, data in due:
            payload = self.faults.apply(data)
            with contextlib.suppress(OSError):  # full buffer or no host: bytes are lost
                if self._master >= 0:
                    os.write(self._master, payload)
                elif self._client is not None:
                    self._client.sendall(payload)
