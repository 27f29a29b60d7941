"""A small MQTT 5 broker for ``tilesight demo`` on machines without Mosquitto (demo only)."""

from tilesight.demo.minibroker.embedded import EmbeddedBroker

__all__ = ["EmbeddedBroker"]
