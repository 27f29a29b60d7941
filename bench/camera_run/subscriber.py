"""The subscriber: every event of the bench's table, public and referee-only, with the time it
arrived (the same clock as the camera stream's)."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from bench.camera_run import TABLE, TOURNAMENT, Event


class Subscriber:
    """Every event of the table (public and referee-only), with its arrival time."""

    def __init__(self, url: str) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        from tilesight.config import parse_mqtt_url

        self.endpoint = parse_mqtt_url(url)
        self.received: list[tuple[float, str, Event]] = []
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id="bench-camera-run", protocol=mqtt.MQTTv5
        )
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *_: self._ready.set()

    def _on_message(self, _client: Any, _userdata: Any, message: Any) -> None:
        arrived = time.monotonic()
        with self._lock:
            self.received.append((arrived, message.topic, json.loads(message.payload)))

    def __enter__(self) -> Subscriber:
        base = f"tilesight/v1/{TOURNAMENT}/{TABLE}"
        self.client.connect(self.endpoint.host, self.endpoint.port)
        self.client.loop_start()
        for topic in (f"{base}/events/#", f"{base}/private/events/#"):
            self._ready.clear()
            self.client.subscribe(topic, qos=1)
            if not self._ready.wait(10):
                raise TimeoutError(f"no SUBACK for {topic}")
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def events(self) -> list[tuple[float, str, Event]]:
        with self._lock:
            return list(self.received)

    def hand_ended(self, number: int) -> bool:
        return any(
            e["type"] == "hand_ended" and e.get("hand_number") == number
            for _, _, e in self.events()
        )
