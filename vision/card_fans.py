"""Corner indices a fan of cards should show but the candidate finder missed.

A play is laid as a fan: each card shifted along the same line by about the same step, so the
top-left indices of its cards lie in a row, evenly spaced, all turned the same way. Where the
indices read in such a row leave a gap about two to four steps wide, the fan has cards there
whose index was not found (its ink ran into the card under it, a court frame, a shadow) or was
cut out at a wrong size: :func:`gap_probes` gives a candidate at each such spot, the size and
turn of its neighbours', for the network to read again. A row's first or last index may be the
one missed, so one step past either end is read too; a lone index with the same face's far
corner near it, but not where that corner puts its own card's index, may be the one found of a
fan of two (the two would be placed as one card), so a fan's step either side of it is read
too. A probe counts only when it reads as
a rank of its row or as a wild card (2 or a joker): a Gouji play is one rank and its wilds.

>>> import numpy as np
>>> from vision.card_places import IndexRead
>>> right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
>>> row = [IndexRead("Kh", 0.9, np.array([x, 50.0]), right, down, 140.0, np.zeros((4, 2)))
...        for x in (100.0, 130.0, 190.0)]
>>> [(round(s.candidates[0].cx), round(s.candidates[0].cy)) for s in gap_probes(row, [28.0] * 3)]
[(160, 50), (220, 50), (70, 50)]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.card_candidates import Candidate
from vision.card_places import CARD_H_MM, CARD_W_MM, INDEX_CENTRE_MM, IndexRead

#: Wild cards: they may join any play.
WILDS = frozenset({"2", "BJ", "RJ"})
#: How far a row's next index may sit off the row (over the card height), and how far along.
OFF_ROW, ALONG = 0.22, (0.1, 1.1)
#: Where a lone index's neighbour in a fan may be, in card widths along the fan.
LONE_STEPS = (0.3, 0.375, 0.45)
#: How far off its row a probe is also cut (over the card height): fans drift a little.
ACROSS = (0.0, -0.04, 0.04)
#: How far (over the card height) a lone index may lie from where the same face's far corner
#: puts its card's other index and still be that index (the card's scale is known to ~10 %).
MISPLACED = 0.15
_DIAGONAL = (CARD_W_MM - 2 * INDEX_CENTRE_MM[0], CARD_H_MM - 2 * INDEX_CENTRE_MM[1])
#: The least confidence for a probe's read (the finder's own candidates need 0.5).
PROBE_SCORE = 0.7


def rank_of(code: str) -> str:
    return code if code in ("BJ", "RJ") else code[0]


def _next_in_row(reads: Sequence[IndexRead]) -> list[int | None]:
    """For each read, the nearest read further along its row (same turn, on its line)."""
    out: list[int | None] = []
    for a in reads:
        best, best_along = None, np.inf
        for j, b in enumerate(reads):
            if b is a or float(a.down @ b.down) < 0.96:
                continue
            gap = b.at - a.at
            along, off = float(gap @ a.right), abs(float(gap @ a.down))
            fits = ALONG[0] * a.height < along < ALONG[1] * a.height and off < OFF_ROW * a.height
            if fits and along < best_along:
                best, best_along = j, along
        out.append(best)
    return out


def _rows(reads: Sequence[IndexRead]) -> list[list[int]]:
    """Rows of two reads or more, each from its first index along to its last."""
    following = _next_in_row(reads)
    has_before = {j for j in following if j is not None}
    rows = []
    for start in range(len(reads)):
        if start in has_before or following[start] is None:
            continue
        row = [start]
        while (nxt := following[row[-1]]) is not None and nxt not in row and len(row) < 24:
            row.append(nxt)
        rows.append(row)
    return rows


@dataclass(frozen=True)
class Spot:
    """Where a fan's index may be: the candidates to read there (the best read counts), the
    ranks a read may have and the row's step (px): a read within half a step of an index
    already read is that index again."""

    candidates: list[Candidate]
    ranks: frozenset[str]
    step: float


def gap_probes(reads: Sequence[IndexRead], lengths: Sequence[float]) -> list[Spot]:
    """The spots to read again for ``reads`` (their blobs' long sides ``lengths``): in the gaps
    of fanned rows and one step past each end, and a fan's step either side of a lone index.
    Each spot is cut a little either way (fans are laid by hand, not evenly)."""
    rows = _rows(reads)
    in_rows = {i for row in rows for i in row}
    probes = [
        spot
        for i, lone in enumerate(reads)
        if i not in in_rows and _may_pair_wrongly(lone, reads)
        for spot in _lone_spots(lone, lengths[i])
    ]
    for row in rows:
        probes += _row_spots(reads, row, lengths)
    return probes


def _may_pair_wrongly(lone: IndexRead, reads: Sequence[IndexRead]) -> bool:
    """Whether an index of the same face, turned half round, lies near ``lone`` but not where
    its own card's other index would be: the far corner of a fan's second card, which ``lone``
    would be placed with as one card when the second card's own index went unread."""
    for other in reads:
        if other.code != lone.code or float(other.down @ lone.down) > -0.8:
            continue
        mm = other.height / CARD_H_MM
        partner = other.at + mm * (_DIAGONAL[0] * other.right + _DIAGONAL[1] * other.down)
        near = float(np.linalg.norm(other.at - lone.at)) < 1.4 * lone.height
        if near and float(np.linalg.norm(partner - lone.at)) > MISPLACED * lone.height:
            return True
    return False


def _cut(points: list[np.ndarray], up: np.ndarray, length: float) -> list[Candidate]:
    return [Candidate(float(p[0]), float(p[1]), float(up[0]), float(up[1]), length) for p in points]


def _lone_spots(lone: IndexRead, length: float) -> list[Spot]:
    """A fan of two whose second index was missed: a fan's step either side of ``lone``."""
    width = lone.height * CARD_W_MM / CARD_H_MM
    ranks = frozenset({rank_of(lone.code)}) | WILDS
    return [
        Spot(
            _cut(
                [
                    lone.at + way * lone.right * width * f + lone.down * lone.height * d
                    for f in LONE_STEPS
                    for d in ACROSS
                ],
                -lone.down,
                length,
            ),
            ranks,
            LONE_STEPS[0] * width,
        )
        for way in (1, -1)
    ]


def _row_spots(reads: Sequence[IndexRead], row: list[int], lengths: Sequence[float]) -> list[Spot]:
    """The gaps of one row (a card or up to three missing) and a step past either end."""
    links = [reads[b].at - reads[a].at for a, b in itertools.pairwise(row)]
    along = [float(v @ reads[a].right) for v, a in zip(links, row, strict=False)]
    width = reads[row[0]].height * CARD_W_MM / CARD_H_MM
    usual = min(along)
    step = np.median([v for v, gap in zip(links, along, strict=True) if gap < 1.5 * usual], 0)
    spots: list[list[np.ndarray]] = []
    for a, v, gap in zip(row, links, along, strict=False):
        if len(links) > 1:
            missing = round(gap / usual) - 1 if gap >= 1.7 * usual else 0
        else:  # two read: one card between them, if far apart for a fan
            missing = 1 if 0.55 * width < gap < 1.0 * width else 0
            step = v / 2 if missing else step
        for k in range(1, min(missing, 3) + 1):
            middle = reads[a].at + v * k / (missing + 1)
            spots.append([middle + step * d for d in (0.0, -0.2, 0.2)])
    for end, way in ((row[-1], 1), (row[0], -1)):  # a card past either end
        across = reads[end].down * reads[end].height
        spots.append(
            [
                reads[end].at + way * step * (1 + d) + across * a
                for d in (0.0, -0.25, 0.25)
                for a in ACROSS
            ]
        )
    length = float(np.median([lengths[i] for i in row]))
    ranks = frozenset(rank_of(reads[i].code) for i in row) | WILDS
    size = float(np.linalg.norm(step))
    return [Spot(_cut(at, -reads[row[0]].down, length), ranks, size) for at in spots]
