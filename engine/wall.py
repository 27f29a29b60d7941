"""The wall of one hand: dealing, head draws, tail replacements, reserved tiles and the washout.

The wall keeps its tiles as draw-order positions (0 = the first tile dealt, see
:mod:`engine.wall_geometry` for where each lies on the table). Normal draws take the lowest
remaining position (the head); kong and flower replacements take the tail stack, top tile first.
For WSOM the last 14 *remaining* tiles are reserved, so every replacement shifts the reserved block
one tile toward the head: live tiles = remaining - 14.

Tiles may be known (a record, a simulated shuffle: draws return them) or unknown (a camera: draws
return None and only counts are kept). Pure and deterministic; randomness only via a passed
``random.Random``. The tile set and the deal's positions are :mod:`engine.wall_deal`'s, the
errors :mod:`engine.wall_errors`'s (both re-exported here).

>>> from engine.procedures import WSOM
>>> wall = Wall(WSOM)
>>> _ = wall.deal()
>>> (wall.dealt, wall.live, wall.reserved)
(53, 69, 14)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.procedures import Procedure
from engine.tiles import Tile
from engine.wall_deal import DEAL_POSITIONS, deal_pairs, procedure_tiles
from engine.wall_errors import WallError, WallExhaustedError, WallMismatchError
from engine.wall_geometry import StackPosition, WallBreak, default_break, position_of

__all__ = [
    "DEAL_POSITIONS",
    "Wall",
    "WallCounts",
    "WallError",
    "WallExhaustedError",
    "WallMismatchError",
    "procedure_tiles",
]


@dataclass(frozen=True, slots=True)
class WallCounts:
    """What the wall answers at any moment, for events and overlays."""

    total: int
    dealt: int
    drawn: int
    replacements: int
    remaining: int
    live: int
    reserved: int
    next_is_last: bool
    exhausted: bool
    break_side: int | None
    break_stack: int | None


class Wall:
    """The wall of one hand under ``procedure``.

    ``tiles`` (optional) lists the wall in draw order; ``wall_break`` places it on the table
    (defaults to a neutral break for procedures with a wall model, None for ``log``).
    """

    def __init__(
        self,
        procedure: Procedure,
        *,
        wall_break: WallBreak | None = None,
        tiles: Sequence[Tile | None] | None = None,
        dealer: int = 0,
    ) -> None:
        if tiles is not None and len(tiles) != procedure.tile_count:
            raise WallError(
                f"a {procedure.name!r} wall holds {procedure.tile_count} tiles, got {len(tiles)}"
            )
        self.procedure = procedure
        self.dealer = dealer % 4
        self.wall_break = wall_break if wall_break is not None else default_break(procedure)
        self._tiles: list[Tile | None] = (
            list(tiles) if tiles is not None else [None] * procedure.tile_count
        )
        self._remaining: list[int] = list(range(procedure.tile_count))
        self.dealt = 0
        self.drawn = 0
        self.replacements = 0

    @classmethod
    def from_dice(
        cls,
        procedure: Procedure,
        rolls: Sequence[int],
        *,
        dealer: int = 0,
        tiles: Sequence[Tile | None] | None = None,
    ) -> Wall:
        """The wall as a physical table reports it: the break follows from the dice."""
        brk = WallBreak.from_dice(procedure, dealer, rolls)
        return cls(procedure, wall_break=brk, tiles=tiles, dealer=dealer)

    @classmethod
    def shuffled(cls, procedure: Procedure, rng: random.Random, *, dealer: int = 0) -> Wall:
        """A uniformly shuffled wall with rolled dice (a virtual automatic table)."""
        tiles = list(procedure_tiles(procedure))
        rng.shuffle(tiles)
        if not procedure.has_wall_model:
            return cls(procedure, tiles=tiles, dealer=dealer)
        rolls = [rng.randint(1, 6) + rng.randint(1, 6) for _ in range(procedure.rolls_needed)]
        return cls.from_dice(procedure, rolls, dealer=dealer, tiles=tiles)

    # --- counts -----------------------------------------------------------------------------
    @property
    def total(self) -> int:
        return self.procedure.tile_count

    @property
    def remaining(self) -> int:
        """Tiles still standing in the wall, reserved ones included."""
        return len(self._remaining)

    @property
    def reserved(self) -> int:
        return min(self.procedure.reserved_tiles, self.remaining)

    @property
    def live(self) -> int:
        """Tiles that may still be drawn (from the head or as replacements)."""
        return self.remaining - self.reserved

    @property
    def next_is_last(self) -> bool:
        """True when the next draw takes the sea-bottom (last live) tile."""
        return self.live == 1

    @property
    def exhausted(self) -> bool:
        """No live tile is left: whoever drew the last one must discard; a washout follows."""
        return self.live == 0

    @property
    def tiles_known(self) -> bool:
        return all(t is not None for t in self._tiles)

    def counts(self) -> WallCounts:
        return WallCounts(
            total=self.total,
            dealt=self.dealt,
            drawn=self.drawn,
            replacements=self.replacements,
            remaining=self.remaining,
            live=self.live,
            reserved=self.reserved,
            next_is_last=self.next_is_last,
            exhausted=self.exhausted,
            break_side=self.wall_break.tail_side if self.wall_break else None,
            break_stack=self.wall_break.tail_stack if self.wall_break else None,
        )

    # --- where tiles are --------------------------------------------------------------------
    def order(self) -> tuple[Tile | None, ...]:
        """The whole wall in draw order, as known."""
        return tuple(self._tiles)

    def next_draw_index(self) -> int:
        """Draw-order position of the next head draw."""
        self._need_live()
        return self._remaining[0]

    def tail_indices(self, count: int) -> tuple[int, ...]:
        """The next ``count`` replacement positions in the order they would be taken."""
        out: list[int] = []
        i = len(self._remaining) - 1
        while i >= 0 and len(out) < count:
            pos = self._remaining[i]
            top = pos - 1 if pos % 2 else None
            if (
                self.procedure.replacement_top_first
                and top is not None
                and i > 0
                and (self._remaining[i - 1] == top)
            ):
                out += [top, pos]
                i -= 2
            else:
                out.append(pos)
                i -= 1
        return tuple(out[:count])

    def remaining_indices(self) -> tuple[int, ...]:
        """Draw-order positions still standing, head first."""
        return tuple(self._remaining)

    def reserved_indices(self) -> tuple[int, ...]:
        """Draw-order positions of the reserved tiles: the last ``reserved`` remaining ones."""
        return tuple(self._remaining[self.live :])

    def position(self, index: int) -> StackPosition | None:
        """Where draw-order position ``index`` lies on the table (None without a wall model)."""
        return position_of(self.wall_break, index) if self.wall_break else None

    def revealed_tail(self) -> tuple[Tile | None, ...]:
        """The face-up tail tiles a kong may choose from (Qujing's two; empty for WSOM)."""
        return tuple(self._tiles[i] for i in self.tail_indices(self.procedure.revealed_tail_tiles))

    def peek(self) -> Tile | None:
        return self._tiles[self.next_draw_index()]

    def peek_replacement(self, pick: int = 0) -> Tile | None:
        return self._tiles[self._replacement_index(pick)]

    # --- taking tiles -----------------------------------------------------------------------
    def deal(
        self, expected: Sequence[Sequence[Tile]] | None = None
    ) -> tuple[tuple[Tile | None, ...], ...]:
        """Deal 4-4-4 plus the jump tiles; returns the four hands by absolute seat.

        ``expected`` (four hands by absolute seat, in the order taken) is checked against a known
        order, or recorded into an unknown one; nothing changes when it does not match.
        """
        if self.dealt or self.drawn or self.replacements:
            raise WallError("the wall has already been dealt from")
        if expected is not None:
            self._learn_deal(expected)
        self._remaining = self._remaining[self.procedure.dealt_tiles :]
        self.dealt = self.procedure.dealt_tiles
        hands: list[tuple[Tile | None, ...]] = [(), (), (), ()]
        for offset, positions in enumerate(DEAL_POSITIONS):
            hands[(self.dealer + offset) % 4] = tuple(self._tiles[i] for i in positions)
        return tuple(hands)

    def _learn_deal(self, expected: Sequence[Sequence[Tile]]) -> None:
        pairs = deal_pairs(self.dealer, expected)
        for index, tile in pairs:
            known = self._tiles[index]
            if known is not None and known != tile:
                raise WallMismatchError(
                    f"wall position {index} holds {known}, the deal names {tile}"
                )
        for index, tile in pairs:
            self._tiles[index] = tile

    def draw(self, expected: Tile | None = None) -> Tile | None:
        """A normal draw from the head. ``expected`` is checked against a known wall order, or
        recorded into an unknown one."""
        index = self.next_draw_index()
        tile = self._take(index, expected)
        self._remaining.pop(0)
        self.drawn += 1
        return tile

    def draw_replacement(self, expected: Tile | None = None, *, pick: int = 0) -> Tile | None:
        """A kong or flower replacement from the tail: ``pick`` 0..k-1 chooses among the ``k``
        revealed tiles, ``k`` takes the face-down tile in front of them (0 without any)."""
        index = self._replacement_index(pick)
        tile = self._take(index, expected)
        self._remaining.remove(index)
        self.replacements += 1
        return tile

    def _replacement_index(self, pick: int) -> int:
        self._need_live()
        revealed = self.procedure.revealed_tail_tiles  # plus the face-down tile in front
        choices = min(revealed + 1 if revealed else 1, self.live)
        if not 0 <= pick < choices:
            raise WallError(f"replacement pick {pick!r} is not among the {choices} tail tile(s)")
        return self.tail_indices(pick + 1)[pick]

    def _take(self, index: int, expected: Tile | None) -> Tile | None:
        known = self._tiles[index]
        if expected is not None:
            if known is None:
                self._tiles[index] = expected
                return expected
            if known != expected:
                raise WallMismatchError(
                    f"wall position {index} holds {known}, but the draw names {expected}"
                )
        return known

    def _need_live(self) -> None:
        if self.dealt == 0:
            raise WallError("the wall has not been dealt yet")
        if self.live <= 0:
            raise WallExhaustedError(
                f"no live tile left ({self.remaining} remaining, {self.reserved} reserved)"
            )
