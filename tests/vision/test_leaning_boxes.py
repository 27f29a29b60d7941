"""Two discards side by side stay two tiles when a box leans toward its neighbour.

National seed 1 hand 1 (``bench/bench_camera_run.py``): seat 1's river ran P, 6p, 9s; once its
6s lay beside the 9s, the detector put the 9s box a fifth of a tile nearer the 6s for as long as
the 6s lay there. The 9s track's place (the median of its boxes) followed, the two tracks came
closer than ``SAME_TILE`` and read as one tile: the 6s, read every frame, was dropped
(``river_taken``) and came back only when the winner laid its hand down, as a discard seat 1
never made, so the win on seat 2's discard was scored self-drawn.
"""

from __future__ import annotations

from engine.tiles import Tile
from vision.calibration import Calibration
from vision.faces import face
from vision.observed import to_json
from vision.reader import TableReader
from vision.stabiliser import Stabiliser, TableDetection

UNIT = Calibration(((0.0, 0.0), (1024.0, 0.0), (1024.0, 1024.0), (0.0, 1024.0)))

# the boxes' centres as read (table units), seat 1's river running up the image
BEFORE = [("P", 0.6383, 0.5841, 0.73), ("6p", 0.6370, 0.5494, 0.78), ("9s", 0.6385, 0.5180, 0.74)]
AFTER = [
    ("P", 0.6377, 0.5815, 0.76),
    ("6p", 0.6370, 0.5481, 0.79),
    ("9s", 0.6382, 0.5115, 0.71),  # 0.2 tile widths nearer the 6s than before it lay there
    ("6s", 0.6383, 0.4863, 0.74),
]


def _seen(boxes: list[tuple[str, float, float, float]]) -> list[TableDetection]:
    return [TableDetection(face(name), x, y, False, conf) for name, x, y, conf in boxes]


def _tiles(names: list[str]) -> tuple[Tile, ...]:
    return tuple(Tile.parse(name) for name in names)


def test_a_box_leaning_toward_a_new_neighbour_does_not_drop_it() -> None:
    stabiliser = Stabiliser()
    for _ in range(20):
        stabiliser.update(_seen(BEFORE))
    for frame in range(30):
        observed = stabiliser.update(_seen(AFTER))
        if frame >= 2:
            assert observed.seats[1].river == _tiles(["P", "6p", "9s", "6s"]), frame


def test_a_box_leaning_toward_a_new_neighbour_takes_no_discard() -> None:
    reader = TableReader(None, UNIT, Stabiliser())
    for _ in range(20):
        reader.process_table(_seen(BEFORE), empty_at=lambda x, y: False)
    events: list[dict[str, object]] = []
    for _ in range(30):
        events += map(to_json, reader.process_table(_seen(AFTER), empty_at=lambda x, y: False))
    assert [(e["type"], e["seat"], e["tile"]) for e in events] == [("discard", 1, "6s")]


def test_a_stray_box_beside_a_tile_is_still_not_a_second_tile() -> None:
    """The exception is for two tiles in two slots: a box closer to a tile than a tile's
    neighbour can lie, even one of its own, is that tile seen twice."""
    stabiliser = Stabiliser()
    stray = [*BEFORE, ("9s", 0.6385, 0.5180 - 0.018, 0.7)]  # 0.56 tile widths off the 9s
    for _ in range(20):
        observed = stabiliser.update(_seen(stray))
    assert observed.seats[1].river == _tiles(["P", "6p", "9s"])


def test_two_touching_tiles_of_a_kind_in_a_laid_down_hand_stay_two() -> None:
    """National seed 4 hand 2 through tilesight run: the winner's 7s 7s lay side by side in its
    hand row, their boxes leaning together, and read as one 7s: the hand one tile short, its
    win refused (the river exemption above now covers hand rows too)."""
    from vision.layout import TILE_W, TableSpec, layout

    spec = TableSpec()
    spec.revealed[3] = ["5s", "6s", "6s", "7s", "7s", "C", "C", "C", "F", "F", "5s"]
    spots = [s for s in layout(spec) if s.name != "back"]
    sevens = [i for i, s in enumerate(spots) if s.name == "7s"]
    (ax, ay), (bx, by) = spots[sevens[0]].centre, spots[sevens[1]].centre
    lean = 0.12 * TILE_W / (((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5)  # each toward the other
    moved = {sevens[0]: (ax + (bx - ax) * lean, ay + (by - ay) * lean)}
    moved[sevens[1]] = (bx - (bx - ax) * lean, by - (by - ay) * lean)
    seen = [
        TableDetection(face(s.name), *moved.get(i, s.centre), s.sideways, 0.8)
        for i, s in enumerate(spots)
    ]
    stabiliser = Stabiliser()
    for _ in range(12):
        observed = stabiliser.update(seen)
    assert observed.seats[3].revealed.count(Tile.parse("7s")) == 2
