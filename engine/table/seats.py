"""Per-seat and per-hand state of a table, shared by the state machine's modules.

One model serves full information (records, simulation: every tile known) and partial information
(camera: concealed tiles unknown): a seat holds a multiset of *known* concealed tiles plus a count
of *unknown* ones. Taking a tile uses a known copy first, else one unknown tile.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field

from engine.json_forms import tiles_to_json
from engine.procedures import Procedure
from engine.rulesets import WinRequest
from engine.table.rules_api import HandRules
from engine.tiles import Meld, Tile, Wind

RIVER_ROW = 6


class Phase(enum.Enum):
    """Where the hand is: IDLE before a hand, DRAW (``turn`` should draw), DISCARD, ENDED."""

    IDLE = "idle"
    DRAW = "draw"
    DISCARD = "discard"
    ENDED = "ended"


@dataclass
class SeatState:
    known: Counter[Tile] = field(default_factory=Counter)
    unknown: int = 0
    melds: list[Meld] = field(default_factory=list)
    face_down_kongs: int = 0  # concealed kongs laid face down, kind not yet seen
    river: list[Tile] = field(default_factory=list)
    flowers: list[Tile] = field(default_factory=list)
    last_drawn: Tile | None = None
    xianggong: str | None = None  # "small" or "big" once confirmed: no more wins this hand

    def add(self, tile: Tile | None) -> None:
        if tile is None:
            self.unknown += 1
        else:
            self.known[tile] += 1

    def can_supply(self, tile: Tile, copies: int = 1) -> bool:
        return self.known[tile] + self.unknown >= copies

    def take(self, tile: Tile) -> bool:
        """Remove one ``tile``; False (and nothing removed) when the seat cannot hold it."""
        if self.known[tile] > 0:
            self.known[tile] -= 1
            if not self.known[tile]:
                del self.known[tile]
            return True
        if self.unknown > 0:
            self.unknown -= 1
            return True
        return False

    def take_unknown_or_any(self, tile: Tile | None) -> bool:
        """Remove a tile whose identity may be unknown (a draw returned to the wall)."""
        if tile is not None:
            return self.take(tile)
        if self.unknown > 0:
            self.unknown -= 1
            return True
        return False

    @property
    def concealed_count(self) -> int:
        return sum(self.known.values()) + self.unknown

    @property
    def size(self) -> int:
        """Tiles for the xianggong count rule: a kong counts as 3, flowers not at all."""
        return self.concealed_count + 3 * self.sets

    @property
    def sets(self) -> int:
        """Melds laid down, face-down kongs included."""
        return len(self.melds) + self.face_down_kongs

    def concealed_tiles(self) -> tuple[Tile, ...]:
        return tuple(sorted(self.known.elements()))

    def river_rows(self) -> list[list[str]]:
        return [
            tiles_to_json(self.river[i : i + RIVER_ROW])
            for i in range(0, len(self.river), RIVER_ROW)
        ]


@dataclass
class ClaimRecord:
    """A meld claim that a higher-precedence claim may still undo (until the claimer discards)."""

    seat: int
    rank: int
    discarder: int
    tile: Tile
    meld: Meld
    taken: tuple[Tile, ...]
    was_kong: bool


@dataclass(frozen=True, slots=True)
class WinContext:
    """Who wins on which tile and how: ``self``, ``robbing`` or how the discard was taken
    (``live``, ``override``: outranking a claim, ``after_draw``: after the next player drew)."""

    seat: int
    tile: Tile
    how: str
    discarder: int | None


@dataclass(frozen=True, slots=True)
class Offer:
    """A tile the other seats may take (a discard, or an added-kong tile they may rob) and, per
    seat, ``(could_pung, could_win)`` with it, None where the table cannot tell."""

    seat: int
    tile: Tile
    robbing: bool
    tiles_left: int | None
    could: tuple[tuple[bool, bool] | None, ...]


@dataclass
class HandState:
    number: int
    procedure: Procedure
    dealer: int
    prevalent_wind: Wind
    dice: tuple[int, ...] = ()
    seats: list[SeatState] = field(default_factory=lambda: [SeatState() for _ in range(4)])
    phase: Phase = Phase.DRAW
    turn: int = 0
    live_discard: tuple[int, Tile] | None = None
    #: The seat whose last discard no camera read (its tile unknown), until the next draw: a
    #: win on it names the tile (engine.table.wins).
    unseen_discard: int | None = None
    river_bottom: bool = False
    claim: ClaimRecord | None = None
    #: The draw that took away the right to claim the last discard: (seat, tile, discard).
    draw_after_discard: tuple[int, Tile | None, tuple[int, Tile]] | None = None
    pending_replacements: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    kongs_awaiting_replacement: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    pending_kong: tuple[int, Tile] | None = None
    turn_began_with_claim: bool = False
    kong_replacement_drawn: bool = False
    sea_bottom_drawn: bool = False
    winners: list[int] = field(default_factory=list)
    #: The last win on a discard: (discarder, tile, winner, win event id), for interceptions.
    last_discard_win: tuple[int, Tile, int, str] | None = None
    #: Wins scored on a hand read one tile short: winner -> (the whole hand scored, sorted,
    #: the tile inferred, win event id); the hand read whole later is checked against it.
    unread_wins: dict[int, tuple[tuple[Tile, ...], Tile, str]] = field(default_factory=dict)
    deltas: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    penalties: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    #: Every discard of the hand in order, claimed ones too: (seat, tile). Zung Jung's
    #: same-round immunity reads it (WinRequest.extras["discards"]).
    discard_log: list[tuple[int, Tile]] = field(default_factory=list)
    #: The rule set's per-hand table rules (engine.table.rules_api) and what they watch: the
    #: tile on offer and the seats that took it, a seat that drew a win it must declare, the
    #: last kong replacement (seat, pick, live tiles before it) and whether the last discard
    #: came right after its discarder's kong.
    rules_memory: HandRules = field(default_factory=HandRules)
    offer: Offer | None = None
    takers: set[int] = field(default_factory=set)
    must_self_win: int | None = None
    tail_pick: tuple[int, int, int] | None = None
    discard_after_kong: bool = False
    #: Wins accepted while the winner's kongs lay face down, scored once they are shown:
    #: seat -> (the request without those kongs, the win event's id, the discarder).
    unscored_wins: dict[int, tuple[WinRequest, str, int | None]] = field(default_factory=dict)

    def expect_replacement(self, seat: int, *, kong: bool, count: int = 1) -> None:
        """A kong or flower owes ``seat`` a draw from the tail (``count`` -1 cancels one)."""
        self.pending_replacements[seat] = max(0, self.pending_replacements[seat] + count)
        if kong:
            self.kongs_awaiting_replacement[seat] = max(
                0, self.kongs_awaiting_replacement[seat] + count
            )

    def seat_wind(self, seat: int) -> Wind:
        return Wind((seat - self.dealer) % 4)

    def visible_count(self, tile: Tile) -> int:
        """Copies of ``tile`` visible on the table: rivers and exposed melds (no concealed kong)."""
        count = 0
        for seat in self.seats:
            count += seat.river.count(tile)
            count += sum(m.tiles.count(tile) for m in seat.melds if not m.is_concealed)
        return count

    def seen_count(self, tile: Tile) -> int:
        """Copies of ``tile`` anywhere the table knows of (incl. known concealed tiles, flowers)."""
        count = 0
        for seat in self.seats:
            count += seat.known[tile] + seat.river.count(tile) + seat.flowers.count(tile)
            count += sum(m.tiles.count(tile) for m in seat.melds)
        return count
