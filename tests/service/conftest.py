"""Fixtures for the service tests: a real Mosquitto on a free port, a scripted engine."""

from __future__ import annotations

import dataclasses
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.actions import Action, CommandRecord
from engine.events import Event, make_event_id
from engine.table.events import CommandHandled, HandEnded, HandStarted, TileDiscarded
from engine.tiles import Tile, Wind
from tilesight.demo.broker import MosquittoBroker, find_mosquitto
from tilesight.demo.minibroker import EmbeddedBroker

REPO_ROOT = Path(__file__).resolve().parents[2]
#: The installed console script (``python -m tilesight.cli`` would load the CLI module twice).
_SCRIPT = Path(sys.executable).with_name("tilesight")
TILESIGHT = str(_SCRIPT) if _SCRIPT.exists() else shutil.which("tilesight") or "tilesight"


@pytest.fixture
def embedded() -> Iterator[EmbeddedBroker]:
    """The embedded broker (tilesight.demo.minibroker) on a free port."""
    with EmbeddedBroker() as running:
        yield running


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

    Every third action ends a hand in which seat ``hand % 4`` wins 8 from each other seat; a
    :class:`CommandRecord` yields its ``command_handled`` event, as the real table does.
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
        if isinstance(action, CommandRecord):
            fields = dataclasses.asdict(action)
            fields.pop("at")
            return [self._event(CommandHandled, **fields)]
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
        return {"hand": {"number": self.hand, "turn": 0}, "scores": list(self.scores)}

    def private_snapshot(self) -> dict[str, Any]:
        return {"hand": self.hand}


class Probe:
    """A plain MQTT 5 client for tests: collects messages, publishes with properties."""

    def __init__(
        self, url: str, client_id: str, username: str | None = None, password: str | None = None
    ) -> None:
        import threading

        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        from tilesight.config import parse_mqtt_url

        self.endpoint = parse_mqtt_url(url)
        self.messages: list[Any] = []
        self.acks: dict[int, Any] = {}
        self.connected = threading.Event()
        self._lock = threading.Lock()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5
        )
        if username:
            self.client.username_pw_set(username, password)
        self.client.on_connect = lambda *a: self.connected.set()
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish

    def _on_message(self, _c: Any, _u: Any, msg: Any) -> None:
        with self._lock:
            self.messages.append(msg)

    def _on_publish(self, _c: Any, _u: Any, mid: int, rc: Any, _p: Any) -> None:
        with self._lock:
            self.acks[mid] = rc

    def __enter__(self) -> Probe:
        self.client.connect(self.endpoint.host, self.endpoint.port)
        self.client.loop_start()
        wait_until(self.connected.is_set, 5, "probe connection")
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def subscribe(self, topic: str) -> None:
        import threading

        done = threading.Event()
        self.client.on_subscribe = lambda *a: done.set()
        self.client.subscribe(topic, qos=1)
        wait_until(done.is_set, 5, f"subscription to {topic}")

    def on(self, topic_suffix: str) -> list[Any]:
        with self._lock:
            return [m for m in self.messages if m.topic.endswith(topic_suffix)]

    def command(
        self,
        topic: str,
        payload: str | bytes,
        *,
        reply_to: str | None = None,
        correlation: bytes = b"c1",
        expiry: int | None = None,
        account: str | None = None,
    ) -> Any:
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        props = Properties(PacketTypes.PUBLISH)
        if reply_to:
            props.ResponseTopic = reply_to
            props.CorrelationData = correlation
        if expiry is not None:
            props.MessageExpiryInterval = expiry
        if account is not None:
            props.UserProperty = ("account", account)
        info = self.client.publish(topic, payload, qos=1, properties=props)
        wait_until(lambda: info.mid in self.acks, 5, "PUBACK")
        return self.acks[info.mid]


def make_service(
    broker_url: str,
    table: str = "T1",
    *,
    outbox: Any = None,
    tournament: str = "cup",
    **kwargs: Any,
) -> Any:
    from tilesight.config import parse_mqtt_url
    from tilesight.outbox import Outbox
    from tilesight.service import TableService
    from tilesight.topics import TableTopics

    return TableService(
        topics=TableTopics(tournament, table),
        engine=kwargs.pop("engine", None) or ScriptedEngine(table),
        outbox=outbox or Outbox(":memory:"),
        endpoint=parse_mqtt_url(broker_url),
        will_delay_s=kwargs.pop("will_delay_s", 0),
        **kwargs,
    )
