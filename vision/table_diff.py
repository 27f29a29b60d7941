"""What changed between two stabilised observations of the table, as observations
(:mod:`vision.observed`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.tiles import Meld, MeldKind, Tile
from vision.hand_row import MeldObservation
from vision.observation import SeatObservation, TableObservation
from vision.observed import (
    ConcealedKongSeen,
    DiscardSeen,
    FaceDownKongSeen,
    FlowerSeen,
    HandRevealed,
    MeldSeen,
    RiverCorrected,
    RiverTaken,
    SeatObserved,
)


def meld_of(observed: MeldObservation) -> Meld | None:
    """The engine meld an observation shows, or None when the tiles make no meld."""
    tiles = observed.tiles
    if len(tiles) == 4:
        kind = MeldKind.KONG
    elif len(set(tiles)) == 1:
        kind = MeldKind.PUNG
    else:
        kind = MeldKind.CHOW
    try:
        return Meld(kind, tiles, observed.source, tiles[observed.sideways_index])
    except ValueError:
        return None


def sets_beside(seat: SeatObservation) -> int:
    """Sets the seat shows besides its face-up hand: melds and kongs with backs showing."""
    return len(seat.melds) + len(seat.concealed_kongs) + seat.face_down_kongs


def a_whole_hand(seat: SeatObservation) -> bool:
    """A hand laid face up to claim a win shows all its tiles: with the seat's melds (three
    each) at least 13 of the 14 (one may still be under a hand). Fewer face-up tiles in the
    hand row are not a reveal; most often melds whose turned tile was not read for a moment."""
    return bool(seat.revealed) and len(seat.revealed) + 3 * sets_beside(seat) >= 13


def overfull(seat: SeatObservation) -> bool:
    """More than 14 tiles (a four of a kind in the hand may be a kong turned up: three), or
    five of a kind, between the face-up hand and the seat's sets: no hand looks like that, so
    tiles of a meld row being re-laid (a kong just added) are still read as part of the hand."""
    kinds = Counter(seat.revealed)
    fours = sum(1 for count in kinds.values() if count == 4)
    for meld in seat.melds:
        kinds.update(meld.tiles)
    for kind in seat.concealed_kongs:
        kinds[kind] += 4
    tiles = len(seat.revealed) - fours + 3 * sets_beside(seat)
    return tiles > 14 or max(kinds.values(), default=0) > 4


def one_short(seat: SeatObservation) -> bool:
    """A revealed hand one tile short of 14 (the tile won on not laid yet, or one under a hand;
    a kong turned up counts four, so a hand beside one never reads as short)."""
    return bool(seat.revealed) and len(seat.revealed) + 3 * sets_beside(seat) == 13


def diff(
    before: TableObservation | None,
    after: TableObservation,
    frame: int,
    reported: Sequence[tuple[Tile, ...]] | None = None,
) -> list[SeatObserved]:
    """What turns ``before`` into ``after``. ``reported``: each seat's river as its discards
    were reported, before any correction since (see :func:`_new_from`)."""
    events: list[SeatObserved] = []
    for seat, now in enumerate(after.seats):
        old = _EMPTY if before is None else before.seats[seat]
        river = now.river
        if river[: len(old.river)] == old.river:
            events += _discards(seat, river, len(old.river), frame)
        elif old.river[: len(river)] == river:
            events += [RiverTaken(seat, tile, frame) for tile in old.river[len(river) :]]
        else:
            events.append(RiverCorrected(seat, river, frame))
            as_reported = reported[seat] if reported is not None else old.river
            events += _discards(seat, river, _new_from(old.river, as_reported, river), frame)
        unmatched = list(old.melds)  # a multiset: a second identical chow is a new meld
        for observed in now.melds:
            if observed in unmatched:
                unmatched.remove(observed)
                continue
            meld = meld_of(observed)
            claimed = observed.tiles[observed.sideways_index]
            kind = meld.kind if meld else None
            events.append(MeldSeen(seat, kind, observed.tiles, observed.source, claimed, frame))
        for tile in (Counter(now.concealed_kongs) - Counter(old.concealed_kongs)).elements():
            events.append(ConcealedKongSeen(seat, tile, frame))
        for _ in range(now.face_down_kongs - old.face_down_kongs):
            events.append(FaceDownKongSeen(seat, frame))
        for tile in (Counter(now.flowers) - Counter(old.flowers)).elements():
            events.append(FlowerSeen(seat, tile, frame))
        if now.revealed != old.revealed and a_whole_hand(now):
            events.append(
                HandRevealed(
                    seat,
                    now.revealed,
                    sets_beside(now),
                    frame,
                    face_down_kongs=now.face_down_kongs,  # not turned up: not in ``tiles``
                    fours_apart=now.fours_apart,  # four of a kind alone: a kong turned up
                    win_tile=now.win_apart,  # laid apart: the self-drawn winning tile (单摆)
                )
            )
    return events


_EMPTY = SeatObservation((), (), ())


def _discards(seat: int, river: tuple[Tile, ...], start: int, frame: int) -> list[DiscardSeen]:
    """Discards of ``river[start:]``."""
    return [DiscardSeen(seat, river[index], index, frame) for index in range(start, len(river))]


def _new_from(old: tuple[Tile, ...], reported: tuple[Tile, ...], new: tuple[Tile, ...]) -> int:
    """Where new discards start in a corrected river ``new``: after the published river
    ``old`` or, if that says earlier, after the river as its discards were reported. A tile
    misread as the next discard's kind just as that discard lands reads first as the last
    tile corrected, then as a tile put back before it; against the published river alone the
    new discard at the end was never new."""
    start = _end_of_old(old, new)
    return min(start, _end_of_old(reported, new)) if reported != old else start


def _end_of_old(old: tuple[Tile, ...], new: tuple[Tile, ...]) -> int:
    """Where the published river ``old`` ends in a corrected river ``new``: just after the
    tile that ``old``'s last tile is in the best alignment of the two (longest common
    subsequence), so tiles after it are new discards; ``len(new)`` (none new) when the
    alignment leaves ``old``'s last tile unmatched (the last tile itself was corrected), or
    when a tile after it is one that left the old river (tiles read in another order)."""
    if not old:
        return 0
    common = _common_lengths(old, new)  # its row len(old) - 1 is old[:-1] against new
    best = common[len(old)][len(new)]
    for j in range(len(new) - 1, -1, -1):
        if new[j] == old[-1] and common[len(old) - 1][j] == best - 1:
            gone = Counter(old) - Counter(new[: j + 1])
            return len(new) if gone & Counter(new[j + 1 :]) else j + 1
    return len(new)


def common_in_order(a: tuple[Tile, ...], b: tuple[Tile, ...]) -> int:
    """How many tiles ``a`` and ``b`` share in the same order (not necessarily side by side)."""
    return _common_lengths(a, b)[-1][-1]


def _common_lengths(a: tuple[Tile, ...], b: tuple[Tile, ...]) -> list[list[int]]:
    """``table[i][j]``: the longest common subsequence of ``a[:i]`` and ``b[:j]``."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = (
                table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
            )
    return table


def melds_in_flux(now: SeatObservation, reported: int) -> bool:
    """The seat is mid-claim or re-laying its melds: one of its groups reads as no legal meld (a
    tile still misread), or fewer groups read than melds were reported while face-up tiles that
    make no whole hand lie in its hand row (an added kong pushed together, its turned tile not
    read for a moment), or more than a hand (:func:`overfull`: the melds beside an added kong
    pushed along, read into the hand row). Each half alone held discards too long; see
    docs/vision.md."""
    if any(meld_of(meld) is None for meld in now.melds):
        return True
    settled = a_whole_hand(now) and not overfull(now)
    return len(now.melds) < reported and bool(now.revealed) and not settled


def in_play_order(
    events: Sequence[SeatObserved],
    last_discarder: int | None = None,
    added_kongs: set[int] | frozenset[int] = frozenset(),
) -> list[SeatObserved]:
    """The events one settled frame brings, in the order they were played. Positions give each
    seat's own order; across seats: river changes, then melds (a claim follows the discard it
    takes), then the discards of seats that just melded (a claimer discards after claiming; a
    meld is often confirmed late, in the frame that also confirms that discard), then hands.
    Discards of several seats go in turn order from the seat after ``last_discarder`` (the
    seat of the last discard published before them), a lap at a time when a seat has several.
    An added kong (seats in ``added_kongs``) takes no discard: it is made in its seat's own
    turn, just before that seat's discard; so is a concealed kong, face down or not, and a
    flower set aside."""
    melders = {e.seat for e in events if isinstance(e, MeldSeen)} - set(added_kongs)
    first = 0 if last_discarder is None else last_discarder + 1
    lap = {id(e): n for seat in range(4) for n, e in enumerate(_discards_of(events, seat))}

    def key(event: SeatObserved) -> tuple[int, int, int, int]:
        turn = (event.seat - first) % 4
        own_turn = isinstance(event, MeldSeen) and event.seat in added_kongs
        if own_turn or isinstance(event, ConcealedKongSeen | FaceDownKongSeen | FlowerSeen):
            return 0, 0, turn, 0
        if isinstance(event, DiscardSeen) and event.seat in melders:
            return 2, 0, turn, 1
        group = 1 if isinstance(event, MeldSeen) else 3 if isinstance(event, HandRevealed) else 0
        return group, lap.get(id(event), 0), turn, 1

    return sorted(events, key=key)


def _discards_of(events: Sequence[SeatObserved], seat: int) -> list[DiscardSeen]:
    """``seat``'s discards among ``events``, in its river's order: the first goes in the
    first lap of play, the second in the next (a process that was down sees several)."""
    return [e for e in events if isinstance(e, DiscardSeen) and e.seat == seat]
