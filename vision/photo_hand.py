"""What a photographed hand reads as: its groups of tiles, the hand they make and the doubts a
referee must check (vision.hand_photo reads them from a photo's tiles)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.notation import Hand, format_meld, format_tiles
from engine.rulesets import any_winning_shape
from engine.scoring.decompose import SetKind, TileSet, counts_of
from engine.tiles import Meld, Tile, excess_copies
from vision.photo import PhotoTile


class GroupKind(enum.Enum):
    MELD = "meld"  # exposed: chow, pung or kong
    CONCEALED_KONG = "concealed_kong"  # four upright, ends or middle face down
    FACE_DOWN_KONG = "face_down_kong"  # four backs: a kong of unseen kind
    CONCEALED = "concealed"  # concealed tiles, as laid between gaps
    APART = "apart"  # one tile laid apart right of the concealed tiles: the self-drawn win
    FLOWERS = "flowers"  # set aside, wherever they lie; never part of the hand
    OUTSIDE = "outside"  # tiles away from the hand's rows, not counted


@dataclass(frozen=True)
class Doubt:
    """Something the referee must check; ``members`` index the photo's tiles."""

    kind: str
    message: str
    members: tuple[int, ...] = ()
    #: shown, but no reason to hold the total back (tiles away from a whole, valid hand)
    note: bool = False

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "message": self.message}
        out["tiles"] = list(self.members)
        out["note"] = self.note
        return out


@dataclass(frozen=True)
class TileGroup:
    """Tiles read together; ``members`` index the photo's tiles from the owner's left."""

    kind: GroupKind
    members: tuple[int, ...]
    row: int | None  # 0 the front row (nearest the owner); None off the rows
    tiles: tuple[Tile, ...] = ()  # the faces, in the same order (backs left out)
    meld: Meld | None = None

    @property
    def counted(self) -> int:
        """Tiles toward the 14 of a hand, kongs counting 3."""
        if self.kind in (GroupKind.MELD, GroupKind.CONCEALED_KONG, GroupKind.FACE_DOWN_KONG):
            return 3
        return len(self.tiles) if self.kind in (GroupKind.CONCEALED, GroupKind.APART) else 0

    @property
    def notation(self) -> str | None:
        if self.meld is not None:
            return format_meld(self.meld)
        return None if self.kind is GroupKind.FACE_DOWN_KONG else format_tiles(self.tiles)

    def to_dict(self) -> dict[str, object]:
        members = list(self.members)
        return {
            "kind": self.kind.value,
            "row": self.row,
            "tiles": members,
            "notation": self.notation,
        }


@dataclass(frozen=True)
class PhotoHand:
    """What :func:`read_hand` made of a photo's tiles."""

    tiles: tuple[PhotoTile, ...]
    rows: tuple[tuple[int, ...], ...]  # front to back, each from the owner's left
    groups: tuple[TileGroup, ...]
    reading_doubts: tuple[Doubt, ...] = ()

    def _of(self, *kinds: GroupKind) -> list[TileGroup]:
        return [g for g in self.groups if g.kind in kinds]

    @property
    def melds(self) -> tuple[Meld, ...]:
        return tuple(g.meld for g in self.groups if g.meld is not None)

    @property
    def concealed(self) -> tuple[Tile, ...]:
        """The concealed faces, the tile laid apart last."""
        return tuple(t for g in self._of(GroupKind.CONCEALED, GroupKind.APART) for t in g.tiles)

    @property
    def apart(self) -> Tile | None:
        return next((g.tiles[0] for g in self._of(GroupKind.APART)), None)

    @property
    def flowers(self) -> tuple[Tile, ...]:
        return tuple(t for g in self._of(GroupKind.FLOWERS) for t in g.tiles)

    @property
    def counted(self) -> int:
        """Tiles toward the 14 of a hand, kongs counting 3."""
        return sum(g.counted for g in self.groups)

    @property
    def face_down_kongs(self) -> int:
        return len(self._of(GroupKind.FACE_DOWN_KONG))

    @property
    def doubts(self) -> tuple[Doubt, ...]:
        """The reading's doubts and those of the hand as read."""
        return self.doubts_for(None)

    def hand_for(self, win: Tile | None) -> Hand:
        """The hand less the winning tile, sorted: ``win`` is taken out of the concealed tiles
        of a whole hand; of a hand a tile short (or with no copy of it) it is the tile the photo
        does not show (a discard won on, not laid down)."""
        rest = list(self.concealed)
        if win in rest and self.counted >= 14:
            rest.remove(win)
        return Hand(tuple(sorted(rest)), self.melds)

    def doubts_for(self, win: Tile | None, *, won: bool = False) -> tuple[Doubt, ...]:
        """The doubts of the hand won on ``win``; ``won``: a rule set scored it a win."""
        doubts = hand_doubts(self.hand_for(win), win, self.face_down_kongs, won=won)
        return self.reading_doubts + doubts


def hand_doubts(
    hand: Hand, win: Tile | None, face_down_kongs: int = 0, *, won: bool = False
) -> tuple[Doubt, ...]:
    """Why ``hand`` (plus ``win``) is no whole winning hand: its count (kongs as 3), a fifth
    copy, no winning shape of any rule set (MCR's shapes; not checked when ``won``, a rule set
    having scored it a win in a shape of its own). Flowers are only counted: a kind read twice
    is no doubt."""
    concealed = hand.concealed + ((win,) if win is not None else ())
    count = len(concealed) + 3 * (len(hand.melds) + face_down_kongs)
    out = [] if count == 14 else [Doubt("tile_count", f"{count} tiles (kongs as 3), 14 needed")]
    excess = excess_copies((*concealed, *(t for m in hand.melds for t in m.tiles)))
    out += [Doubt("fifth_copy", f"{n} copies of {t}: a set holds fewer") for t, n in excess.items()]
    if count == 14 and not excess and not face_down_kongs and not won:
        sets = [TileSet(SetKind.KONG, 0, declared=True)] * len(hand.melds)  # only their number
        if not any_winning_shape(counts_of(concealed), sets):
            out.append(Doubt("no_winning_shape", "the tiles make no winning shape"))
    return tuple(out)
