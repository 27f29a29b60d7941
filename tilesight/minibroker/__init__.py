"""A small MQTT 5 broker for ``tilesight demo`` on machines without Mosquitto (demo only)."""

from tilesight.minibroker.embedded import EmbeddedBroker

__all__ = ["EmbeddedBroker"]
