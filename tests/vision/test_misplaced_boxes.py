"""A box misplaced for a few frames moves no tile: a confirmed tile lies still.

National seed 1 hand 2 (``tilesight demo --camera-only``): as seat 0 discarded, the detector put
seat 1's 7s box a third of a tile up, over the C beside it, for three frames (with a stray box
between the 7s and the F below it). The 7s track followed the box until the two tracks were
closer than one tile apart, so they read as one tile: the C was dropped (``river_taken``) and,
the box back in place, reported again as a discard seat 1 never made, which the engine took as
seat 1 playing out of turn.
"""

from __future__ import annotations

from engine.tiles import Tile
from vision.calibration import Calibration
from vision.faces import face
from vision.layout import TILE_W, river_slot_centre
from vision.observed import Observed, to_json
from vision.reader import TableReader
from vision.stabiliser import Stabiliser, TableDetection

UNIT = Calibration(((0.0, 0.0), (1024.0, 0.0), (1024.0, 1024.0), (0.0, 1024.0)))
RIVER = ["S", "W", "2s", "F", "7s", "C"]  # seat 1's river, the C its last discard


def _river(count: int) -> list[TableDetection]:
    out = []
    for i, name in enumerate(RIVER[:count]):
        x, y = river_slot_centre(1, *divmod(i, 6))
        out.append(TableDetection(face(name), x, y, sideways=False, confidence=0.9))
    return out


def _misplaced() -> list[TableDetection]:
    """The frames as read (canvas boxes of the demo's frames 113-115, in table units): seat 1's
    river runs up the image, so a box moved toward the next column has a smaller y."""
    seen = _river(6)
    sevens, red, flower = seen[4], seen[5], seen[3]
    seen[4] = TableDetection(face("7s"), sevens.x, sevens.y - 0.39 * TILE_W, False, 0.46)
    seen[5] = TableDetection(face("C"), red.x, red.y + 0.13 * TILE_W, False, 0.78)
    stray_y = (sevens.y + flower.y) / 2 + 0.1 * TILE_W  # across the 7s and the F
    return [*seen, TableDetection(face("F"), flower.x, stray_y, False, 0.6)]


def _tiles(names: list[str]) -> tuple[Tile, ...]:
    return tuple(Tile.parse(name) for name in names)


def test_a_box_misplaced_for_a_few_frames_does_not_merge_two_river_tiles() -> None:
    stabiliser = Stabiliser()
    for _ in range(12):  # five discards long on the table
        stabiliser.update(_river(5))
    for _ in range(6):  # then the C
        observed = stabiliser.update(_river(6))
    assert observed.seats[1].river == _tiles(RIVER)
    for frame in range(3):
        observed = stabiliser.update(_misplaced())
        assert observed.seats[1].river == _tiles(RIVER), frame
    for frame in range(10):
        observed = stabiliser.update(_river(6))
        assert observed.seats[1].river == _tiles(RIVER), frame


def test_a_box_misplaced_for_a_few_frames_invents_no_discard() -> None:
    reader = TableReader(None, UNIT, Stabiliser())
    events: list[Observed] = []
    for _ in range(12):
        events += reader.process_table(_river(5), empty_at=lambda x, y: False)
    for _ in range(16):  # the C, out of turn here: it waits for the reader's hold_frames
        events += reader.process_table(_river(6), empty_at=lambda x, y: False)
    last = to_json(events[-1])
    assert (last["type"], last["seat"], last["tile"]) == ("discard", 1, "C")
    later: list[Observed] = []
    for _ in range(3):
        later += reader.process_table(_misplaced(), empty_at=lambda x, y: False)
    for _ in range(10):
        later += reader.process_table(_river(6), empty_at=lambda x, y: False)
    assert later == []
