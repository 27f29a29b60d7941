"""Photos their publisher stretched: a row of tiles squeezed into a square picture.

Public photo sets are often exported "stretched to 640 x 640": a long strip of a player's rack
comes out with every tile eight times taller (or wider) than it is, and the detector, which
learned tiles of their true shape, finds almost none. :func:`stretch_of` asks whether the photo
reads better squeezed back: it reads a small copy squeezed 2, 4, 8 and 16 times along either
axis, then the best of those 1.5 times more and less, and keeps the squeeze that finds clearly
more faces the classifier is sure of than the photo as it is (measured on the real evaluation
photos: docs/vision.md, "Photos their publisher stretched"). A photo whose
own reading already holds several sure faces is taken as it is, unsearched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import cv2
import numpy as np

from vision.photo_boxes import PAD
from vision.photo_tile import PhotoTile

Squeeze = tuple[float, float]  # the photo's width and height divided by these undo the stretch
AS_IS: Squeeze = (1, 1)
STEPS = (2, 4, 8, 16)  # tried along either axis ...
REFINE = 1.5  # ... then the best of them this much more and less
SEARCH_SIDE = 640  # px: the longest side of the copy the squeezes are tried on
SURE = 0.9  # a face read with this probability counts as found
ALREADY_SURE = 6  # sure faces in the photo as it is: no search
GAIN, MORE = 1.5, 3  # a squeeze must find GAIN times the sure faces, plus MORE
BORDER = 0.1  # of the squeezed copy's short side, grey around it: a tile at its edge stays whole


def sure_faces(tiles: Sequence[PhotoTile]) -> int:
    """Faces reported and read with probability SURE or more (a back is no evidence)."""
    return sum(1 for t in tiles if t.tile != "back" and t.reported() and t.probability >= SURE)


def squeezed(image: np.ndarray, squeeze: Squeeze) -> np.ndarray:
    """``image`` with its width and height divided by ``squeeze`` (the stretch undone)."""
    if squeeze == AS_IS:
        return image
    h, w = image.shape[:2]
    size = (max(8, round(w / squeeze[0])), max(8, round(h / squeeze[1])))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def bordered(image: np.ndarray) -> tuple[np.ndarray, int]:
    """``image`` inside a grey border (see BORDER) and the border's width, px."""
    border = max(8, round(BORDER * min(image.shape[:2])))
    framed = cv2.copyMakeBorder(image, *(border,) * 4, cv2.BORDER_CONSTANT, value=PAD)
    return framed, border


def stretch_of(
    read: Callable[[np.ndarray], Sequence[PhotoTile]],
    image: np.ndarray,
    as_is: Sequence[PhotoTile] | None = None,
) -> Squeeze:
    """The squeeze that undoes ``image``'s stretch, AS_IS when it reads best as it is.
    ``read`` reads an image; ``as_is`` is its reading of ``image`` when already made."""
    if as_is is not None and sure_faces(as_is) >= ALREADY_SURE:
        return AS_IS
    h, w = image.shape[:2]
    scale = min(1.0, SEARCH_SIDE / max(h, w))
    small = image
    if scale < 1:
        small = cv2.resize(
            image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA
        )
    own = sure_faces(as_is if as_is is not None and scale == 1 else read(small))
    found: dict[Squeeze, tuple[int, float]] = {AS_IS: (own, 0.0)}

    def tried(squeeze: Squeeze) -> None:
        tiles = read(bordered(squeezed(small, squeeze))[0])
        faces = [t.probability for t in tiles if t.tile != "back" and t.reported()]
        found[squeeze] = (sure_faces(tiles), sum(faces))

    for step in STEPS:
        tried((1, step))
        tried((step, 1))
    best = max(found, key=lambda k: found[k])
    if best != AS_IS and found[best][0] > 0:
        for factor in (REFINE, 1 / REFINE):
            tried((best[0] * factor if best[0] > 1 else 1, best[1] * factor if best[1] > 1 else 1))
        best = max(found, key=lambda k: found[k])
    return best if found[best][0] >= GAIN * own + MORE else AS_IS


def stretched_back(tile: PhotoTile, squeeze: Squeeze, border: int = 0) -> PhotoTile:
    """A tile read on the squeezed (and bordered) photo, in the photo's own pixels."""
    dx, dy = squeeze
    corners = tuple(((x - border) * dx, (y - border) * dy) for x, y in tile.corners)
    return replace(tile, corners=corners)
