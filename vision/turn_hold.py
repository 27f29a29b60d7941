"""Discards wait for their turn: a discard confirmed out of turn is held until the one before it.

Play goes round the table; only a claim (the claimer discards next) breaks the order. A discard
whose tile the camera confirms late (under an arm, a moment of blur) can be confirmed after the
next seat's, and published in that order the engine sees a seat play out of turn. So a seat's
new discard that is not the seat expected to play next, while that seat's river has not grown
and the seat itself shows no new meld (a claim, which makes it next), waits up to
``hold_frames``: when the expected discard comes, both are published in one batch, in turn
order (:func:`vision.table_diff.in_play_order`). One that never comes costs the wait only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from vision.stabiliser import SeatObservation, TableObservation


def grew(before: SeatObservation, now: SeatObservation) -> bool:
    """The river has a tile more at its end, the rest unchanged."""
    return len(now.river) > len(before.river) and now.river[: len(before.river)] == before.river


def next_to_play(events: Sequence[Mapping[str, object]], expected: int | None) -> int | None:
    """The seat expected to discard next after ``events`` (published in play order): the seat
    after a discard's, or a seat that melded (a claim or a kong: it discards next)."""
    for event in events:
        kind = event.get("type")
        seat = int(str(event.get("seat", -1)))
        if kind == "discard":
            expected = (seat + 1) % 4
        elif kind in ("meld", "concealed_kong", "face_down_kong"):
            expected = seat
        elif kind == "hand_revealed":
            expected = None  # the hand is over: no order to keep
    return expected


@dataclass
class TurnHold:
    hold_frames: int = 12
    held: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    def apply(
        self,
        published: TableObservation | None,
        observation: TableObservation,
        expected: int | None,
        melds_shown: Sequence[int],
    ) -> TableObservation:
        """``observation`` with discards played out of turn held back (their seats' published
        rivers kept) while they wait for the expected seat's."""
        if published is None or expected is None:
            self.held = [0, 0, 0, 0]
            return observation
        seats = list(observation.seats)
        expected_grew = grew(published.seats[expected], seats[expected])
        for seat, (old, now) in enumerate(zip(published.seats, seats, strict=True)):
            claiming = len(now.melds) > melds_shown[seat] or len(now.melds) != len(old.melds)
            waiting = grew(old, now) and seat != expected and not expected_grew and not claiming
            if not waiting:
                self.held[seat] = 0
            elif self.held[seat] < self.hold_frames:  # past it: published as it is
                self.held[seat] += 1
                seats[seat] = replace(now, river=old.river)
        return TableObservation(tuple(seats))
