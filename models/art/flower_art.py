"""Picture-style flower faces, drawn at data-generation time (nothing fetched, no font needed).

Real flower tiles show a plant or a season's scene with a small numeral (1-4) and a small
character (梅蘭菊竹 / 春夏秋冬) in the top corners; our own MCR faces show only the big character.
Each variant here draws a random plant picture, puts the numeral in one top corner and the
character (cut from our committed face, so no CJK font is needed) in the other, in random inks,
so the classifier learns to read the corners rather than one picture.
"""

from __future__ import annotations

import cv2
import numpy as np

from models.art.faces import FACE_H, FACE_W, load_faces

INKS = [(40, 40, 200), (170, 60, 30), (40, 130, 30), (30, 30, 30)]  # BGR red, blue, green, black
PETALS = [(150, 120, 235), (60, 60, 210), (40, 170, 235), (190, 90, 200), (80, 80, 160)]
LEAF = (50, 140, 40)


def ink_of(region: np.ndarray) -> np.ndarray:
    """``region`` cropped tight around its ink (dark pixels); white where there is none."""
    ink = region.astype(np.int16).sum(axis=2) < 600
    ys, xs = np.nonzero(ink)
    return region[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def character_ink(face: np.ndarray) -> np.ndarray:
    """The ink of one of our flower faces, cropped tight (white where there is no ink)."""
    return ink_of(face[48:140, 12:108])  # the big character, not the small numeral above it


def paste_ink(  # type: ignore[no-untyped-def]
    canvas: np.ndarray,
    glyph: np.ndarray,
    box: tuple[int, int, int, int],
    ink,
    interpolation: int = cv2.INTER_AREA,
) -> None:
    """Paint ``glyph``'s ink into ``box`` (x, y, w, h) of ``canvas`` in one colour."""
    x, y, w, h = box
    small = cv2.resize(glyph, (w, h), interpolation=interpolation)
    mask = small.astype(np.int16).sum(axis=2) < 600
    region = canvas[y : y + h, x : x + w]
    region[mask[: region.shape[0], : region.shape[1]]] = ink


def _paste_ink(canvas: np.ndarray, glyph: np.ndarray, at: tuple[int, int], size: int, ink) -> None:  # type: ignore[no-untyped-def]
    """``glyph`` scaled so its longer side is ``size``, top-left at ``at``."""
    h, w = glyph.shape[:2]
    scale = size / max(h, w)
    box = (at[0], at[1], max(int(w * scale), 1), max(int(h * scale), 1))
    paste_ink(canvas, glyph, box, ink, interpolation=cv2.INTER_LINEAR)


def _blossom(canvas: np.ndarray, at: tuple[int, int], r: int, colour, rng) -> None:  # type: ignore[no-untyped-def]
    x, y = at
    petals = int(rng.integers(5, 12))
    for k in range(petals):
        angle = 2 * np.pi * k / petals
        px, py = int(x + r * 0.6 * np.cos(angle)), int(y + r * 0.6 * np.sin(angle))
        cv2.circle(canvas, (px, py), max(r // 2, 2), colour, -1, cv2.LINE_AA)
    cv2.circle(canvas, (x, y), max(r // 3, 2), (40, 200, 240), -1, cv2.LINE_AA)


def _picture(canvas: np.ndarray, motif: int, rng: np.random.Generator) -> None:
    """Plum branch, orchid leaves, chrysanthemum heads or bamboo, in the lower two thirds."""
    colour = PETALS[int(rng.integers(len(PETALS)))]
    if motif == 0:  # plum: a branch with blossoms along it
        points = np.cumsum(rng.normal([0, -18], [14, 6], (6, 2)), axis=0) + np.array([60, 150])
        cv2.polylines(canvas, [points.astype(np.int32)], False, (40, 60, 90), 4, cv2.LINE_AA)
        for px, py in points[1:]:
            at = (int(px + rng.normal(0, 8)), int(py))
            _blossom(canvas, at, int(rng.integers(7, 12)), colour, rng)
    elif motif == 1:  # orchid: long curved leaves from the bottom, a few small flowers
        for _ in range(int(rng.integers(3, 7))):
            end = (int(rng.integers(15, 105)), int(rng.integers(55, 95)))
            mid = ((60 + end[0]) // 2 + int(rng.normal(0, 15)), (150 + end[1]) // 2)
            curve = np.array([(60, 152), mid, end], np.int32)
            cv2.polylines(canvas, [curve], False, LEAF, 3, cv2.LINE_AA)
        for _ in range(int(rng.integers(1, 4))):
            at = (int(rng.integers(30, 90)), int(rng.integers(70, 110)))
            _blossom(canvas, at, 8, colour, rng)
    elif motif == 2:  # chrysanthemum: round heads of many petals over leaves
        for _ in range(int(rng.integers(1, 4))):
            x, y = int(rng.integers(30, 90)), int(rng.integers(75, 120))
            r = int(rng.integers(12, 22))
            for k in range(24):
                angle = 2 * np.pi * k / 24
                tip = (int(x + r * np.cos(angle)), int(y + r * np.sin(angle)))
                cv2.line(canvas, (x, y), tip, colour, 2, cv2.LINE_AA)
            cv2.ellipse(canvas, (x, y + r + 8), (12, 5), 20, 0, 360, LEAF, -1, cv2.LINE_AA)
    else:  # bamboo: stalks with nodes and leaves
        for _ in range(int(rng.integers(2, 4))):
            x = int(rng.integers(25, 95))
            cv2.line(canvas, (x, 150), (x + int(rng.normal(0, 6)), 65), LEAF, 5, cv2.LINE_AA)
            for y in range(145, 70, -20):
                cv2.line(canvas, (x - 4, y), (x + 4, y), (30, 90, 30), 2)
                tip = (x + int(rng.choice([-1, 1]) * rng.integers(12, 22)), y - 10)
                cv2.line(canvas, (x, y), tip, LEAF, 3, cv2.LINE_AA)
    if rng.random() < 0.3:  # a pot or basket under it
        cv2.rectangle(canvas, (38, 138), (82, 155), INKS[int(rng.integers(4))], 2)


def picture_face(
    rank: int,
    rng: np.random.Generator,
    paper: int = 238,
    tint: tuple[int, int] = (-12, 8),
    own_motif: float = 0.8,
) -> np.ndarray:
    """A blank face of ``paper`` tinted a little, with a plant picture: a plant flower
    (``rank`` 1-4) shows its own plant with probability ``own_motif``, seasons any plant."""
    shade = rng.integers(tint[0], tint[1], 3)
    canvas = np.clip(np.full((FACE_H, FACE_W, 3), paper) + shade, 0, 255).astype(np.uint8)
    motif = rank - 1 if rank <= 4 and rng.random() < own_motif else int(rng.integers(4))
    _picture(canvas, motif, rng)
    return canvas


def flower_faces(rng: np.random.Generator, variants: int = 8) -> dict[str, list[np.ndarray]]:
    """``variants`` picture-style faces for each flower ``1f``-``8f``."""
    ours = load_faces()
    out: dict[str, list[np.ndarray]] = {}
    for rank in range(1, 9):
        name = f"{rank}f"
        glyph = character_ink(ours[name])
        faces = []
        for _ in range(variants):
            canvas = picture_face(rank, rng)
            left = rng.random() < 0.5
            size = int(rng.integers(24, 36))
            inks = rng.permutation(len(INKS))
            numeral_x = 8 if left else FACE_W - 8 - size * 2 // 3
            cv2.putText(
                canvas,
                str((rank - 1) % 4 + 1),
                (numeral_x, 10 + size),
                cv2.FONT_HERSHEY_SIMPLEX,
                size / 30,
                INKS[inks[0]],
                max(size // 10, 2),
                cv2.LINE_AA,
            )
            glyph_x = FACE_W - 8 - size if left else 8
            _paste_ink(canvas, glyph, (glyph_x, 10), size, INKS[inks[1]])
            faces.append(canvas)
        out[name] = faces
    return out
