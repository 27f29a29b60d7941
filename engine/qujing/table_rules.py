"""The Qujing table rules the shared table state machine consults (digest §3-§5, §7).

Pure and per hand: :class:`QujingHandRules` implements the shared table's optional hooks
(:class:`engine.table.rules_api.HandRules`): the table feeds it what happened (``on_draw``,
``on_discard``, ``on_pass``) and asks it what is allowed (``pung_problem``, ``win_problem``,
``must_win``, ``replacement_problem``). A rule set without such rules gets the hooks' defaults
("allowed" everywhere), so the table needs no ``if rules == ...`` branch.

* Pung furiten: a seat that could have punged a tile and passed may not pung the same tile again
  until it has discarded.
* Temporary win furiten: a seat that passes a discard (or added-kong tile) it could have won on
  may not win on a discard until its next draw.
* Last four tiles: once one of the last ``must_win_tiles_left`` tiles has been drawn (fewer than
  that many remain in the wall), a legal, non-furiten win must be taken (draw or discard).
* Claims: win > kong = pung; several winners on one discard; kong/pung by the discarder's lower
  seat > opposite > upper.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from engine.qujing.options import QujingOptions
from engine.qujing.tail import replacement_problem
from engine.table.rules_api import HandRules
from engine.tiles import Tile

SEATS = 4


class ClaimKind(enum.Enum):
    """What a seat claims a discard for (Qujing has no chow)."""

    WIN = "win"
    KONG = "kong"
    PUNG = "pung"


@dataclass(frozen=True, slots=True)
class Claim:
    seat: int
    kind: ClaimKind


@dataclass(slots=True)
class QujingHandRules(HandRules):
    """Per-hand memory for the furiten rules; one instance per hand, fed by the table."""

    watches_passes: ClassVar[bool] = True
    options: QujingOptions = field(default_factory=QujingOptions)
    #: Tiles each seat passed on while holding an unfrozen pair, since its last discard.
    _passed_pungs: list[set[Tile]] = field(default_factory=lambda: [set() for _ in range(SEATS)])
    #: Seats that passed a winning tile and have not drawn since.
    _win_furiten: set[int] = field(default_factory=set)

    # --- what happened -------------------------------------------------------------------
    def on_draw(self, seat: int) -> None:
        """A draw (normal or replacement) lifts the seat's temporary win furiten."""
        _check_seat(seat)
        self._win_furiten.discard(seat)

    def on_discard(self, seat: int, tile: Tile) -> None:
        """Discarding lifts the seat's pung furiten (it "discarded in between")."""
        _check_seat(seat)
        self._passed_pungs[seat].clear()

    def on_pass(self, seat: int, tile: Tile, *, could_pung: bool, could_win: bool) -> None:
        """``seat`` let ``tile`` go although it could pung it and/or win on it."""
        _check_seat(seat)
        if could_pung and self.options.pung_furiten:
            self._passed_pungs[seat].add(tile)
        if could_win and self.options.win_furiten:
            self._win_furiten.add(seat)

    # --- what is allowed ------------------------------------------------------------------
    def pung_problem(self, seat: int, tile: Tile) -> str | None:
        """Why ``seat`` may not pung ``tile`` now (None when it may)."""
        _check_seat(seat)
        if tile in self._passed_pungs[seat]:
            return (
                f"pung furiten: seat {seat} passed {tile} with a pair and has not discarded since"
            )
        return None

    def win_problem(self, seat: int, *, on_discard: bool) -> str | None:
        """Why ``seat`` may not win now (None when it may); self-drawn wins are never furiten."""
        _check_seat(seat)
        if on_discard and seat in self._win_furiten:
            return f"temporary furiten: seat {seat} passed a winning tile and has not drawn since"
        return None

    def is_win_furiten(self, seat: int) -> bool:
        return seat in self._win_furiten

    def in_last_tiles(self, tiles_left: int) -> bool:
        """Whether the last-tiles rule is in force with ``tiles_left`` tiles still in the wall
        after the latest draw (that draw took one of the last ``must_win_tiles_left`` tiles)."""
        if tiles_left < 0:
            raise ValueError(f"tiles left cannot be negative: {tiles_left!r}")
        return tiles_left < self.options.must_win_tiles_left

    def must_win(self, seat: int, *, tiles_left: int, legal_win: bool, on_discard: bool) -> bool:
        """Whether passing a legal win is a violation: last tiles, and not furiten (§8.10)."""
        if not legal_win or not self.in_last_tiles(tiles_left):
            return False
        return self.win_problem(seat, on_discard=on_discard) is None

    def replacement_problem(self, pick: int, live: int, *, completes_hand: bool) -> str | None:
        """Why a kong replacement at ``pick`` breaks the tail reading (:mod:`.tail`)."""
        return replacement_problem(pick, live, completes_hand=completes_hand, options=self.options)

    def resolve_claims(self, discarder: int, claims: Iterable[Claim]) -> tuple[Claim, ...]:
        """The claims that take effect: every allowed win, else the best kong/pung claim."""
        _check_seat(discarder)
        ordered = sorted(
            {c for c in claims if c.seat != discarder}, key=lambda c: (c.seat - discarder) % SEATS
        )
        wins = tuple(c for c in ordered if c.kind is ClaimKind.WIN)
        if wins:
            return wins
        melds = [c for c in ordered if c.kind in (ClaimKind.KONG, ClaimKind.PUNG)]
        return tuple(melds[:1])


def next_dealer(
    dealer: int, winners: Sequence[int], *, discarder: int | None, options: QujingOptions
) -> int:
    """Who deals next: the first winner; the discarder when several win on one discard (§7).

    ``winners`` lists the seats that won this hand in order (several only on one discard).
    """
    _check_seat(dealer)
    if len(winners) > 1:
        if discarder is None:
            raise ValueError("several winners need the discarder they all won on")
        _check_seat(discarder)
        return discarder
    if winners:
        _check_seat(winners[0])
        return winners[0]
    return dealer if options.washout_dealer_repeats else (dealer + 1) % SEATS


def _check_seat(seat: int) -> None:
    if not 0 <= seat < SEATS:
        raise ValueError(f"seat must be 0-3, got {seat!r}")
