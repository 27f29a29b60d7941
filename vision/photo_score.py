"""A photographed hand scored: the winning tile chosen or guessed, and every doubt kept.

``tilesight score --photo`` prints it; evaluation (``models/photo/evaluate_hands.py``) counts how
often it is right. The total is provisional whenever anything is doubted.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.notation import Hand, format_hand
from engine.rulesets import RuleSet, ScoreResult, WinRequest, score_safely
from engine.tiles import KINDS, Tile
from vision.photo import PhotoTile
from vision.photo_hand import Doubt, PhotoHand


@dataclass(frozen=True)
class ScoredPhoto:
    """A photographed hand scored: what was read, the request made of it, the result."""

    reading: PhotoHand
    win: Tile | None
    request: WinRequest
    result: ScoreResult
    doubts: tuple[Doubt, ...]
    #: boxes taken for no tile to make a win (vision.photo_alternatives): drawn, not scored
    dropped: tuple[PhotoTile, ...] = field(default=())

    @property
    def provisional(self) -> bool:
        """Anything doubted that could change the total (notes aside)."""
        return any(not d.note for d in self.doubts)

    @property
    def checks(self) -> tuple[Doubt, ...]:
        """The doubts that hold the total back (not the notes)."""
        return tuple(d for d in self.doubts if not d.note)

    @property
    def notation(self) -> str:
        """The hand as ``tilesight score HAND`` takes it: the winning tile last."""
        hand = self.reading.hand_for(self.win)
        won = (self.win,) if self.win else ()
        return format_hand(Hand((*hand.concealed, *won), hand.melds))

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.notation,
            "win_tile": str(self.win) if self.win else None,
            "self_drawn": self.request.self_drawn,
            "flowers": self.request.flowers,
            "tiles": [t.to_dict() for t in self.reading.tiles],
            "groups": [g.to_dict() for g in self.reading.groups],
            "doubts": [d.to_dict() for d in self.doubts],
            "dropped": [t.to_dict() for t in self.dropped],
            "provisional": self.provisional,
            "result": self.result.to_json(),
        }


def score_reading(
    reading: PhotoHand, chosen: Tile | None, base: WinRequest, rules: RuleSet
) -> ScoredPhoto:
    """Score ``reading`` won on ``chosen`` (else the tile laid apart, else the best-scoring
    tile) with the flags and winds of ``base``; a win on the tile laid apart is self-drawn."""
    if reading.apart is not None and chosen in (None, reading.apart):
        base = replace(base, self_drawn=True)
    win = chosen or reading.apart
    guessed: tuple[Doubt, ...] = ()
    if win is None and reading.concealed:
        # whole: one of the tiles read won; short: a tile not laid down (any kind) did
        whole = reading.counted >= 14
        results = {
            tile: score_safely(rules, replace(base, hand=reading.hand_for(tile), win_tile=tile))
            for tile in (dict.fromkeys(reading.concealed) if whole else KINDS)
        }
        win = max(results, key=lambda tile: (results[tile].valid, results[tile].total))
        if not whole or len({(r.valid, r.total) for r in results.values()}) > 1:
            seen = "read" if whole else f"not seen ({reading.counted} tiles read)"
            why = f"winning tile {seen}: {win} scores the most; give --win-tile"
            guessed = (Doubt("win_tile_guessed", why),)
    if win is None:
        result = ScoreResult(0, valid=False, error="no concealed tile read to take as the win")
        return ScoredPhoto(reading, None, base, result, reading.doubts)
    request = replace(base, hand=reading.hand_for(win), win_tile=win)
    result = score_safely(rules, request)
    doubts = guessed + reading.doubts_for(win, won=result.valid)
    return ScoredPhoto(reading, win, request, result, _away_as_notes(doubts, result.valid))


def _away_as_notes(doubts: tuple[Doubt, ...], valid: bool) -> tuple[Doubt, ...]:
    """Tiles away from the hand's rows hold the total back only while the hand is short or no
    win: a whole, valid hand has room for none of them (the game's other tiles on the table)."""
    if not valid or any(d.kind == "tile_count" for d in doubts):
        return doubts
    return tuple(replace(d, note=True) if d.kind == "outside" else d for d in doubts)
