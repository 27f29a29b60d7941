"""Plain frozen records of a simulated game (see :mod:`engine.simulate`)."""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass

from engine.notation import Hand
from engine.tiles import Meld, Tile, Wind
from engine.wall_geometry import WallBreak

DEFAULT_START = 1_767_225_600.0  # 2026-01-01T00:00:00Z: timestamps are deterministic too


class PlayVerb(enum.Enum):
    DEAL = "deal"  # ``tiles``: the seat's dealt tiles in the order taken
    DRAW = "draw"  # ``replacement``: taken from the tail (after a kong or flower)
    DISCARD = "discard"
    CHOW = "chow"  # ``meld`` holds the run, ``from_seat`` the discarder
    PUNG = "pung"
    KONG = "kong"  # exposed kong on a discard
    CONCEALED_KONG = "concealed_kong"
    ADDED_KONG = "added_kong"
    FLOWER = "flower"  # the flower set aside; a replacement DRAW follows
    WIN = "win"  # ``from_seat`` None: self-drawn
    WASHOUT = "washout"


@dataclass(frozen=True, slots=True)
class SimulatedPlay:
    """One thing that happened, ``t`` seconds after the hand started (``at`` = absolute time)."""

    seat: int | None
    verb: PlayVerb
    t: float
    at: float
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()
    meld: Meld | None = None
    from_seat: int | None = None
    replacement: bool = False


@dataclass(frozen=True, slots=True)
class SimulatedWin:
    """The result of a won hand: ``hand`` is the concealed part without ``tile`` plus the melds."""

    seat: int
    tile: Tile
    hand: Hand
    self_drawn: bool
    discarder: int | None
    pattern: str
    flowers: int
    kong_replacement: bool
    last_tile: bool


@dataclass(frozen=True, slots=True)
class SimulatedHand:
    index: int
    procedure: str
    dealer: int
    prevailing_wind: Wind | None
    dice: tuple[int, ...]
    wall_break: WallBreak | None
    wall: tuple[Tile, ...]  # draw order: position 0 is the first tile dealt
    deal: tuple[tuple[Tile, ...], ...]  # by absolute seat
    plays: tuple[SimulatedPlay, ...]
    win: SimulatedWin | None
    start: float

    @property
    def washout(self) -> bool:
        return self.win is None


@dataclass(frozen=True, slots=True)
class SimulatedGame:
    procedure: str
    seed: int
    hands: tuple[SimulatedHand, ...]


def winning_shape_problem(hand: Hand, win_tile: Tile) -> str | None:
    """Why ``hand`` + ``win_tile`` is not four sets and a pair (None when it is)."""
    if any(m.kind.size != len(m.tiles) for m in hand.melds):
        return "a meld has the wrong size"
    counts = Counter(hand.concealed)
    counts[win_tile] += 1
    if sum(counts.values()) + 3 * len(hand.melds) != 14:
        return f"{sum(counts.values())} concealed tiles with {len(hand.melds)} melds is not 14"
    for pair in [t for t, n in counts.items() if n >= 2]:
        rest = counts.copy()
        rest[pair] -= 2
        if _all_sets(rest):
            return None
    return "the tiles do not split into sets and a pair"


def _all_sets(counts: Counter[Tile]) -> bool:
    tiles = sorted(t for t, n in counts.items() if n > 0)
    if not tiles:
        return True
    first = tiles[0]
    if counts[first] >= 3:
        rest = counts.copy()
        rest[first] -= 3
        if _all_sets(rest):
            return True
    second, third = first.shifted(1), first.shifted(2)
    if second is not None and third is not None and counts[second] and counts[third]:
        rest = counts.copy()
        for t in (first, second, third):
            rest[t] -= 1
        return _all_sets(rest)
    return False
