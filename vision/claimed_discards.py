"""The last round's discards as the reader reported them, and the discards a claim shows were
taken before the camera confirmed them in the river (:func:`infer_claimed_discards`)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from engine.tiles import Tile
from vision.observation import TableObservation
from vision.observed import DiscardSeen, MeldSeen, RiverTaken, SeatObserved
from vision.reported import Reported


@dataclass
class SeenDiscard:
    seat: int
    tile: Tile
    claimed: bool = False
    index: int | None = None  # its place in the river


def claimable(recent: Sequence[SeenDiscard], discarder: int, claimer: int) -> list[SeenDiscard]:
    """The unclaimed discards of ``discarder`` among ``recent`` (oldest first) that a claim by
    ``claimer`` can take: a claim is made at once, so no seat but the claimer discarded after it
    (the claimer's own next discard may be read before its meld). Measured: wsom seed 4 hand 3,
    seat 2's 4s was taken by seat 1 before the camera confirmed it; seat 2's discard of the
    round before (an F, three discards back) was taken for the claimed one misread, so nothing
    was inferred and the engine saw seat 1 pung its own 4s."""
    out = []
    for index, discard in enumerate(recent):
        after = {d.seat for d in list(recent)[index + 1 :]}
        if discard.seat == discarder and not discard.claimed and after <= {claimer}:
            out.append(discard)
    return out


def infer_claimed_discards(
    events: list[SeatObserved],
    recent: deque[SeenDiscard],
    reported: Reported,
    published: TableObservation | None,
) -> list[SeatObserved]:
    """``events`` (in play order) with each discard noted in ``recent``, and before a meld whose
    turned tile matches no discard its source seat could have lost to it (:func:`claimable`)
    that discard, marked ``inferred`` (taken before the camera confirmed it in the river, e.g.
    under the claimer's arm). A meld read late, after the claimer's own next discard, still
    finds its discard; one whose claimable discard was read as another kind is a misread, not
    a second discard, and adds nothing. Added kongs take no discard."""
    out: list[SeatObserved] = []
    for event in events:
        if isinstance(event, DiscardSeen):
            recent.append(SeenDiscard(event.seat, event.tile, index=event.index))
        elif isinstance(event, MeldSeen) and not reported.is_added_kong(event):
            discarder, tile = (event.seat + int(event.source)) % 4, event.claimed
            open_ones = claimable(recent, discarder, event.seat)
            same = [d for d in open_ones if d.tile == tile]
            if same or open_ones:
                (same or open_ones)[-1].claimed = True
            else:
                out.append(_inferred(discarder, tile, event, published))
                recent.append(SeenDiscard(discarder, tile, claimed=True))
        out.append(event)
    return out


def seen_again_dropped(
    events: list[SeatObserved],
    lost: set[tuple[int, int, Tile]],
    published: TableObservation | None,
    recent: Sequence[SeenDiscard] = (),
) -> list[SeatObserved]:
    """``events`` less any discard of a river tile lost from view (``river_taken``: noted in
    ``lost`` as seat, index, tile) and seen again in its place before any claim: the same
    tile, not a new discard (national seed 4 hand 2 through tilesight run: seat 3's last
    discard, a 9s, went for 5 frames while seat 1 set a flower aside and came back as a
    discard, so seat 3's win was taken for a claim of its own 9s). A meld clears ``lost``, and a
    tile a claim already took (a claimed discard of ``recent`` in that place: the meld read
    before the tile was seen gone) is never noted (national seed 4 hand 10: seat 3's next 2p
    in the place of the 2p chowed was taken for it seen again and never published)."""
    taken = {(d.seat, d.index) for d in recent if d.claimed and d.index is not None}
    claimed = any(isinstance(e, MeldSeen) for e in events)
    if claimed:
        lost.clear()  # a claim took what was lost
    out = []
    for event in events:
        if isinstance(event, RiverTaken) and published is not None and not claimed:
            river = published.seats[event.seat].river
            index = max(i for i, t in enumerate(river) if t == event.tile)
            if (event.seat, index) not in taken:
                lost.add((event.seat, index, event.tile))
        elif isinstance(event, DiscardSeen) and not event.inferred:
            place = (event.seat, event.index, event.tile)
            if place in lost:
                lost.discard(place)
                continue
        out.append(event)
    return out


def _inferred(
    seat: int, tile: Tile, meld: MeldSeen, published: TableObservation | None
) -> DiscardSeen:
    index = len(published.seats[seat].river) if published else 0
    return DiscardSeen(seat, tile, index, meld.frame, inferred=True)
