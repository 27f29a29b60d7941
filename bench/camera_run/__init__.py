"""The parts of ``bench/bench_camera_run.py`` (camera-only tables through the real ``tilesight
run``), one room each: ``plan`` (the simulated hands as a camera sees them, rendered), ``stream``
(the live MJPEG camera), ``subscriber`` (every event, with its arrival), ``runner`` (one
procedure's hands through one process, killed and restarted), ``judge`` (each hand and the whole
stream checked against the truth), ``report`` (the printed lines) and ``limiter`` (the camera
worker's frame limiter measured). The names they share are here.
"""

from __future__ import annotations

from typing import Any

SIZE = (1920, 1080)  # the demo's design point: river tiles ~40 px
TOURNAMENT, TABLE = "bench", "T01"
Event = dict[str, Any]
