"""The driver's memory of fetched events, tagged by boot generation; callers wait on it.

A waiter for "shuffle finished" needs three answers from one place: the completion event (after
the Accepted counter, same boot), a fault event (the action failed), or a new generation (the
table reset, so the action is gone). Counters are compared with serial-number arithmetic.
"""

from __future__ import annotations

import collections
import contextlib
import threading
import time
from collections.abc import Iterable, Iterator

from devices import device_events as ev
from devices.notices import DeviceResetError, TableFaultError, TableTimeoutError


class EventLog:
    def __init__(self, maxlen: int = 1024) -> None:
        self._cond = threading.Condition()
        self._records: collections.deque[tuple[int, ev.EventRecord]] = collections.deque(
            maxlen=maxlen
        )
        self.generation = 0  # increments at each detected device reset
        self.waiters = 0  # callers blocked in a wait: the poller polls faster meanwhile

    def extend(self, records: Iterable[ev.EventRecord]) -> None:
        with self._cond:
            self._records.extend((self.generation, record) for record in records)
            self._cond.notify_all()

    def new_generation(self) -> None:
        with self._cond:
            self.generation += 1
            self._cond.notify_all()

    def wait_done(
        self,
        *,
        generation: int,
        after: int,
        done: type[ev.EventBody],
        deadline: float,
        what: str,
        kick: threading.Event,
    ) -> ev.EventRecord:
        """The first ``done`` event after counter ``after`` in ``generation``; raises on a fault,
        a reset or the deadline."""
        with self._waiting(kick):
            while True:
                if self.generation != generation:
                    raise DeviceResetError(f"the table reset during {what}")
                for gen, record in self._records:
                    if gen != generation or not ev.counter_after(record.counter, after):
                        continue
                    if isinstance(record.body, done):
                        return record
                    if isinstance(record.body, ev.Fault):
                        raise TableFaultError(record.body)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TableTimeoutError(f"{what} did not finish in time")
                self._cond.wait(remaining)

    def wait_new_generation(self, generation: int, deadline: float, kick: threading.Event) -> None:
        with self._waiting(kick):
            while self.generation == generation:
                if not self._cond.wait(deadline - time.monotonic()):
                    raise TableTimeoutError("the table did not come back after RESET")

    @contextlib.contextmanager
    def _waiting(self, kick: threading.Event) -> Iterator[None]:
        """Hold the condition as a counted waiter, so the poller polls faster meanwhile."""
        with self._cond:
            self.waiters += 1
            kick.set()  # wake the poller now that it will see a waiter
            try:
                yield
            finally:
                self.waiters -= 1
