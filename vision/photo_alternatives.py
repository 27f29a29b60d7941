"""A photographed hand that is no win as read, tried again with its doubted tiles edited.

The reader names, for each tile it doubts, the kinds it found next likeliest, and for each box
how sure the detector was that it is a tile at all. A referee's photo is of a winning hand, so
when the tiles as read make no valid win, the likeliest edit that does make one is a better
reading to show: a doubted tile read as one of its runners-up, or a weak box taken for no tile
(the side of a turned tile, a tile's edge seen twice) or a doubted reading taken for none (a
tile the photo's edge cuts off), one edit or two on different tiles,
likeliest first. The total then stays provisional, and a doubt names each edit so the referee
checks those very tiles; a dropped box is drawn on the annotated photo. A reading that is
already a win is never changed; with no such edit the reading stands as it was, doubts and all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from engine.rulesets import RuleSet, WinRequest
from engine.tiles import Tile
from vision.hand_photo import read_hand
from vision.photo import PhotoTile
from vision.photo_hand import Doubt
from vision.photo_score import ScoredPhoto, score_reading

MOST_TRIED = 40  # edits tried, likeliest first: a photo with more doubts needs a person
MOST_EDITS = 2  # tiles edited at once
LEAST_LIKELY = 0.05  # a runner-up read under this is not tried
DROP_BELOW = 0.4  # a box the detector scored under this may be no tile at all
DOUBTED_DROP = 0.5  # ... and a doubted reading on a surer box, at half its doubt's odds


@dataclass(frozen=True)
class Edit:
    """One tile's edit: read as ``name``, or (``name`` None) its box taken for no tile."""

    index: int
    name: str | None
    odds: float  # how likely against the reading as it is


def score_photo_tiles(
    tiles: Sequence[PhotoTile], chosen: Tile | None, base: WinRequest, rules: RuleSet
) -> ScoredPhoto:
    """The photo's tiles grouped and scored (:func:`score_reading`); when that is no valid win,
    the likeliest edit of at most :data:`MOST_EDITS` doubted tiles that scores a valid win."""
    first = score_reading(read_hand(list(tiles)), chosen, base, rules)
    if first.result.valid:
        return first
    for edits in likeliest_edits(tiles):
        kept, dropped = _edited(tiles, edits)
        scored = score_reading(read_hand(kept), chosen, base, rules)
        if scored.result.valid:
            notes = tuple(_note(tiles, edit, edits) for edit in edits)
            return replace(scored, doubts=(*notes, *scored.doubts), dropped=dropped)
    return first


def likeliest_edits(tiles: Sequence[PhotoTile]) -> list[tuple[Edit, ...]]:
    """Sets of one to :data:`MOST_EDITS` edits on different tiles, likeliest first (the product
    of their odds), at most :data:`MOST_TRIED`."""
    single = _edits(tiles)
    sets: list[tuple[Edit, ...]] = [(edit,) for edit in single]
    for size in range(2, MOST_EDITS + 1):
        for group in combinations(single, size):
            if len({edit.index for edit in group}) == size:
                sets.append(group)

    def odds(group: tuple[Edit, ...]) -> float:
        product = 1.0
        for edit in group:
            product *= edit.odds
        return product

    sets.sort(key=lambda group: (-odds(group), len(group)))
    return sets[:MOST_TRIED]


def _edits(tiles: Sequence[PhotoTile]) -> list[Edit]:
    """Each doubted face-up tile's runners-up, and each weak box's drop, likeliest first."""
    out = []
    for index, tile in enumerate(tiles):
        if tile.tile == "back":
            continue
        if tile.doubted:
            for name, probability in tile.alternatives:
                if name != "back" and probability >= LEAST_LIKELY:
                    out.append(Edit(index, name, probability / max(tile.probability, 1e-6)))
        if tile.box_score < DROP_BELOW:
            out.append(Edit(index, None, 1.0 - tile.box_score / DROP_BELOW))
        elif tile.doubted:  # a tile the photo cuts off, another player's at the frame's edge
            out.append(Edit(index, None, DOUBTED_DROP * (1.0 - tile.probability)))
    out.sort(key=lambda edit: -edit.odds)
    return out


def _edited(
    tiles: Sequence[PhotoTile], edits: tuple[Edit, ...]
) -> tuple[list[PhotoTile], tuple[PhotoTile, ...]]:
    """The tiles with ``edits`` made: (those kept, in order; those dropped)."""
    by_index = {edit.index: edit for edit in edits}
    kept, dropped = [], []
    for index, tile in enumerate(tiles):
        edit = by_index.get(index)
        if edit is None:
            kept.append(tile)
        elif edit.name is None:
            dropped.append(tile)
        else:
            runner = ((tile.tile, round(tile.confidence, 4)),)
            kept.append(replace(tile, tile=edit.name, alternatives=runner))
    return kept, tuple(dropped)


def _note(tiles: Sequence[PhotoTile], edit: Edit, edits: tuple[Edit, ...]) -> Doubt:
    """The doubt that names ``edit`` (its index among the tiles kept, for a changed tile)."""
    was = tiles[edit.index]
    x, y = was.centre
    if edit.name is None:
        why = f"the box read as {was.tile} at ({x:.0f}, {y:.0f}) taken for no tile"
        return Doubt("dropped_box", f"{why}: as read, no winning hand; check it")
    gone = sum(1 for e in edits if e.name is None and e.index < edit.index)
    message = f"{was.tile} read as {edit.name} (its runner-up): as read, no winning hand; check it"
    return Doubt("read_as_runner_up", message, (edit.index - gone,))
