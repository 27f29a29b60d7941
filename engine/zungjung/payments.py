"""Zung Jung formal-competition payments and the rule of same-round immunity (跟張免責).

The winner always collects 3 x V. Self-draws (a kong-replacement win included) and discard wins
with nobody responsible: each of the three others pays V. Discard wins with a responsible player R
(robbing a kong: the konger discarded): V <= 25, each pays V; V > 25, R pays 3V - 50 and the other
two 25 each.

Who is responsible: the window runs from the winner's previous discard (inclusive; from the start
of the hand when the winner has not discarded) up to the winning discard. If the winner's own
previous discard was the winning tile, nobody is; otherwise the first player in the window who
discarded the winning tile is, and players who only followed with it are immune.

>>> split_payments(70, winner=0, responsible=2)
(210, -25, -160, -25)
>>> log = [(3, "5s"), (0, "3p"), (1, "2m"), (2, "3p")]
>>> outcome = find_responsible(log, winner=3, win_tile="3p")
>>> outcome.responsible, outcome.immune
(0, (2,))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.notation import NotationError, parse_tile
from engine.tiles import Tile

#: The split point of the formal scheme: hands up to it are paid equally.
PAR = 25
SEATS = 4

#: WinRequest.extras key: the hand's discards in order, ``(seat, tile)`` each, the winning discard
#: last (for a robbed kong, the added tile by the konger). Seats use the table's numbering.
DISCARDS_KEY = "discards"
#: WinRequest.extras key: the winner's seat in the same numbering (default: the seat wind's index).
WINNER_KEY = "seat"


class DiscardHistoryError(ValueError):
    """The discard history in WinRequest.extras is malformed; the message quotes it."""


@dataclass(frozen=True, slots=True)
class Immunity:
    """The outcome of same-round immunity for one discard win."""

    responsible: int | None
    immune: tuple[int, ...]
    reason: str

    def to_details(self) -> dict[str, Any]:
        return {
            "responsible": self.responsible,
            "immune": list(self.immune),
            "immunity": self.reason,
        }


def find_responsible(
    discards: Sequence[tuple[int, Tile | str]], *, winner: int, win_tile: Tile | str
) -> Immunity:
    """Who pays for a discard win, from the hand's discards (the winning discard last)."""
    history = parse_discards(discards)
    tile = win_tile if isinstance(win_tile, Tile) else _tile(win_tile, win_tile)
    if not history:
        raise DiscardHistoryError(
            "the discard history is empty: it must end with the winning discard"
        )
    *before, (discarder, last_tile) = history
    if last_tile != tile:
        raise DiscardHistoryError(
            f"the last discard {last_tile} is not the winning tile {tile} (history {discards!r})"
        )
    if discarder == winner:
        raise DiscardHistoryError(f"the winning discard was made by the winner, seat {winner}")
    start = max((i for i, (seat, _) in enumerate(before) if seat == winner), default=0)
    window = [*before[start:], (discarder, last_tile)]
    droppers = [seat for seat, t in window if t == tile]
    if before and before[start] == (winner, tile):
        others = tuple(dict.fromkeys(s for s in droppers if s != winner))
        return Immunity(
            None, others, f"the winner's own previous discard was {tile}: nobody pays more"
        )
    first = droppers[0]
    immune = tuple(dict.fromkeys(s for s in droppers if s != first))
    reason = f"seat {first} discarded {tile}"
    if immune:
        followers = ", ".join(f"seat {s}" for s in immune)
        reason = f"{reason} first since the winner last discarded; {followers} only followed"
    return Immunity(first, immune, reason)


def split_payments(
    value: int, *, winner: int, responsible: int | None
) -> tuple[int, int, int, int]:
    """Score changes for seats 0-3: the winner gains 3 x ``value``, the others pay by the scheme."""
    _check_seat(winner, "winner")
    deltas = [0] * SEATS
    for seat in range(SEATS):
        if seat == winner:
            continue
        if responsible is None or value <= PAR:
            pay = value
        else:
            pay = 3 * value - 2 * PAR if seat == responsible else PAR
        deltas[seat] -= pay
        deltas[winner] += pay
    return (deltas[0], deltas[1], deltas[2], deltas[3])


def responsible_payment(value: int) -> tuple[int, int]:
    """(responsible player's share, each other player's share) of a discard win worth ``value``."""
    if value <= PAR:
        return value, value
    return 3 * value - 2 * PAR, PAR


def parse_discards(discards: Any) -> list[tuple[int, Tile]]:
    """Validate a ``(seat, tile)`` history; tiles may be Tile values or notation (``"5p"``)."""
    if isinstance(discards, str | bytes | Mapping) or not isinstance(discards, Sequence):
        raise DiscardHistoryError(
            f"discards must be a list of (seat, tile) pairs, got {discards!r}"
        )
    out: list[tuple[int, Tile]] = []
    for entry in discards:
        if not isinstance(entry, Sequence) or isinstance(entry, str) or len(entry) != 2:
            raise DiscardHistoryError(f"a discard must be a (seat, tile) pair, got {entry!r}")
        seat, tile = entry
        _check_seat(seat, f"discard {entry!r}")
        out.append((seat, tile if isinstance(tile, Tile) else _tile(tile, entry)))
    return out


def _tile(text: Any, context: Any) -> Tile:
    if not isinstance(text, str):
        raise DiscardHistoryError(f"not a tile: {text!r} (in {context!r})")
    try:
        tile = parse_tile(text)
    except NotationError as exc:
        raise DiscardHistoryError(f"{exc} (in {context!r})") from None
    if tile.is_flower:
        raise DiscardHistoryError(f"a flower cannot be discarded: {text!r}")
    return tile


def _check_seat(seat: Any, what: str) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < SEATS:
        raise DiscardHistoryError(f"{what}: seat must be 0-3, got {seat!r}")
