"""When a revealed hand is published: a hand laid down is held back a moment while what it
means is still changing on the table.

- Beside a kong still face down, up to ``hold_frames``: the kong is turned up with the hand
  (laying a hand and turning a kong up take a moment each); shown with it, its kind scores.
- One tile short of 14 (:func:`vision.table_diff.one_short`), up to ``hold_frames``: the tile
  won on, or another, is still being laid.
- Overfull (:func:`overfull`: more than 14 tiles or five of a kind with the seat's sets), or
  showing fewer melds than it has shown, up to ``hold_frames``: a meld row re-laid just
  before (an added kong pushes the melds beside it along) still reads into the hand.
- Whole, while the last discard (another seat's, not claimed) still lies at the end of its
  river and its kind is in the hand, up to ``self_draw_frames``: won on that discard, the tile
  leaves the river (the stabiliser removes a tile only after it has been gone a while); if it
  stays, the hand was self-drawn. Published, the ``hand_revealed`` says which
  (``discard_in_river``).
- Whole, but making no winning shape (:func:`no_winning_shape`), up to ``hold_frames``: most
  often a tile misread for a moment (a 3m read as 5m under a hand or in a blurred frame); read
  right within the hold, the hand is published as a win, with no false-win alert for the referee.
  A hand that really is no win is published ``hold_frames`` late.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.rulesets import any_winning_shape
from engine.scoring.decompose import SetKind, TileSet, counts_of
from engine.tiles import Tile
from vision.observation import SeatObservation, TableObservation
from vision.table_diff import a_whole_hand, one_short, overfull, sets_beside


@dataclass(frozen=True)
class LastDiscard:
    seat: int
    tile: Tile
    claimed: bool = False
    index: int | None = None  # its place in the river (None: not known)


def discard_in_river(
    observation: TableObservation, last: LastDiscard | None, seat: int
) -> Tile | None:
    """The last discard's tile while it still lies at the end of its river, made by a seat
    other than ``seat`` and not claimed; else None. Its place counts, not only its kind: taken,
    it may leave a discard of the same kind before it at the river's end."""
    if last is None or last.claimed or last.seat == seat:
        return None
    river = observation.seats[last.seat].river
    if last.index is not None and len(river) != last.index + 1:
        return None
    return last.tile if river and river[-1] == last.tile else None


def no_winning_shape(seat: SeatObservation) -> bool:
    """A revealed hand of 14 tiles with the seat's sets that makes no winning shape of any rule
    set (four sets and a pair, seven pairs, thirteen orphans, MCR's knitted hands). A four of a
    kind in the hand row counts as a kong turned up where the count needs it. False for a hand
    of another size: :func:`one_short` and :func:`overfull` answer for those."""
    counts = list(counts_of(seat.revealed))
    sets = sets_beside(seat)
    fours = [i for i, n in enumerate(counts) if n == 4]
    while sum(counts) > 14 - 3 * sets and fours:
        counts[fours.pop()] = 0
        sets += 1
    if sum(counts) != 14 - 3 * sets or sets > 4:
        return False
    placeholders = [TileSet(SetKind.KONG, 0, declared=True)] * sets  # only their number counts
    return not any_winning_shape(tuple(counts), placeholders)


@dataclass
class RevealHold:
    hold_frames: int = 12
    self_draw_frames: int = 20
    held: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    def apply(
        self,
        published: TableObservation | None,
        observation: TableObservation,
        last: LastDiscard | None,
        melds_shown: Sequence[int] = (0, 0, 0, 0),
    ) -> TableObservation:
        """``observation`` with the revealed hands still held back replaced by those published;
        ``melds_shown``: how many melds each seat has shown (the reader's reports)."""
        if published is None:
            return observation
        seats = list(observation.seats)
        for seat, (old, now) in enumerate(zip(published.seats, seats, strict=True)):
            limit = 0
            if now.revealed != old.revealed and a_whole_hand(now):
                unsettled = overfull(now) or len(now.melds) < max(len(old.melds), melds_shown[seat])
                if now.face_down_kongs or one_short(now) or unsettled:
                    limit = self.hold_frames
                elif discard_in_river(observation, last, seat) in now.revealed:
                    limit = self.self_draw_frames
                elif no_winning_shape(now):
                    limit = self.hold_frames
            if self.held[seat] >= limit:  # nothing to wait for, or waited long enough
                self.held[seat] = 0 if limit == 0 else self.held[seat]
                continue
            self.held[seat] += 1
            seats[seat] = replace(now, revealed=old.revealed)
        return TableObservation(tuple(seats))
