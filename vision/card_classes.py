"""The card reader's classes: the 54 faces of a pack (engine notation) each upright or upside
down in a crop, and ``none`` (a candidate that is no corner index).

>>> len(FACES), OUTPUTS, output_of("7h", flipped=True), class_of(output_of("RJ")), class_of(NONE)
(54, 109, 35, ('RJ', False), None)
"""

from __future__ import annotations

RANKS = ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2")
SUITS = ("s", "h", "d", "c")
#: The faces of one pack: ranks with suits, then the small and the big joker.
FACES: tuple[str, ...] = (*(r + s for r in RANKS for s in SUITS), "BJ", "RJ")
OUTPUTS = 2 * len(FACES) + 1
NONE = OUTPUTS - 1
_INDEX = {code: i for i, code in enumerate(FACES)}


def output_of(code: str, flipped: bool = False) -> int:
    """The network output for ``code`` seen upright (or upside down when ``flipped``)."""
    return 2 * _INDEX[code] + int(flipped)


def class_of(output: int) -> tuple[str, bool] | None:
    """``(code, flipped)`` of an output, None for :data:`NONE`."""
    if output == NONE:
        return None
    return FACES[output // 2], bool(output % 2)
