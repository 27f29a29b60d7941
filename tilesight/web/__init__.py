"""The broadcast overlay and referee console: static pages fed over MQTT-over-WebSockets
(see docs/overlay.md); ``server`` serves them, ``tiles`` draws the tile sprite."""
