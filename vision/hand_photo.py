"""A revealed winning hand read from a referee's photo: rows, groups, melds and doubts.

The photo shows the hand face up from any angle up to about 45 degrees and at any turn, in one
row or in two (melds in front, concealed tiles behind). A tile's own quad says where its row
runs (an upright tile's top edge lies along it, a turned tile's side), so rows are found
without a calibration, and perspective only changes the local scale: gaps are measured in the
widths of the tiles beside them. Each group is read by the overhead camera's rules
(:func:`vision.hand_row.split_hand_row`): one turned tile makes a meld claimed from the side it
lies on, four upright tiles with backs a concealed kong. Whatever is unsure is a :class:`Doubt`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from engine.notation import NotationError, format_meld, parse_tile
from engine.tiles import Meld, MeldKind, RelativeSeat, Tile, meld_shape_problem
from vision.faces import BACK, Face
from vision.hand_photo_rows import (
    TilePose,
    hand_rows,
    near_row,
    one_per_tile,
    owner_up,
    pose,
    split_at_gaps,
)
from vision.hand_row import HandRow, split_hand_row
from vision.layout import TILE_W
from vision.photo import PhotoTile
from vision.photo_hand import Doubt, GroupKind, PhotoHand, TileGroup


def read_hand(photo_tiles: Sequence[PhotoTile]) -> PhotoHand:
    """Rows, groups and doubts of a revealed hand's tiles, given in any order."""
    return _Reading(tuple(photo_tiles)).hand()


@dataclass
class _Seen:  # a tile as vision.hand_row reads it
    face: Face
    sideways: bool


class _Reading:
    """One photo's tiles being read: their kinds, poses and the doubts found so far."""

    def __init__(self, tiles: tuple[PhotoTile, ...]) -> None:
        self.tiles = tiles
        self.kinds = {i: _kind(t.tile) for i, t in enumerate(tiles)}
        self.doubts = [
            Doubt("doubted_tile", _unsure(t), (i,)) for i, t in enumerate(tiles) if _doubtful(t)
        ]
        for i, t in enumerate(tiles):
            if t.tile != "back" and self.kinds[i] is None:
                self._doubt("unknown_tile", f"not a tile: {t.tile!r}", (i,))
        self.poses: dict[int, TilePose] = {}

    def hand(self) -> PhotoHand:
        known = [i for i, t in enumerate(self.tiles) if t.tile == "back" or self.kinds[i]]
        kept, twins = one_per_tile(self.tiles, known)
        for a, b in twins:
            why = f"one tile read twice: {self.tiles[a].tile} (kept) or {self.tiles[b].tile}"
            self._doubt("overlap", why, (a, b))
        flowers = [i for i in kept if (kind := self.kinds[i]) is not None and kind.is_flower]
        flowers.sort(key=lambda i: self.tiles[i].tile)
        body = [i for i in kept if i not in flowers]
        up = owner_up([self.tiles[i] for i in body if self.tiles[i].tile != "back"])
        self.poses = {i: pose(self.tiles[i], up) for i in body}
        rows, outside = hand_rows(self.poses, up)
        flowers, away = self._flowers_by(flowers, rows, up)
        outside = sorted(outside + away)
        groups = [self._group(GroupKind.FLOWERS, flowers, None)] if flowers else []
        for n, row in enumerate(split_at_gaps(rows, self.poses)):
            for members in row:
                groups += self._read_group(members, n, front=n == 0 and len(rows) > 1)
        if outside:  # how the game's other tiles read is no doubt about the hand
            away = set(outside)
            self.doubts = [d for d in self.doubts if not _only_about(d, away)]
            groups.append(self._group(GroupKind.OUTSIDE, outside, None))
            self._doubt("outside", f"{len(outside)} tile(s) away from the hand's rows", outside)
        groups = self._settle(groups)
        return PhotoHand(self.tiles, tuple(map(tuple, rows)), tuple(groups), tuple(self.doubts))

    def _flowers_by(
        self, flowers: list[int], rows: list[list[int]], up: np.ndarray
    ) -> tuple[list[int], list[int]]:
        """The flowers set aside by the hand (near its rows: counted) and those lying away
        among the table's other tiles (not counted, and doubted: a flower changes the total)."""
        hand = [i for row in rows for i in row]
        if not hand:
            return flowers, []
        poses = {**self.poses, **{i: pose(self.tiles[i], up) for i in flowers}}
        away = [i for i in flowers if not near_row(poses[i], hand, poses)]
        for i in away:
            why = f"a flower ({self.tiles[i].tile}) away from the hand: not counted; check it"
            self._doubt("flower_away", why, (i,))
        return [i for i in flowers if i not in away], away

    def _group(
        self, kind: GroupKind, members: Sequence[int], row: int | None, meld: Meld | None = None
    ) -> TileGroup:
        return TileGroup(
            kind, tuple(members), row, tuple(k for i in members if (k := self.kinds[i])), meld
        )

    def _doubt(self, kind: str, message: str, members: Sequence[int]) -> None:
        self.doubts.append(Doubt(kind, message, tuple(members)))

    def _read_group(self, members: list[int], row: int, *, front: bool) -> list[TileGroup]:
        """One group between gaps: a kong with backs, melds, or concealed tiles."""
        read = self._split(members)
        if read.face_down_kongs:
            self._doubt("face_down_kong", "a kong laid face down: its kind is not seen", members)
            return [self._group(GroupKind.FACE_DOWN_KONG, members, row)]
        if read.concealed_kongs:
            kong = Meld(MeldKind.CONCEALED_KONG, (read.concealed_kongs[0],) * 4)
            return [TileGroup(GroupKind.CONCEALED_KONG, tuple(members), row, kong.tiles, kong)]
        backs = [i for i in members if self.tiles[i].tile == "back"]
        if backs:
            self._doubt("unexpected_back", "a back where a face was expected", backs)
        faces = [i for i in members if i not in backs]
        if not any(self.poses[i].turned for i in faces):
            meld = _meld(self._group(GroupKind.MELD, faces, row).tiles) if front else None
            if meld is None:
                return [self._group(GroupKind.CONCEALED, faces, row)] if faces else []
            why = f"{format_meld(meld)} in the meld row has no turned tile: exposed, source unknown"
            self._doubt("meld_not_turned", why, faces)
            return [self._group(GroupKind.MELD, faces, row, meld)]
        melds = self._melds(faces, row)
        if melds is not None:
            return melds
        turned = [k for k, i in enumerate(faces) if self.poses[i].turned]
        n = len(faces)
        for start, end in [(0, k) for k in range(n - 1, 2, -1)] + [(k, n) for k in range(1, n - 2)]:
            melds = (
                self._melds(faces[start:end], row)
                if start <= min(turned) and max(turned) < end
                else None
            )
            if melds is not None:
                self._doubt("meld_touching", "no gap between a meld and the concealed tiles", faces)
                return [*melds, self._group(GroupKind.CONCEALED, faces[:start] + faces[end:], row)]
        text = " ".join(self.tiles[i].tile + "*" * self.poses[i].turned for i in faces)
        self._doubt("illegal_group", f"{text} (* turned) makes no legal meld", faces)
        return [self._group(GroupKind.CONCEALED, faces, row)]

    def _melds(self, faces: list[int], row: int) -> list[TileGroup] | None:
        """``faces`` as melds laid side by side, each with one turned tile; else None."""
        read = self._split(faces)
        if read.revealed or not read.melds:
            return None
        groups, start = [], 0
        for seen in read.melds:
            members = faces[start : start + len(seen.tiles)]
            start += len(seen.tiles)
            meld = _meld(seen.tiles, seen.source, seen.tiles[seen.sideways_index])
            if meld is None:
                return None
            groups.append(self._group(GroupKind.MELD, members, row, meld))
        return groups

    def _split(self, members: list[int]) -> HandRow:
        """``members`` read as one group laid touching, by the overhead camera's rules. A back
        counts as upright: its quad's turn is a guess (seen slanted, an upright tile's length
        can look shorter than its width), and only concealed kongs show backs."""
        seen = [_Seen(self.kinds[i] or BACK, self._turned(i)) for i in members]  # known kinds
        return split_hand_row([(k * TILE_W, (k + 1) * TILE_W, s) for k, s in enumerate(seen)])

    def _turned(self, i: int) -> bool:
        return self.poses[i].turned and self.tiles[i].tile != "back"

    def _settle(self, groups: list[TileGroup]) -> list[TileGroup]:
        """Four upright faces of a kind alone are a kong turned up when the count needs it; a
        single face right of the other concealed tiles of a whole hand is the tile laid apart."""
        count = sum(g.counted for g in groups)
        fours = [n for n, g in enumerate(groups) if g.kind is GroupKind.CONCEALED and _four(g)]
        while count > 14 and fours:
            n = fours.pop()
            group = groups[n]
            meld = Meld(MeldKind.CONCEALED_KONG, group.tiles)
            groups[n] = replace(group, kind=GroupKind.CONCEALED_KONG, meld=meld)
            why = f"four {group.tiles[0]} laid face up: read as a concealed kong"
            self._doubt("four_as_kong", why, group.members)
            count -= 1
        loose = [n for n, g in enumerate(groups) if g.kind is GroupKind.CONCEALED]
        if count != 14 or not loose:
            return groups
        main = max(
            {groups[n].row for n in loose},
            key=lambda row: sum(len(groups[n].tiles) for n in loose if groups[n].row == row),
        )
        in_row = [n for n in loose if groups[n].row == main]
        last = groups[in_row[-1]]
        if len(in_row) > 1 and len(last.tiles) == 1:
            groups[in_row[-1]] = replace(last, kind=GroupKind.APART)
        return groups


def _meld(
    tiles: tuple[Tile, ...], source: RelativeSeat | None = None, claimed: Tile | None = None
) -> Meld | None:
    """The chow, pung or kong ``tiles`` make, or None."""
    if len(tiles) not in (3, 4):
        return None
    same = len(set(tiles)) == 1
    kind = MeldKind.KONG if len(tiles) == 4 else MeldKind.PUNG if same else MeldKind.CHOW
    ordered = tuple(sorted(tiles))
    return None if meld_shape_problem(kind, ordered) else Meld(kind, ordered, source, claimed)


def _only_about(doubt: Doubt, tiles: set[int]) -> bool:
    """A doubt about how tiles of ``tiles`` (away from the hand) read, and nothing else."""
    readings = ("doubted_tile", "unknown_tile", "overlap")
    return doubt.kind in readings and bool(doubt.members) and set(doubt.members) <= tiles


def _four(group: TileGroup) -> bool:
    return len(group.tiles) == 4 and len(set(group.tiles)) == 1


def _kind(name: str) -> Tile | None:
    try:
        return None if name == "back" else parse_tile(name)
    except NotationError:
        return None


def _doubtful(tile: PhotoTile) -> bool:
    """Doubted, unless only which flower it is: a win is scored on the number of flowers."""
    flowers = [tile.tile, *(name for name, _ in tile.alternatives[:1])]
    return tile.doubted and not (tile.alternatives and all(n.endswith("f") for n in flowers))


def _unsure(tile: PhotoTile) -> str:
    runner = "".join(f"; or {name} {p:.2f}" for name, p in tile.alternatives[:1])
    edge = ", cut off by the photo's edge" if tile.cut_off else ""
    return f"{tile.tile} is unsure ({tile.confidence:.2f}{runner}{edge})"
