"""Claimed tiles are recognised on every seat from the detector's image-axis boxes."""

from __future__ import annotations

import pytest

from engine.tiles import RelativeSeat, Tile
from vision.detector import CANVAS, Detection
from vision.layout import MeldSpec, TableSpec, layout
from vision.reader import table_detections
from vision.stabiliser import Stabiliser


def _boxes(spec: TableSpec) -> list[Detection]:
    """What a perfect detector reports: axis-aligned canvas boxes around each drawn tile."""
    found = []
    for spot in layout(spec):
        corners = spot.corners() * CANVAS
        x1, y1 = corners.min(axis=0)
        x2, y2 = corners.max(axis=0)
        found.append(Detection(spot.name, (x1, y1, x2, y2), 0.95, spot.orientation))
    return found


@pytest.mark.parametrize("seat", range(4))
def test_melds_are_read_on_every_seat(seat: int) -> None:
    spec = TableSpec()
    spec.melds[seat] = [MeldSpec(["W", "W", "W"], 0), MeldSpec(["3s", "4s", "5s"], 2)]
    spec.revealed[seat] = ["1m", "2m", "3m", "9p"]
    observed = Stabiliser(confirm_frames=1).update(table_detections(_boxes(spec))).seats[seat]
    sources = {tuple(str(t) for t in m.tiles): m.source for m in observed.melds}
    assert sources == {("W", "W", "W"): RelativeSeat.UPPER, ("3s", "4s", "5s"): RelativeSeat.LOWER}
    assert observed.revealed == tuple(Tile.parse(t) for t in ("1m", "2m", "3m", "9p"))
