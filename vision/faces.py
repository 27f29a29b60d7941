"""What a box shows: a tile's face, an engine :class:`~engine.tiles.Tile`, or its back.

The camera path carries a :data:`Face` from the detector to the stabiliser's tracks (its votes
count faces) and the hand-row reader, which hands the tiles on as they are: a face is the
engine's own ``Tile`` value, never text parsed again later. :func:`face` turns a classifier
class name (engine notation, or ``"back"``) into one; ``str()`` gives the notation back for
JSON and printing, so ``str(face(name)) == name`` for every class name.

>>> face("5p"), face("back") is BACK
(Tile('5p'), True)
>>> str(BACK), is_flower(face("3f")), is_flower(BACK)
('back', True, False)
"""

from __future__ import annotations

import enum
from typing import Final, TypeAlias, TypeGuard

from engine.tiles import Tile


class Back(enum.Enum):
    """A tile's back: no face shows (a wall, a concealed kong's face-down tiles)."""

    BACK = "back"

    def __str__(self) -> str:
        return self.value


BACK: Final = Back.BACK
Face: TypeAlias = Tile | Back


def face(name: str) -> Face:
    """A classifier class name as a face: ``"back"`` or a tile in engine notation."""
    return BACK if name == BACK.value else Tile.parse(name)


def is_flower(seen: Face) -> TypeGuard[Tile]:
    return seen is not BACK and seen.is_flower
