"""The last round's discards as the reader reported them, and the discards a claim shows were
taken before the camera confirmed them in the river (:func:`infer_claimed_discards`)."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from engine.tiles import RelativeSeat
from vision.observation import TableObservation
from vision.reported import Reported

Event = dict[str, object]


@dataclass
class SeenDiscard:
    seat: int
    tile: str
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
    events: list[Event],
    recent: deque[SeenDiscard],
    reported: Reported,
    published: TableObservation | None,
) -> list[Event]:
    """``events`` (in play order) with each discard noted in ``recent``, and before a meld whose
    turned tile matches no discard its source seat could have lost to it (:func:`claimable`)
    that discard, marked ``inferred`` (taken before the camera confirmed it in the river, e.g.
    under the claimer's arm). A meld read late, after the claimer's own next discard, still
    finds its discard; one whose claimable discard was read as another kind is a misread, not
    a second discard, and adds nothing. Added kongs take no discard."""
    out: list[Event] = []
    for event in events:
        seat = int(str(event.get("seat", -1)))
        if event["type"] == "discard":
            index = event.get("index")
            place = int(str(index)) if index is not None else None
            recent.append(SeenDiscard(seat, str(event["tile"]), index=place))
        elif event["type"] == "meld" and not reported.is_added_kong(seat, event):
            source = RelativeSeat[str(event["source"]).upper()]
            discarder, tile = (seat + int(source)) % 4, str(event["claimed"])
            open_ones = claimable(recent, discarder, seat)
            same = [d for d in open_ones if d.tile == tile]
            if same or open_ones:
                (same or open_ones)[-1].claimed = True
            else:
                out.append(_inferred(discarder, tile, event, published))
                recent.append(SeenDiscard(discarder, tile, claimed=True))
        out.append(event)
    return out


def seen_again_dropped(
    events: list[Event], lost: set[tuple[int, int, str]], published: TableObservation | None
) -> list[Event]:
    """``events`` less any discard of a river tile lost from view (``river_taken``: noted in
    ``lost`` as seat, index, tile) and seen again in its place before any claim: the same
    tile, not a new discard (national seed 4 hand 2 through tilesight run: seat 3's last
    discard, a 9s, went for 5 frames while seat 1 set a flower aside and came back as a
    discard, so seat 3's win was taken for a claim of its own 9s). A meld clears ``lost``."""
    claimed = any(e["type"] == "meld" for e in events)
    if claimed:
        lost.clear()  # a claim took what was lost
    out = []
    for event in events:
        seat = int(str(event.get("seat", -1)))
        if event["type"] == "river_taken" and published is not None and not claimed:
            river = published.seats[seat].river
            index = max(i for i, t in enumerate(river) if str(t) == event["tile"])
            lost.add((seat, index, str(event["tile"])))
        elif event["type"] == "discard" and "inferred" not in event:
            place = (seat, int(str(event.get("index", -1))), str(event["tile"]))
            if place in lost:
                lost.discard(place)
                continue
        out.append(event)
    return out


def _inferred(seat: int, tile: str, meld: Event, published: TableObservation | None) -> Event:
    index = len(published.seats[seat].river) if published else 0
    row, column = divmod(index, 6)
    return {
        "type": "discard",
        "seat": seat,
        "tile": tile,
        "index": index,
        "row": row,
        "column": column,
        "frame": meld["frame"],
        "inferred": True,
    }
