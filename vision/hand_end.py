"""How a hand a camera followed ends when its table is cleared (camera-only tables).

A camera sees no washout and no referee's ruling: only that the tiles were swept. From the
engine's public snapshot and what the bridge read, :func:`cleared_ends` tells whether the sweep
ends the hand, and :func:`closing` what the engine is told first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import actions as act
from engine.tiles import Tile


def _live(snapshot: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The hand in play, or None when it ended or none was dealt."""
    hand = snapshot.get("hand")
    if not isinstance(hand, Mapping) or hand.get("phase") in ("ended", "idle"):
        return None
    return hand


def cleared_ends(snapshot: Mapping[str, Any], *, played: bool) -> bool:
    """A table seen cleared ends the hand in ``snapshot`` (the next hand starts): it ended (or
    none was dealt), or it was played (a discard, a claim or a hand laid down in it: in its
    rivers or melds, or ``played`` as the bridge read it). A hand not played yet goes on: a
    table that looks cleared is its deal."""
    hand = _live(snapshot)
    if hand is None:
        return True
    seats = hand.get("seats") or []
    return played or any(seat.get("river") or seat.get("melds") for seat in seats)


def closing(snapshot: Mapping[str, Any], won_on: Mapping[int, Tile]) -> list[act.Action]:
    """What ends the live hand in ``snapshot`` before the next starts: a washout when no one
    won and its wall is spent (the wall's count, kept from every inferred draw, shows it); a
    win the engine refused as read (a tile misread in the revealed hand) declared again with
    no hand, on the tile it was seen won on (``won_on``: the tile laid apart, or a discard
    seen taken from its river), so the winner, whoever pays and the next dealer stand and a
    referee enters the score (the refused reading is in its ``false_win`` alert). Otherwise
    nothing: the engine abandons a hand still live when the next starts (and warns the
    referee, ``hand_abandoned``)."""
    hand = _live(snapshot)
    if hand is None or hand.get("winners"):
        return []
    wall = hand.get("wall")
    if isinstance(wall, Mapping) and wall.get("live_left") == 0:
        return [act.Washout()]
    return [act.Win(seat=seat, tile=tile) for seat, tile in won_on.items()][:1]
