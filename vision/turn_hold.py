"""Discards wait for their turn: a discard confirmed out of turn is held until the one before it.

Play goes round the table; only a claim (the claimer discards next) breaks the order. A discard
whose tile the camera confirms late (under an arm, a moment of blur) can be confirmed after the
next seat's, and published in that order the engine sees a seat play out of turn. So a seat's
new discard that is not the seat expected to play next, while that seat's river has not grown
and the seat itself shows no new meld (a claim, which makes it next), waits up to
``hold_frames``: when the expected discard comes, both are published in one batch, in turn
order (:func:`vision.table_diff.in_play_order`). One that never comes costs the wait only:
then every discard waiting goes out together, and the engine bridge infers the one missed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from vision.observation import SeatObservation, TableObservation
from vision.observed import (
    ConcealedKongSeen,
    DiscardSeen,
    FaceDownKongSeen,
    HandRevealed,
    MeldSeen,
    Observed,
)


def grew(before: SeatObservation, now: SeatObservation) -> bool:
    """The river has a tile more at its end, the rest unchanged."""
    return len(now.river) > len(before.river) and now.river[: len(before.river)] == before.river


def next_to_play(events: Sequence[Observed], expected: int | None) -> int | None:
    """The seat expected to discard next after ``events`` (published in play order): the seat
    after a discard's, or a seat that melded (a claim or a kong: it discards next)."""
    for event in events:
        if isinstance(event, DiscardSeen):
            expected = (event.seat + 1) % 4
        elif isinstance(event, MeldSeen | ConcealedKongSeen | FaceDownKongSeen):
            expected = event.seat
        elif isinstance(event, HandRevealed):
            expected = None  # the hand is over: no order to keep
    return expected


def lapped_from(events: Sequence[Observed], expected: int) -> int:
    """The seat the discards of ``events`` follow in play order: the one before ``expected``;
    or ``expected`` itself when the seat before it discards among them and ``expected`` does
    not (its turn passed unseen, :class:`TurnHold`): then a kong or flower of the expected seat
    among them is of its next turn, after the others' discards."""
    discarders = {e.seat for e in events if isinstance(e, DiscardSeen)}
    lapped = (expected - 1) % 4 in discarders and expected not in discarders
    return expected if lapped else (expected - 1) % 4


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
        before = (expected - 1) % 4  # it plays after the expected seat: that turn passed
        lapped = expected_grew and grew(published.seats[before], seats[before])
        if lapped:  # a round went by: the expected seat's discard was missed, this is its next
            seats[expected] = replace(seats[expected], river=published.seats[expected].river)
            expected_grew = False
        waiting: list[int] = []
        claimers: list[int] = []
        revealers: list[int] = []
        for seat, (old, now) in enumerate(zip(published.seats, seats, strict=True)):
            kong = len(now.concealed_kongs) > len(old.concealed_kongs) or (
                now.face_down_kongs > old.face_down_kongs
            )
            if len(now.melds) > melds_shown[seat] or len(now.melds) != len(old.melds) or kong:
                claimers.append(seat)  # a discard it made before its claim was waiting already
            elif now.revealed and now.revealed != old.revealed:
                revealers.append(seat)  # a hand laid down: play went on
            before_claim = seat not in claimers or self.held[seat] > 0
            if grew(old, now) and seat != expected and not expected_grew and before_claim:
                waiting.append(seat)
            else:
                self.held[seat] = 0
        # Past the wait, or once a seat shows a new meld, kong or hand (play went on), every waiting
        # discard goes out at once, in play order: one released alone would make the seat
        # after it expected and hold the others again, and a claim would go out before its
        # discard. A claimer's waiting discard was made before its claim, and a hand laid down
        # may be won on the last of them: the meld or hand follows a frame later.
        released = lapped or revealers or claimers
        if released or any(self.held[seat] >= self.hold_frames for seat in waiting):
            for seat in set(claimers) & set(waiting):
                seats[seat] = replace(published.seats[seat], river=seats[seat].river)
            for seat in revealers if waiting else []:
                old = published.seats[seat]
                seats[seat] = replace(
                    seats[seat],
                    revealed=old.revealed,
                    fours_apart=old.fours_apart,
                    win_apart=old.win_apart,
                )
            return TableObservation(tuple(seats))
        for seat in waiting:
            self.held[seat] += 1
            seats[seat] = replace(seats[seat], river=published.seats[seat].river)
        return TableObservation(tuple(seats))
