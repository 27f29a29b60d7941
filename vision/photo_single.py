"""A photo that is one tile: a close-up whose frame the tile's face fills.

The detector finds tiles within a scene, a face with table around it; a photo cropped to one
face (a close-up, or a crop a person cut out of a larger photo) has no tile edge, no body and no
table, and the detector finds nothing there or boxes parts of the face. So a photo in which the
reader finds fewer than 3 sure faces is also read whole, as one face, when it looks like one:

* its shape is a face's, upright or lying (long side over short from ASPECT_LOW to ASPECT_HIGH),
* its outer ring is the face's pale ivory (PALE_RING of the ring's pixels bright and unsaturated)
  and within it a design (INK: a blank white photo, a wall or a sheet of paper, reads as a blank
  white dragon at 0.9 and more; a riichi set's blank white dragon is not read close up),
* and the classifier is sure of a face on it (SURE_FACE; never a back; for a flower, sure it is
  a flower: named as its likeliest, doubted while unsure which, as in ``PhotoTile.reported``).

Measured on the held-out Camerash crops and on tile-aspect crops of real tile-free photos
(docs/vision.md, "A photo that is one tile").
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.crops import CROP_H, CROP_W, TILE_NAMES, best_outputs, kind_probabilities
from vision.photo_tile import PhotoTile, runners_up

ASPECT_LOW, ASPECT_HIGH = 1.1, 1.65  # a face's long side over its short side
RING = 0.08  # of the short side: the outer ring that must be the face's ivory
PALE_RING = 0.85  # share of the ring's pixels bright (V >= 130) and unsaturated (S <= 70)
INK = 0.04  # share of the pixels inside the ring that are not pale: a face bears a design
SURE_FACE = 0.9  # the classifier's least probability for the photo read as one face
BRIGHT, GREY = 130, 70

FLOWERS = np.array([name.endswith("f") for name in TILE_NAMES] + [False])
Classify = Callable[[np.ndarray], np.ndarray]  # crops (N x CROP_H x CROP_W x 3) -> outputs


def _pale_and_band(image: np.ndarray) -> tuple[np.ndarray, int]:
    """Which pixels are bright and unsaturated (a face's ivory), and the outer ring's width."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    band = max(2, round(RING * min(image.shape[:2])))
    return (hsv[..., 2] >= BRIGHT) & (hsv[..., 1] <= GREY), band


def ink(image: np.ndarray) -> float:
    """The share of the pixels inside the outer ring that are not pale: the face's design."""
    pale, band = _pale_and_band(image)
    return float(1 - pale[band:-band, band:-band].mean())


def pale_ring(image: np.ndarray) -> float:
    """The share of the outer ring's pixels that are bright and unsaturated (a face's ivory)."""
    pale, band = _pale_and_band(image)
    inner = pale[band:-band, band:-band]
    return float((pale.sum() - inner.sum()) / (pale.size - inner.size))


def face_shaped(image: np.ndarray) -> bool:
    h, w = image.shape[:2]
    ratio = max(h, w) / max(1, min(h, w))
    return ASPECT_LOW <= ratio <= ASPECT_HIGH


def one_tile(image: np.ndarray, classify: Classify) -> PhotoTile | None:
    """``image`` read as one tile's face, or None when it does not look like one (see the
    module docstring). The face's quad is the photo's frame, turned the way the face reads."""
    if image is None or image.ndim != 3 or min(image.shape[:2]) < 8 or not face_shaped(image):
        return None
    if pale_ring(image) < PALE_RING or ink(image) < INK:
        return None
    h, w = image.shape[:2]
    lying = w > h
    upright = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE) if lying else image
    crop = cv2.resize(upright, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)
    probs = classify(crop[None])
    kinds = kind_probabilities(probs)[0]
    best = int(kinds.argmax())
    if best >= len(TILE_NAMES):
        return None
    flower = TILE_NAMES[best].endswith("f")  # sure of a flower, maybe not of which: doubted
    sure = kinds[FLOWERS].sum() if flower else kinds[best]
    if sure < SURE_FACE:
        return None
    upside_down = int(best_outputs(probs)[0]) % 2 == 1
    # the frame's corners as the upright copy's TL, TR, BR, BL, in the photo's pixels
    corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
    if lying:  # the copy was turned clockwise: its top-left is the photo's bottom-left
        corners = [corners[3], corners[0], corners[1], corners[2]]
    if upside_down:
        corners = corners[2:] + corners[:2]
    return PhotoTile(
        TILE_NAMES[best],
        tuple((float(x), float(y)) for x, y in corners),
        float(kinds[best]),
        runners_up(kinds),
        box_score=1.0,
    )
