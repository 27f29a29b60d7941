"""What the reader has reported of a hand, so each claim, kong and flower is reported once.

A meld that flickers (a kong seen as three tiles for a frame), is re-laid (a pung grown into an
added kong) or is hidden by an arm is still the claim reported before; everything is forgotten
when the table is cleared for the next hand.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from engine.tiles import MeldKind, Tile
from vision.observation import TableObservation
from vision.observed import (
    ConcealedKongSeen,
    FaceDownKongSeen,
    FlowersCorrected,
    FlowerSeen,
    MeldSeen,
    MeldUnreadable,
    SeatObserved,
)


class Reported:
    """Per seat: the melds (as tile counts), concealed kongs by kind, kongs laid face down and
    flowers reported so far this hand."""

    def __init__(self) -> None:
        self.melds: list[list[Counter[Tile]]] = [[] for _ in range(4)]
        self.kongs: list[Counter[Tile]] = [Counter() for _ in range(4)]
        self.face_down = [0, 0, 0, 0]
        self.flowers: list[tuple[Tile, ...]] = [()] * 4
        self.flowers_read: list[tuple[Tile, ...]] = [()] * 4  # as read, before _spare_flower

    def prime(self, seen: TableObservation) -> None:
        """Take everything ``seen`` shows as reported (a reader starting mid-hand)."""
        for seat, now in enumerate(seen.seats):
            self.melds[seat] = [Counter(m.tiles) for m in now.melds]
            self.kongs[seat] = Counter(now.concealed_kongs)
            self.face_down[seat] = now.face_down_kongs
            self.flowers[seat] = self.flowers_read[seat] = now.flowers

    def melds_shown(self, seat: int) -> int:
        """The melds the seat has shown: each reported once (an added kong is its pung grown)."""
        reported = self.melds[seat]
        grown = sum(
            1 for m in reported if sum(m.values()) == 4 and Counter({next(iter(m)): 3}) in reported
        )
        return len(reported) - grown

    def is_added_kong(self, meld: MeldSeen) -> bool:
        """A kong of a kind the seat has reported a pung of: that pung grown in its own turn."""
        return meld.kind is MeldKind.KONG and Counter({meld.claimed: 3}) in self.melds[meld.seat]

    def forget_if_cleared(self, now: TableObservation) -> bool:
        """Forget everything when the table is cleared for the next hand (no river, no meld and
        no face-up tile anywhere); True then. A meld that vanishes while it is re-laid (a pung
        turned into an added kong, a hand passing over it) is still the same claim when it
        returns."""
        if not cleared(now):
            return False  # face-up tiles in a hand row: melds being re-laid, not a cleared table
        for reported in self.melds:
            reported.clear()
        for kongs in self.kongs:
            kongs.clear()
        self.face_down = [0, 0, 0, 0]
        self.flowers = [()] * 4
        self.flowers_read = [()] * 4
        return True

    def news(self, events: list[SeatObserved], now: TableObservation) -> list[SeatObserved]:
        """Of ``events``, what is news (:meth:`_news`), in order, each as it is reported."""
        return [told for event in events if (told := self._news(event, now)) is not None]

    def _news(self, event: SeatObserved, now: TableObservation) -> SeatObserved | None:
        """Report each meld once: a group that flickers back to part of a meld already reported
        (a kong seen as three tiles for a frame) is not a new claim, nor is a meld seen again
        unless the seat now shows more copies of it (two identical chows); a group that makes
        no legal meld is reported as :class:`MeldUnreadable`, never as a meld. A concealed kong,
        likewise, once (a back unread for a frame breaks it up); a kong laid face down once per
        kong the seat shows (one turned up at the hand's end is not a new one). A flower once
        per flower the seat shows: one hidden and seen again is not news; read again as another
        kind, with none more, it is :class:`FlowersCorrected`."""
        seat = now.seats[event.seat]
        if isinstance(event, FlowerSeen):
            return self._flower_news(event, seat.flowers)
        if isinstance(event, FaceDownKongSeen):
            if self.face_down[event.seat] >= seat.face_down_kongs:
                return None
            self.face_down[event.seat] += 1
            return event
        if isinstance(event, ConcealedKongSeen):
            kongs = self.kongs[event.seat]
            if kongs[event.tile] >= seat.concealed_kongs.count(event.tile):
                return None
            kongs[event.tile] += 1
            return event
        if not isinstance(event, MeldSeen):
            return event
        if event.kind is None:
            return MeldUnreadable(event.seat, event.tiles, event.source, event.claimed, event.frame)
        tiles = Counter(event.tiles)
        reported = self.melds[event.seat]
        if any(not tiles - earlier and tiles != earlier for earlier in reported):
            return None
        showing = sum(Counter(m.tiles) == tiles for m in seat.melds)
        if sum(earlier == tiles for earlier in reported) >= showing:
            return None
        reported.append(tiles)
        return event

    def _flower_news(self, event: FlowerSeen, showing: tuple[Tile, ...]) -> SeatObserved | None:
        seat = event.seat
        reported = self.flowers[seat]
        if len(showing) > len(reported):
            tile = event.tile
            taken = {t for flowers in self.flowers for t in flowers}
            spare = _spare_flower(tile, taken) if tile in taken else None
            self.flowers_read[seat] = (*self.flowers_read[seat], tile)
            if spare is not None:  # a set holds one of each: one of the two is misread
                event, tile = replace(event, tile=spare, read_as=tile), spare
            self.flowers[seat] = (*reported, tile)
            return event
        if Counter(showing) == Counter(self.flowers_read[seat]):
            return None
        self.flowers[seat] = self.flowers_read[seat] = showing
        return FlowersCorrected(seat, showing, event.frame)


def cleared(table: TableObservation) -> bool:
    """The table shows no river tile, meld, kong, flower or face-up tile in a hand row: cleared
    for the next hand (or dealt, before its first discard)."""
    return not any(
        s.river or s.melds or s.revealed or s.concealed_kongs or s.face_down_kongs or s.flowers
        for s in table.seats
    )


def _spare_flower(read: Tile, taken: set[Tile]) -> Tile | None:
    """A flower not yet on the table for one read as a kind already there: the lowest free
    one of its group (flowers 1-4, seasons 5-8), else of the other; None when all eight are."""
    group = range(1, 5) if read.rank <= 4 else range(5, 9)
    other = range(5, 9) if read.rank <= 4 else range(1, 5)
    for number in (*group, *other):
        tile = Tile.parse(f"{number}f")
        if tile not in taken:
            return tile
    return None
