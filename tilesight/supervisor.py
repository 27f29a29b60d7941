"""Supervised worker threads: a camera or serial cable that drops must come back on its own.

A worker is a function ``work(stop)`` that runs until ``stop`` is set. If it raises (a camera
unplugged, a serial port gone, a full disk), the supervisor logs one readable line, tells
``on_crash`` (the service publishes it as a ``table_fault``), waits (1 s, doubling up to 30 s)
and runs it again. A :class:`WorkerFaultError` (a camera whose frames its calibration does not
fit) stops that worker for good instead: retrying cannot fix it, and its status keeps the reason.
A worker that crashes ``max_crashes`` times in a row, each run shorter than ``healthy_s``, is
unrecoverable: :meth:`Supervisor.fail` stops everything and ``run_until_signal`` returns 1, so
a table that can no longer work exits non-zero instead of reporting ``online``.
``run_until_signal`` turns SIGINT / SIGTERM into a clean shutdown (0).
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

log = logging.getLogger("tilesight.supervisor")

Work = Callable[[threading.Event], None]


class WorkerFaultError(Exception):
    """A worker cannot do its job until a person fixes something: it is not run again."""


@dataclass
class _Worker:
    name: str
    work: Work
    on_status: Callable[[str], None] | None
    thread: threading.Thread | None = None
    restarts: int = 0
    last_error: str = ""
    started: list[float] = field(default_factory=list)
    crashes_in_a_row: int = 0


class Supervisor:
    def __init__(
        self,
        *,
        min_backoff_s: float = 1.0,
        max_backoff_s: float = 30.0,
        max_crashes: int = 5,
        healthy_s: float = 60.0,
    ) -> None:
        self.stop_event = threading.Event()
        self._workers: list[_Worker] = []
        self._min_backoff = min_backoff_s
        self._max_backoff = max_backoff_s
        self._max_crashes = max_crashes
        self._healthy_s = healthy_s
        self._started = False
        self._outside: dict[str, list[float]] = {}
        #: Told ``(worker name, error)`` of each crash (the service publishes a table fault).
        self.on_crash: Callable[[str, str], None] | None = None
        #: Why the supervisor gave up (an unrecoverable worker, refused credentials); None: it
        #: did not.
        self.failure: str | None = None

    def add(self, name: str, work: Work, on_status: Callable[[str], None] | None = None) -> None:
        """Register a worker; ``on_status`` hears "online", "offline: <why>" and "stopped".
        A worker added after :meth:`start` starts at once."""
        worker = _Worker(name, work, on_status)
        self._workers.append(worker)
        if self._started:
            self._launch(worker)

    def start(self) -> None:
        self._started = True
        for worker in self._workers:
            self._launch(worker)

    def fail(self, reason: str) -> None:
        """Give up: log why, stop every worker's loop (``run_until_signal`` then returns 1)."""
        if self.failure is None:
            self.failure = reason
            log.error("giving up: %s", reason)
        self.stop_event.set()

    def record_crash(self, name: str, error: str) -> None:
        """A failure on a thread the supervisor does not run (the MQTT network thread, whose
        callbacks survive it): reported like a crash; ``max_crashes`` of them within
        ``healthy_s`` are unrecoverable."""
        now = time.monotonic()
        times = [t for t in self._outside.get(name, []) if now - t < self._healthy_s] + [now]
        self._outside[name] = times
        if self.on_crash is not None:
            try:
                self.on_crash(name, error)
            except Exception:
                log.exception("reporting the crash of %s failed", name)
        if len(times) >= self._max_crashes:
            self.fail(f"{name} failed {len(times)} times within {self._healthy_s:.0f} s ({error})")

    def _launch(self, worker: _Worker) -> None:
        worker.thread = threading.Thread(
            target=self._keep_running, args=(worker,), name=worker.name, daemon=True
        )
        worker.thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self.stop_event.set()
        deadline = time.monotonic() + timeout
        for worker in self._workers:
            if worker.thread is not None:
                worker.thread.join(max(0.0, deadline - time.monotonic()))
                if worker.thread.is_alive():
                    log.error("%s did not stop within %.0f s", worker.name, timeout)

    def restarts(self, name: str) -> int:
        return next(w.restarts for w in self._workers if w.name == name)

    def _keep_running(self, worker: _Worker) -> None:
        backoff = self._min_backoff
        while not self.stop_event.is_set():
            worker.started.append(time.monotonic())
            self._status(worker, "online")
            try:
                worker.work(self.stop_event)
            except WorkerFaultError as exc:
                worker.last_error = str(exc)
                self._status(worker, f"offline: {exc}")  # kept: no "stopped" after it
                log.error("%s stopped, not retried: %s", worker.name, exc)
                return
            except Exception as exc:
                worker.last_error = f"{type(exc).__name__}: {exc}"
                worker.restarts += 1
                self._status(worker, f"offline: {worker.last_error}")
                log.error("%s crashed: %s", worker.name, worker.last_error, exc_info=exc)
                self._crashed(worker)
                if self._unrecoverable(worker):
                    self.fail(
                        f"{worker.name} crashed {self._max_crashes} times in a row "
                        f"(last: {worker.last_error})"
                    )
                    return
                log.warning("%s restarts in %.1f s", worker.name, backoff)
                if self.stop_event.wait(backoff):
                    break
                backoff = min(backoff * 2, self._max_backoff)
                continue
            if not self.stop_event.is_set():  # returned on its own: run it again
                backoff = self._min_backoff
                worker.crashes_in_a_row = 0
                if self.stop_event.wait(self._min_backoff):
                    break
        self._status(worker, "stopped")

    def _unrecoverable(self, worker: _Worker) -> bool:
        """``max_crashes`` crashes in a row, each run shorter than ``healthy_s``."""
        return worker.crashes_in_a_row >= self._max_crashes

    def _crashed(self, worker: _Worker) -> None:
        ran = time.monotonic() - worker.started[-1]
        worker.crashes_in_a_row = worker.crashes_in_a_row + 1 if ran < self._healthy_s else 1
        del worker.started[:-1]  # only the latest start is needed
        if self.on_crash is not None:
            try:
                self.on_crash(worker.name, worker.last_error)
            except Exception:
                log.exception("reporting the crash of %s failed", worker.name)

    def _status(self, worker: _Worker, status: str) -> None:
        if worker.on_status is not None:
            try:
                worker.on_status(status)
            except Exception:
                log.exception("status callback of %s failed", worker.name)


def stop_on_signals(supervisor: Supervisor) -> tuple[list[int], dict[int, Any]]:
    """From now on SIGINT and SIGTERM set ``supervisor``'s stop event (main thread only): call it
    before a table starts, so that a stop asked for while it starts (a journal replayed, the
    broker connected) stops it cleanly once it runs instead of killing it mid-start. Returns
    the signals received (filled as they come) and the handlers it replaced."""
    received: list[int] = []

    def _handler(signum: int, _frame: FrameType | None) -> None:
        received.append(signum)
        supervisor.stop_event.set()

    previous = {sig: signal.signal(sig, _handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    return received, previous


def run_until_signal(
    supervisor: Supervisor, poll_s: float = 0.5, received: list[int] | None = None
) -> int:
    """Block the main thread until SIGINT or SIGTERM (returns 0) or until the supervisor gives
    up (:meth:`Supervisor.fail`: returns 1), then stop the workers. ``received``: from
    :func:`stop_on_signals` called earlier (a signal may already have come)."""
    early = received if received is not None else []
    received, previous = stop_on_signals(supervisor)
    received[:0] = early
    try:
        while not supervisor.stop_event.wait(poll_s):
            pass
        if received:
            log.info("received %s; shutting down", signal.Signals(received[0]).name)
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
    supervisor.stop()
    return 0 if supervisor.failure is None else 1


def setup_logging(level: str) -> None:
    """One line per message, local time first: what a venue technician reads on a console."""
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        datefmt="%H:%M:%S",
    )
