"""A seat's hand row read as groups: melds, revealed tiles, concealed kongs and flowers.

Items are (start, end, tile) along the row from the owner's left, in table units; groups are
split at gaps. See :func:`split_hand_row`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.tiles import RelativeSeat, Tile
from vision.faces import BACK, Face, is_flower
from vision.layout import TILE_W


class Seen(Protocol):
    """A stabilised tile: its face (a tile or ``BACK``) and whether it lies turned."""

    face: Face
    sideways: bool


@dataclass(frozen=True)
class MeldObservation:
    tiles: tuple[Tile, ...]
    sideways_index: int  # position of the turned tile, from the owner's left
    source: RelativeSeat  # who it was claimed from, read from the turned tile's side


@dataclass(frozen=True)
class HandRow:
    """What :func:`split_hand_row` read in one seat's hand row."""

    melds: tuple[MeldObservation, ...]
    revealed: tuple[Tile, ...]  # face-up tiles not in a meld or a kong with backs
    concealed_kongs: tuple[Tile, ...]  # one tile per kong laid with backs showing
    face_down_kongs: int  # kongs laid all face down
    fours_apart: tuple[Tile, ...] = ()  # kinds of groups of four faces alone (in ``revealed``)
    flowers: tuple[Tile, ...] = ()  # flowers set aside, from the owner's left
    apart: Tile | None = None  # a face laid alone right of the other revealed tiles (in them)


def split_hand_row(items: Sequence[tuple[float, float, Seen]]) -> HandRow:
    """Groups separated by a gap; a group of 3-4 with one turned tile is a meld, and a longer
    one with several turned tiles several melds laid touching when it cuts into such; four upright
    tiles, face down but for one to three faces of one kind, are a concealed kong, and four
    upright backs a kong laid face down (counted). Other backs are left out (a stray back does
    not hide the faces beside it). Four upright faces of one kind standing alone (most often a
    face-down kong turned up) are revealed tiles, their kind noted in ``fours_apart``.

    Flowers are never part of a meld or a hand: wherever they lie in the row they are the
    flowers the seat set aside. A single face laid alone to the right of the other revealed
    tiles of a whole hand is noted as ``apart``: a self-drawn winning tile is laid apart for
    checking (单摆); in a hand a tile short, the gap is more likely the missing tile's."""
    in_order = [track for _, _, track in sorted(items, key=lambda item: item[0])]
    flowers = tuple(track.face for track in in_order if is_flower(track.face))
    groups: list[list[tuple[float, float, Seen]]] = []
    rest = [item for item in items if not is_flower(item[2].face)]
    for item in sorted(rest, key=lambda item: item[0]):
        if groups and item[0] - groups[-1][-1][1] < 0.2 * TILE_W:
            groups[-1].append(item)
        else:
            groups.append([item])
    melds: list[MeldObservation] = []
    revealed: list[Tile] = []
    kongs: list[Tile] = []
    fours: list[Tile] = []
    face_down = 0
    loose: list[tuple[Tile, ...]] = []  # the revealed groups, from the owner's left
    for whole in groups:
        shown = [track.face for _, _, track in whole]
        faces = {seen for seen in shown if seen is not BACK}
        upright = not any(track.sideways for _, _, track in whole)
        if len(whole) == 4 and upright and len(faces) <= 1 and BACK in shown:
            if faces:
                kongs.append(faces.pop())
            else:
                face_down += 1
            continue
        group = [(track.face, track.sideways) for _, _, track in whole if track.face is not BACK]
        if not group:
            continue
        turned = [i for i, (_, sideways) in enumerate(group) if sideways]
        tiles = tuple(tile for tile, _ in group)
        pieces = _touching_melds(tiles, turned) if len(turned) > 1 else None
        if len(turned) == 1 and len(group) in (3, 4):
            melds.append(_meld(tiles, turned[0]))
        elif pieces is not None:
            melds += [
                _meld(tiles[a:b], next(i - a for i in turned if a <= i < b)) for a, b in pieces
            ]
        else:
            revealed.extend(tiles)
            if len(whole) == 4 and upright and len(set(tiles)) == 1:
                fours.append(tiles[0])
            else:  # a kong turned up beside the hand is no group of it (nor a tile laid apart)
                loose.append(tiles)
    sets = len(melds) + len(kongs) + face_down
    whole = 0 <= len(revealed) + 3 * sets - 14 <= len(fours)  # a four may be a kong: three
    apart = loose[-1][0] if whole and len(loose) > 1 and len(loose[-1]) == 1 else None
    return HandRow(
        tuple(melds), tuple(revealed), tuple(kongs), face_down, tuple(fours), flowers, apart
    )


def _meld(tiles: tuple[Tile, ...], index: int) -> MeldObservation:
    """A meld whose turned tile is at ``index``: its side tells who it was claimed from."""
    source = (
        RelativeSeat.UPPER
        if index == 0
        else RelativeSeat.LOWER
        if index == len(tiles) - 1
        else RelativeSeat.OPPOSITE
    )
    return MeldObservation(tiles, index, source)


def _touching_melds(tiles: tuple[Tile, ...], turned: list[int]) -> list[tuple[int, int]] | None:
    """Melds laid touching (no gap read between them; a box's jitter closes a narrow one): the
    group cut into runs of 3-4 tiles, each with one turned tile and each a pung, kong or chow,
    as (start, end) pairs; None when it cannot be cut so, or holds more than four of a kind
    (a meld re-laid as a kong, its old and new places read together for a moment)."""
    if max(Counter(tiles).values()) > 4:
        return None

    def cut(start: int) -> list[tuple[int, int]] | None:
        if start == len(tiles):
            return []
        for end in (start + 3, start + 4):
            piece = tiles[start:end]
            if len(piece) < end - start or sum(start <= i < end for i in turned) != 1:
                continue
            rest = cut(end) if _could_be_meld(piece) else None
            if rest is not None:
                return [(start, end), *rest]
        return None

    return cut(0)


def _could_be_meld(tiles: tuple[Tile, ...]) -> bool:
    if len(set(tiles)) == 1:
        return True
    ranks = sorted(t.rank for t in tiles)
    same_suit = len({t.suit for t in tiles}) == 1 and tiles[0].is_numbered
    return len(tiles) == 3 and same_suit and ranks == list(range(ranks[0], ranks[0] + 3))
