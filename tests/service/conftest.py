"""Fixtures for the service tests: a real Mosquitto on a free port, a scripted engine."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine.actions import Action
from engine.events import Event, make_event_id
from engine.table_events import HandEnded, HandStarted, TileDiscarded
from engine.tiles import Tile, Wind
from tilesight.broker import MosquittoBroker, find_mosquitto


@pytest.fixture
def broker() -> Iterator[MosquittoBroker]:
    if find_mosquitto() is None:
        pytest.skip("mosquitto is not installed")
    with MosquittoBroker() as running:
        yield running


def wait_until(predicate: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        time.sleep(0.02)


class ScriptedEngine:
    """A stand-in for the rules engine in transport tests: each action yields fixed events.

    Every third action ends a hand in which seat ``hand % 4`` wins 8 from each other seat.
    """

    def __init__(self, table: str, epoch: int = 1) -> None:
        self.table = table
        self.epoch = epoch
        self.seq = 0
        self.hand = 0
        self.actions = 0
        self.scores = [0, 0, 0, 0]

    @property
    def position(self) -> tuple[int, int]:
        return self.epoch, self.seq

    def _event(self, cls: type[Event], **fields: Any) -> Event:
        self.seq += 1
        return cls(
            event_id=make_event_id(self.seq, self.seq.to_bytes(10, "big")),
            table=self.table,
            epoch=self.epoch,
            seq=self.seq,
            timestamp=float(self.seq),
            **fields,
        )

    def apply(self, action: Action) -> list[Event]:
        self.actions += 1
        step = self.actions % 3
        if step == 1:
            self.hand += 1
            return [
                self._event(
                    HandStarted,
                    hand_number=self.hand,
                    procedure="wsom",
                    dealer=0,
                    prevalent_wind=Wind.EAST,
                )
            ]
        if step == 2:
            return [
                self._event(TileDiscarded, seat=self.hand % 4, tile=Tile.parse("5m"), row=0, col=0)
            ]
        winner = self.hand % 4
        deltas = tuple(24 if s == winner else -8 for s in range(4))
        self.scores = [a + b for a, b in zip(self.scores, deltas, strict=True)]
        return [
            self._event(
                HandEnded,
                hand_number=self.hand,
                result="win",
                winners=(winner,),
                deltas=deltas,
                scores=tuple(self.scores),
            )
        ]

    def snapshot(self) -> dict[str, Any]:
        return {"hand": self.hand, "scores": list(self.scores)}

    def private_snapshot(self) -> dict[str, Any]:
        return {"hand": self.hand}
