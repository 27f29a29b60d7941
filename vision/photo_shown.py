"""Which of a photo's readings are shown to people (``tilesight detect``, the evaluation).

A reading is shown when it is confident enough or vouched for (``PhotoTile.reported``). Tiles
come in company, in rows, walls, melds and hands; clutter read as a tile mostly comes alone. So a
tile with fewer than COMPANY tiles of its size within NEAR of its lengths must be surer to be
shown (ALONE_BELOW). Measured on the real evaluation photos (docs/vision.md, "Tiles come in
company"): all 17 boxes shown on the 135 tile-free views (grass read as bamboo, playing cards read
as dots) were lone readings under 0.49; of the readings it takes away on real tiles, 2 of 49 were
right on hk-table-rf and 11 of 35 on the riichi webcam frames (rows seen edge-on, half found).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.photo_tile import PHOTO_MIN_CONFIDENCE, PhotoTile

ALONE_BELOW = 0.5  # the least confidence of a tile shown without company
COMPANY = 3  # tiles of its size near a tile that make it no lone reading
NEAR = 3.5  # of a tile's length, centre to centre
LIKE_SIZE = 2.0  # lengths within this ratio are of one size


def companions(tiles: Sequence[PhotoTile]) -> list[int]:
    """For each tile, how many others of its size lie within NEAR of its lengths."""
    if not tiles:
        return []
    centres = np.array([t.centre for t in tiles], np.float64)
    lengths = np.array([max(t.height, t.width) for t in tiles], np.float64)
    distance = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    ratio = lengths[None] / np.maximum(lengths[:, None], 1e-9)
    like = (ratio > 1 / LIKE_SIZE) & (ratio < LIKE_SIZE)
    near = (distance < NEAR * lengths[:, None]) & like
    np.fill_diagonal(near, False)
    return [int(n) for n in near.sum(axis=1)]


def shown(tiles: Sequence[PhotoTile], least: float = PHOTO_MIN_CONFIDENCE) -> list[PhotoTile]:
    """The readings shown: reported (``least`` confidence, or vouched), and a lone one only
    from ALONE_BELOW."""
    reported = [t for t in tiles if t.reported(least)]
    company = companions(reported)
    return [
        t
        for t, n in zip(reported, company, strict=True)
        if n >= COMPANY or t.confidence >= ALONE_BELOW
    ]
