"""Test clients for the embedded broker: paho (as the service uses it) and a raw socket client.

The raw client speaks through the broker's own codec, which lets a test do what paho will not:
drop the socket without DISCONNECT, hold back a PUBACK, or send a malformed packet.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from tilesight.demo.minibroker.codec import SESSION_EXPIRY, Reader
from tilesight.demo.minibroker.packets import (
    CONNACK,
    Connect,
    Packet,
    Publish,
    decode_packet,
    encode_packet,
)


class Client:
    """A paho MQTT 5 client that records what it receives."""

    def __init__(self, port: int, client_id: str, **connect: Any) -> None:
        self.messages: list[mqtt.MQTTMessage] = []
        self._lock = threading.Lock()
        self.connected = threading.Event()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5
        )
        self.client.on_connect = lambda *a: self.connected.set()
        self.client.on_message = self._on_message
        self.port = port
        self.connect_args = connect

    def _on_message(self, _c: Any, _u: Any, msg: mqtt.MQTTMessage) -> None:
        with self._lock:
            self.messages.append(msg)

    def __enter__(self) -> Client:
        self.client.connect("127.0.0.1", self.port, **self.connect_args)
        self.client.loop_start()
        wait_until(self.connected.is_set, "connection")
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def subscribe(self, topic_filter: str, qos: int = 1) -> None:
        done = threading.Event()
        self.client.on_subscribe = lambda *a: done.set()
        self.client.subscribe(topic_filter, qos=qos)
        wait_until(done.is_set, f"SUBACK for {topic_filter}")

    def publish(self, topic: str, payload: bytes | str, qos: int = 1, **kw: Any) -> None:
        info = self.client.publish(topic, payload, qos=qos, **kw)
        info.wait_for_publish(timeout=5)
        assert info.is_published(), f"no PUBACK for {topic}"

    def received(self) -> list[mqtt.MQTTMessage]:
        with self._lock:
            return list(self.messages)

    def payloads(self) -> list[bytes]:
        return [bytes(m.payload) for m in self.received()]

    def wait_for(self, payload: bytes) -> mqtt.MQTTMessage:
        wait_until(lambda: payload in self.payloads(), f"message {payload!r}")
        return next(m for m in self.received() if bytes(m.payload) == payload)


def publish_properties(**values: Any) -> Properties:
    props = Properties(PacketTypes.PUBLISH)  # type: ignore[no-untyped-call]
    for name, value in values.items():
        setattr(props, name, value)
    return props


class RawClient:
    """A blocking socket that sends and reads packets through the minibroker codec."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.buffer = b""

    def send(self, packet: Packet | bytes) -> None:
        self.sock.sendall(packet if isinstance(packet, bytes) else encode_packet(packet))

    def connect(self, packet: Connect) -> tuple[bool, int]:
        """Send CONNECT; returns (session present, reason code) from the CONNACK."""
        self.send(packet)
        first, body = self.read_raw()
        assert first >> 4 == CONNACK, f"expected CONNACK, got packet type {first >> 4}"
        return bool(body[0] & 1), body[1]

    def _fill(self, count: int) -> None:
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed by the broker")
            self.buffer += chunk

    def read_raw(self) -> tuple[int, bytes]:
        self._fill(2)
        length, shift, index = 0, 0, 1
        while True:
            self._fill(index + 1)
            digit = self.buffer[index]
            length |= (digit & 0x7F) << shift
            index += 1
            if not digit & 0x80:
                break
            shift += 7
        self._fill(index + length)
        first, body = self.buffer[0], self.buffer[index : index + length]
        self.buffer = self.buffer[index + length :]
        return first, body

    def read(self) -> Packet:
        first, body = self.read_raw()
        return decode_packet(first, body)

    def read_publish(self) -> Publish:
        packet = self.read()
        assert isinstance(packet, Publish), packet
        return packet

    def closed_by_broker(self) -> bool:
        """True when the broker closes the socket (read until EOF, within the socket timeout)."""
        try:
            while self.sock.recv(65536):
                pass
        except TimeoutError:
            return False
        except ConnectionError:
            return True
        return True

    def drop(self) -> None:
        """Close the socket without DISCONNECT, as a crash or a pulled cable would."""
        self.sock.close()


def suback_codes(body: bytes) -> bytes:
    reader = Reader(body, "SUBACK")
    reader.u16()
    reader.properties()
    return reader.rest()


def wait_until(predicate: Any, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.01)


def persistent(client_id: str, **kw: object) -> Connect:
    """A CONNECT asking for a session that outlives the connection (60 s), not a clean start."""
    return Connect(client_id, clean_start=False, keepalive=30,
                   properties=((SESSION_EXPIRY, 60),), **kw)  # type: ignore[arg-type]  # fmt: skip
