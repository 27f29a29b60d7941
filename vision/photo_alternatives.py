"""A photographed hand that is no win as read, tried again with a doubted tile's runner-up.

The reader names, for each tile it doubts, the kinds it found next likeliest. A referee's photo
is of a winning hand, so when the tiles as read make no valid win, the likeliest change of one
doubted tile (to one of its runners-up) that does make one is a better reading to show: the
total stays provisional, and a doubt says which tile was read as what, so the referee checks
that very tile. A reading that is already a win is never changed; with no such change the
reading stands as it was, its doubts with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.rulesets import RuleSet, WinRequest
from engine.tiles import Tile
from vision.hand_photo import read_hand
from vision.photo import PhotoTile
from vision.photo_hand import Doubt
from vision.photo_score import ScoredPhoto, score_reading

MOST_TRIED = 12  # changes tried, likeliest first: a photo with more doubts needs a person
LEAST_LIKELY = 0.05  # a runner-up read under this is not tried


def score_photo_tiles(
    tiles: Sequence[PhotoTile], chosen: Tile | None, base: WinRequest, rules: RuleSet
) -> ScoredPhoto:
    """The photo's tiles grouped and scored (:func:`score_reading`); when that is no valid win,
    the likeliest one-tile change to a doubted tile's runner-up that scores a valid win."""
    first = score_reading(read_hand(list(tiles)), chosen, base, rules)
    if first.result.valid:
        return first
    for index, name, _odds in _changes(tiles):
        changed = list(tiles)
        was = tiles[index]
        changed[index] = replace(
            was, tile=name, alternatives=((was.tile, round(was.confidence, 4)),)
        )
        scored = score_reading(read_hand(changed), chosen, base, rules)
        if scored.result.valid:
            note = Doubt(
                "read_as_runner_up",
                f"{was.tile} read as {name} (its runner-up): as read, no winning hand; check it",
                (index,),
            )
            return replace(scored, doubts=(note, *scored.doubts))
    return first


def _changes(tiles: Sequence[PhotoTile]) -> list[tuple[int, str, float]]:
    """(tile index, runner-up, how likely against the reading) of the doubted face-up tiles,
    likeliest first."""
    out = []
    for index, tile in enumerate(tiles):
        if not tile.doubted or tile.tile == "back":
            continue
        reading = tile.confidence / tile.box_score if tile.box_score > 0 else tile.confidence
        for name, probability in tile.alternatives:
            if name != "back" and probability >= LEAST_LIKELY:
                out.append((index, name, probability / max(reading, 1e-6)))
    out.sort(key=lambda change: -change[2])
    return out[:MOST_TRIED]
