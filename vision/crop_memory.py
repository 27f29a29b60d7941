"""Reuse the classifier's reading of a tile that has not changed since the last frame.

On a live table almost every tile lies still between frames; only a new discard, a claim or an
arm changes what a crop shows. A tile is read again unless, in the previous frame, a crop lay at
the same place (centre within ``max_shift`` canvas px) and looked the same: a 12x9 grey thumbnail
with brightness and contrast removed (units of its own spread) within ``max_change`` on average.
Frames of a still rendered table differ by 0.1-0.3 in these units. Anything else (a new tile, a
tile turned or replaced, a hand over it, a light change) goes through the classifier, and so does
a tile whose last reading was unsure (best kind under ``min_sure``): kept, one blurred frame's
guess would last as long as the tile lies still (seed 3000 hand 3: a 3m read 5m at 0.43 in one
frame, then kept four frames, long enough for the stabiliser to confirm it).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.crops import CLASSES_OUT, kind_probabilities


def thumbnails(crops: np.ndarray) -> np.ndarray:
    """N x 108 grey 12x9 thumbnails of 48x36 BGR crops, each centred and scaled by its spread."""
    n, h, w = crops.shape[:3]
    cells = crops.reshape(n, 12, h // 12, 9, (w // 9) * 3)  # a cell's rows x (columns x BGR)
    total = cells.astype(np.uint16).sum(axis=(2, 4))  # at most 4 x 12 x 255: fits in 16 bits
    small = total.reshape(n, -1).astype(np.float32) / (3 * (h // 12) * (w // 9))
    centred = small - small.mean(axis=1, keepdims=True)
    return np.asarray(centred / (centred.std(axis=1, keepdims=True) + 4.0), np.float32)


class CropMemory:
    """The last frame's face crops (centres, thumbnails) and the classifier's outputs for them."""

    def __init__(
        self, max_shift: float = 2.5, max_change: float = 0.15, min_sure: float = 0.8
    ) -> None:
        self.max_shift = max_shift
        self.max_change = max_change
        self.min_sure = min_sure
        self.centres = np.zeros((0, 2), np.float32)
        self.thumbs = np.zeros((0, 108), np.float32)
        self.probs: np.ndarray | None = None
        self.sure = np.zeros(0, bool)  # per remembered crop: may its reading be reused?
        self.reused = 0  # crops answered from memory, for benchmarks
        self.read = 0  # crops sent to the classifier

    def recall(self, boxes: np.ndarray, thumbs: np.ndarray) -> np.ndarray:
        """Index into the last frame's outputs per box, or -1 where the tile must be read."""
        found = np.full(len(boxes), -1, np.int64)
        if self.probs is None or len(self.centres) == 0 or len(boxes) == 0:
            return found
        centres = (boxes[:, :2] + boxes[:, 2:]) / 2
        shift = np.linalg.norm(centres[:, None, :] - self.centres[None, :, :], axis=2)
        nearest = shift.argmin(axis=1)
        close = shift[np.arange(len(boxes)), nearest] <= self.max_shift
        change = np.abs(thumbs - self.thumbs[nearest]).mean(axis=1)
        same = close & (change <= self.max_change) & self.sure[nearest]
        found[same] = nearest[same]
        return found

    def remember(self, boxes: np.ndarray, thumbs: np.ndarray, probs: np.ndarray) -> None:
        self.centres = ((boxes[:, :2] + boxes[:, 2:]) / 2).astype(np.float32)
        self.thumbs, self.probs = thumbs, probs
        self.sure = kind_probabilities(probs).max(axis=1) >= self.min_sure

    def read_through(
        self,
        boxes: np.ndarray,
        crops: np.ndarray,
        classify: Callable[[np.ndarray], np.ndarray],
    ) -> np.ndarray:
        """Classifier outputs for ``crops``: remembered where unchanged, ``classify`` the rest."""
        thumbs = thumbnails(crops)
        known = self.recall(boxes, thumbs)
        fresh = known < 0
        probs = np.zeros((len(crops), CLASSES_OUT), np.float32)
        if fresh.any():
            probs[fresh] = classify(crops[fresh])
        if self.probs is not None and (~fresh).any():
            probs[~fresh] = self.probs[known[~fresh]]
        self.reused += int((~fresh).sum())
        self.read += int(fresh.sum())
        self.remember(boxes, thumbs, probs)
        return probs
