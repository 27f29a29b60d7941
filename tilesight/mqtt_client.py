"""One configured paho MQTT 5 client, shared by the table link, score capture and tools."""

from __future__ import annotations

import contextlib
import socket
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from tilesight.config import MqttEndpoint, TlsConfig


def make_client(
    endpoint: MqttEndpoint,
    client_id: str,
    *,
    tls: TlsConfig | None = None,
    max_inflight: int = 100,
) -> mqtt.Client:
    """A configured (not yet connected) MQTT 5 client; shared by the table link and consumers."""
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        protocol=mqtt.MQTTv5,
        transport="websockets" if endpoint.websockets else "tcp",
    )
    if endpoint.websockets:
        client.ws_set_options(path=endpoint.path)
    if endpoint.username:
        client.username_pw_set(endpoint.username, endpoint.password)
    if endpoint.tls or tls is not None:
        tls = tls or TlsConfig()
        client.tls_set(
            ca_certs=str(tls.ca_file) if tls.ca_file else None,
            certfile=str(tls.cert_file) if tls.cert_file else None,
            keyfile=str(tls.key_file) if tls.key_file else None,
        )
        client.tls_insecure_set(tls.insecure)
    client.on_socket_open = _no_delay
    client.reconnect_delay_set(min_delay=1, max_delay=5)
    client.max_inflight_messages_set(max_inflight)
    client.max_queued_messages_set(0)  # unlimited: the outbox bounds nothing, it loses nothing
    return client


def _no_delay(_client: mqtt.Client, _userdata: Any, sock: Any) -> None:
    """Switch Nagle off: small QoS 0 snapshots behind an event would otherwise wait for the
    broker's delayed TCP ACK (tens of ms) before the next event could leave."""
    with contextlib.suppress(OSError, AttributeError, TypeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def new_properties(packet_type: int) -> Properties:
    """paho's Properties constructor is untyped; this is the one typed door to it."""
    return Properties(packet_type)  # type: ignore[no-untyped-call]


def session_properties(expiry_s: int, max_packet: int | None = None) -> Properties:
    """CONNECT properties; ``max_packet``: the broker drops (never sends) larger messages."""
    props = new_properties(PacketTypes.CONNECT)
    props.SessionExpiryInterval = expiry_s
    if max_packet is not None:
        props.MaximumPacketSize = max_packet
    return props
