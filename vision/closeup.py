"""Close-up reading of flowers: a large tile called a flower is read again from a 96x72 crop.

The table classifier sees every tile at 48x36, where a flower's numeral is ~7 px and the
character that tells 梅 from 春 a smudge; on real sets it had learnt pictures, not numerals. In a
close-up photo (a referee's picture of a winning hand, a tile held to a camera) the same tile
is hundreds of pixels tall. There, a detection called a flower whose box is at least
:data:`MIN_SIDE` px on its short side is re-read by the close-up reader
(``models/weights/closeup.onnx``, models/training/closeup_reader.py; 16 outputs: 1f-8f upright /
upside
down) from the original image; the table camera path is unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.crops import TILE_NAMES, crop_tile
from vision.detector_backends import crop_probabilities, onnx_session

CLOSEUP_W, CLOSEUP_H = 72, 96
FIRST_FLOWER = TILE_NAMES.index("1f")
MIN_SIDE = 72  # px: a tile narrower than the reader's input has nothing more to show


def closeup_crop(image: np.ndarray, box: Sequence[float]) -> np.ndarray:
    """The tile in ``box`` as a vertical CLOSEUP_H x CLOSEUP_W crop (vision.crops.crop_tile
    without padding); a box showing less than 2 px of the image is refused."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in box)
    x1, y1, x2, y2 = max(x1, 0), max(y1, 0), min(x2, w), min(y2, h)
    if x2 - x1 < 2 or y2 - y1 < 2:
        raise ValueError(f"box {list(box)!r} shows nothing of a {w}x{h} image")
    return crop_tile(image, (x1, y1, x2, y2), pad=0.0, size=(CLOSEUP_W, CLOSEUP_H))


class CloseupReader:
    """``CloseupReader(path).read(crops)`` -> N x 16 flower probabilities."""

    def __init__(self, path: Path) -> None:
        self.session = onnx_session(path)

    def read(self, crops: np.ndarray) -> np.ndarray:
        """Probabilities (1f up, 1f down, 2f up, ...) for BGR crops (N x 96 x 72 x 3)."""
        return crop_probabilities(self.session, crops, 16)

    def flower(self, image: np.ndarray, box: Sequence[float]) -> tuple[str, bool, float]:
        """(flower name, upside down, probability) for the tile in ``box`` of ``image``, read
        both ways up and averaged (the turned reading's upright / upside-down swapped back)."""
        crop = closeup_crop(image, box)
        both = self.read(np.stack([crop, crop[::-1, ::-1]]))
        probs = ((both[0] + both[1].reshape(8, 2)[:, ::-1].reshape(16)) / 2).reshape(8, 2)
        flower = int(probs.sum(axis=1).argmax())  # either way up counts for the flower
        upside_down = bool(probs[flower, 1] > probs[flower, 0])
        return TILE_NAMES[FIRST_FLOWER + flower], upside_down, float(probs[flower].sum())
