"""Fixtures: an in-process emulator on a real pty, and a notice recorder to wait on."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest

from devices.driver import Notice
from devices.emulator import Emulator


class Recorder:
    """Collects driver notices; tests wait on conditions instead of sleeping."""

    def __init__(self) -> None:
        self.notices: list[Notice] = []
        self._cond = threading.Condition()

    def __call__(self, notice: Notice) -> None:
        with self._cond:
            self.notices.append(notice)
            self._cond.notify_all()

    def wait_for(self, predicate: Callable[[Notice], bool], timeout: float = 10.0) -> Notice:
        with self._cond:
            found: list[Notice] = []

            def seen() -> bool:
                found[:] = [n for n in self.notices if predicate(n)]
                return bool(found)

            assert self._cond.wait_for(seen, timeout), f"no matching notice in {self.notices}"
            return found[0]


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def make_emulator() -> Iterator[Callable[..., Emulator]]:
    started: list[Emulator] = []

    def make(**kwargs: object) -> Emulator:
        emulator = Emulator(**kwargs)  # type: ignore[arg-type]
        started.append(emulator)
        return emulator

    yield make
    for emulator in started:
        emulator.stop()
