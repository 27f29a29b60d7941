"""Qujing's two face-up tail tiles and where a kong replacement may come from (digest §2).

Positions are counted from the end of the wall: offset 0 is the very last tile, 1 the one before
it. The last ``revealed_tail_tiles`` tiles are face up; taking one makes the next tile the new
face-up one, so "the revealed tiles" is always simply the last ``k`` tiles left.

Readings (``QujingOptions.tail_reading``):

* ``any-kong`` (default): any kong takes either face-up tile as its replacement, never a face-down
  one.
* ``bloom-only``: a face-up tile may be taken only when it completes the konger's hand (kong
  bloom); otherwise the replacement is the face-down tile just in front of the face-up ones.

Normal draws from the head may reach the face-up tiles at the end of the wall (§2, [I]).

>>> from engine.notation import parse_tiles
>>> tail = QujingTail.from_wall(parse_tiles("1m2m3m4m"))
>>> [str(t) for t in tail.revealed]
['3m', '4m']
>>> tile, rest = tail.take_replacement(1, completes_hand=False)
>>> str(tile), [str(t) for t in rest.revealed]
('3m', ['2m', '4m'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.qujing.options import QujingOptions
from engine.tiles import Tile


class TailError(ValueError):
    """A replacement taken from a place the Qujing tail rule forbids."""


def replacement_offsets(
    remaining: int, *, completes_hand: bool, options: QujingOptions
) -> tuple[int, ...]:
    """Offsets from the wall's end a kong replacement may be taken from, best guess first.

    ``completes_hand`` says whether the chosen tile would give the konger a win (only needed for
    the ``bloom-only`` reading, where a table in camera mode passes what the player declares).
    """
    if remaining <= 0:
        return ()
    k = min(options.revealed_tail_tiles, remaining)
    face_up = tuple(range(k))
    if options.tail_reading == "any-kong":
        return face_up
    hidden_front = (k,) if remaining > k else ()
    if completes_hand:
        return face_up + hidden_front
    return hidden_front or face_up


def replacement_problem(
    offset: int, remaining: int, *, completes_hand: bool, options: QujingOptions
) -> str | None:
    """Why a replacement from ``offset`` (0 = last tile) breaks the tail rule; None when legal."""
    allowed = replacement_offsets(remaining, completes_hand=completes_hand, options=options)
    if offset in allowed:
        return None
    if not allowed:
        return "no tile is left in the wall for a kong replacement"
    where = ", ".join(str(a) for a in allowed)
    return (
        f"kong replacement from tail offset {offset} is not allowed under the"
        f" {options.tail_reading!r} reading (allowed offsets from the end: {where})"
    )


@dataclass(frozen=True, slots=True)
class QujingTail:
    """The undrawn wall, head first, with what is known of each tile (None: face down, unknown)."""

    tiles: tuple[Tile | None, ...]
    options: QujingOptions = field(default_factory=QujingOptions)

    @classmethod
    def from_wall(
        cls, tiles: Sequence[Tile | None], options: QujingOptions | None = None
    ) -> QujingTail:
        return cls(tuple(tiles), options or QujingOptions())

    @property
    def remaining(self) -> int:
        return len(self.tiles)

    @property
    def revealed(self) -> tuple[Tile | None, ...]:
        """The face-up tiles, in wall order (the last one is the very last tile)."""
        k = min(self.options.revealed_tail_tiles, self.remaining)
        return self.tiles[self.remaining - k :]

    def draw(self) -> tuple[Tile | None, QujingTail]:
        """A normal draw from the head."""
        if not self.tiles:
            raise TailError("the wall is empty: nothing to draw")
        return self.tiles[0], replace(self, tiles=self.tiles[1:])

    def take_replacement(
        self, offset: int, *, completes_hand: bool
    ) -> tuple[Tile | None, QujingTail]:
        """Take the replacement ``offset`` tiles from the end; raise when the rule forbids it."""
        problem = replacement_problem(
            offset, self.remaining, completes_hand=completes_hand, options=self.options
        )
        if problem:
            raise TailError(problem)
        index = self.remaining - 1 - offset
        return self.tiles[index], replace(self, tiles=self.tiles[:index] + self.tiles[index + 1 :])
