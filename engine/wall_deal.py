"""What a wall holds and how it is dealt: a procedure's full tile set, the draw-order positions
each seat receives in the deal, and a named deal matched to those positions.

>>> DEAL_POSITIONS[0][-2:]  # the dealer's two jump tiles
(48, 52)
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.procedures import Procedure
from engine.tiles import COPIES_PER_KIND, FLOWERS, KINDS, Tile
from engine.wall_errors import WallError, WallMismatchError

#: Draw-order positions each seat receives in the deal, counted from the dealer (digest §8).
DEAL_POSITIONS: tuple[tuple[int, ...], ...] = tuple(
    tuple(16 * r + 4 * p + i for r in range(3) for i in range(4))
    + ((48, 52) if p == 0 else (48 + p,))
    for p in range(4)
)


def procedure_tiles(procedure: Procedure) -> tuple[Tile, ...]:
    """One full set of tiles for ``procedure`` (4 of each kind, plus one of each flower)."""
    tiles = tuple(t for t in KINDS for _ in range(COPIES_PER_KIND))
    if procedure.flowers:
        tiles += FLOWERS
    if len(tiles) != procedure.tile_count:
        raise WallError(f"procedure {procedure.name!r} wants {procedure.tile_count} tiles")
    return tiles


def deal_pairs(dealer: int, expected: Sequence[Sequence[Tile]]) -> list[tuple[int, Tile]]:
    """(draw-order position, tile) for each tile of ``expected`` (four hands by absolute seat,
    in the order taken); WallMismatchError when a hand is not as long as its seat's deal."""
    pairs: list[tuple[int, Tile]] = []
    for offset, positions in enumerate(DEAL_POSITIONS):
        seat = (dealer + offset) % 4
        hand = tuple(expected[seat]) if seat < len(expected) else ()
        if len(hand) != len(positions):
            raise WallMismatchError(
                f"seat {seat} is dealt {len(positions)} tiles, the deal names {len(hand)}"
            )
        pairs += zip(positions, hand, strict=True)
    return pairs
