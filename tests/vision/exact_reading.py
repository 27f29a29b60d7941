"""Exact detections for reader tests (no model): the boxes a perfect detector reports for a
drawn table, and a :class:`~vision.reader.TableReader` fed a table's spots frame after frame,
its meld, play (discards and melds) or revealed-hand events picked out (in their JSON form)."""

from __future__ import annotations

from vision.calibration import Calibration
from vision.detector import Detection
from vision.detector_backends import CANVAS
from vision.faces import face
from vision.layout import TableSpec, layout
from vision.observed import to_json
from vision.reader import TableReader
from vision.stabiliser import TableDetection

UNIT = Calibration(((0.0, 0.0), (1024.0, 0.0), (1024.0, 1024.0), (0.0, 1024.0)))


def perfect_boxes(spec: TableSpec) -> list[Detection]:
    """What a perfect detector reports: axis-aligned canvas boxes around each drawn tile."""
    found = []
    for spot in layout(spec):
        corners = spot.corners() * CANVAS
        x1, y1 = corners.min(axis=0)
        x2, y2 = corners.max(axis=0)
        found.append(Detection(face(spot.name), (x1, y1, x2, y2), 0.95, spot.orientation))
    return found


def meld_events(reader: TableReader, spec: TableSpec, frames: int = 6) -> list[dict[str, object]]:
    """The meld events (``meld``, ``meld_unreadable``) of ``frames`` frames of ``spec``."""
    spots = [TableDetection(face(s.name), *s.centre, sideways=s.sideways) for s in layout(spec)]
    events: list[dict[str, object]] = []
    for _ in range(frames):
        events += map(to_json, reader.process_table(spots, empty_at=lambda x, y: True))
    return [e for e in events if str(e["type"]).startswith("meld")]


def play_events(reader: TableReader, spec: TableSpec, frames: int = 4) -> list[tuple[object, ...]]:
    """(type, seat, tile or kind, inferred) of the discards and melds of ``frames`` frames."""
    spots = [TableDetection(face(s.name), *s.centre, sideways=s.sideways) for s in layout(spec)]
    events: list[dict[str, object]] = []
    for _ in range(frames):
        events += map(to_json, reader.process_table(spots, empty_at=lambda x, y: True))
    return [
        (e["type"], e["seat"], e.get("tile", e.get("kind")), bool(e.get("inferred")))
        for e in events
        if e["type"] in ("discard", "meld")
    ]


def revealed_hands(reader: TableReader, spec: TableSpec) -> list[object]:
    """The tiles of each ``hand_revealed`` event of four frames of ``spec``."""
    spots = [TableDetection(face(s.name), *s.centre, sideways=s.sideways) for s in layout(spec)]
    events: list[dict[str, object]] = []
    for _ in range(4):
        events += map(to_json, reader.process_table(spots, empty_at=lambda x, y: True))
    return [e["tiles"] for e in events if e["type"] == "hand_revealed"]
