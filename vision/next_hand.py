"""Whether a camera that waits between hands already sees the next hand in play.

A camera-only table starts its next hand when the camera sees the table cleared for a while
(:meth:`vision.reader.TableReader` ``table_cleared``). That sweep can be missed: a process
restarted after the sweep (its journal's last hand over, the next one dealt and played while it
was down), or a machine too busy to read the two seconds of cleared table before the dealer's
first discard. Then the table in view holds rivers that are not the hand before's. Its rivers
are told apart here: the hand before's, seen again (misread in places, or half swept), keep its
tiles in its order; a new hand's rivers share little with them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.json_forms import tiles_from_json
from engine.tiles import Tile
from vision.observed import SeatObserved
from vision.reported import cleared
from vision.stabiliser import TableObservation
from vision.table_diff import common_in_order, diff, in_play_order

#: Of the river tiles seen, the share found in the hand before's rivers (each seat's, in order)
#: at or above which the table is taken for the hand before's (misreads and sweeping allowed).
SAME_TABLE_SHARE = 0.7


def hand_over(snapshot: Mapping[str, Any]) -> bool:
    """The engine's last hand can go on no more: it ended, or its wall is spent (a washout a
    camera cannot see until the table is cleared)."""
    hand = snapshot.get("hand")
    if not isinstance(hand, Mapping):
        return False
    if hand.get("phase") == "ended":
        return True
    wall = hand.get("wall")
    return isinstance(wall, Mapping) and wall.get("live_left") == 0 and not hand.get("winners")


def ended_rivers(snapshot: Mapping[str, Any]) -> tuple[tuple[Tile, ...], ...]:
    """Each seat's river in the engine's last hand (public snapshot)."""
    hand = snapshot.get("hand")
    seats = hand.get("seats", []) if isinstance(hand, Mapping) else []
    rivers = [
        tuple(t for row in seat["river"] for t in tiles_from_json(row, "river")) for seat in seats
    ]
    return tuple(rivers) if len(rivers) == 4 else ((),) * 4


def next_hand_in_view(
    before: Sequence[Sequence[Tile]], seen: TableObservation | None, *, swept: bool = False
) -> bool:
    """``seen`` (the table as the reader published it) shows a hand after the one whose rivers
    were ``before``: tiles lie in its rivers, and fewer than :data:`SAME_TABLE_SHARE` of them
    are found in order in the same seat's river before, or the table was seen cleared since
    that hand ended (``swept``) and its rivers hold under half as many tiles (a camera that
    saw nothing for a moment, then the same table again, does not start a hand). A table with
    no river tile tells nothing (the cleared-table path starts the next hand)."""
    if seen is None or cleared(seen):
        return False
    lying = sum(len(s.river) for s in seen.seats)
    if lying == 0:
        return False
    if swept and lying < sum(map(len, before)) / 2:
        return True
    kept = sum(
        common_in_order(seat.river, tuple(river))
        for seat, river in zip(seen.seats, before, strict=True)
    )
    return kept < SAME_TABLE_SHARE * lying


def play_so_far(seen: TableObservation, dealer: int, frame: int) -> list[SeatObserved]:
    """What the reader reports of a hand found in play (``seen``, dealt by ``dealer``), in the order
    they were most likely played: a lap at a time from the dealer, each seat's river in its
    own order (:func:`vision.table_diff.in_play_order`; a claim's order is a guess)."""
    return in_play_order(diff(None, seen, frame), (dealer - 1) % 4)
