"""Tilesight application: configuration, CLI and service wiring around engine, vision, devices."""

__version__ = "0.1.0"
