"""The card reader: Gouji cards on a top-down table frame, read by their corner indices.

Candidates come from :mod:`vision.card_candidates` (ink blobs on card paper, no network); one
small CNN (``models/weights/cards.onnx``, ONNX Runtime) reads each upright crop as one of the 54
faces, upright or upside down, or as no index (:mod:`vision.card_candidates`). An index read gives
its card's place: the index sits at a fixed spot of the face, so the card's corners follow from
its centre, its up direction and the card's scale (:mod:`vision.card_places`). A card lying
apart shows two indices (opposite corners, turned half round from each other): one card. Where
a fanned row of indices read has a gap a card wide, the spot is read again
(:mod:`vision.card_fans`).
Face-down cards are not reported (docs/cards.md).

>>> reader = CardReader()                                       # doctest: +SKIP
>>> [(r.code, r.score) for r in reader.read_file("table.jpg")]  # doctest: +SKIP
[('8h', 0.99), ('8', 0.97), ...]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.gouji.cards import Card
from engine.gouji.notation import parse_card
from vision.card_candidates import FACES, NONE, Candidate, crops, find
from vision.card_fans import PROBE_SCORE, gap_probes, rank_of
from vision.card_places import LENGTH_PER_HEIGHT, IndexRead, place, scale_field
from vision.detector_backends import DetectorError, onnx_session
from vision.image_limits import size_problem

WEIGHTS = Path(__file__).resolve().parents[1] / "models" / "weights" / "cards.onnx"
#: A frame's card height (px) before the indices tell it, per 1080 px of frame height.
DEFAULT_HEIGHT_1080 = 140.0


class CardReaderError(ValueError):
    """An image the reader cannot read (missing, empty, corrupt, too large, not BGR)."""


@dataclass(frozen=True)
class CardRead:
    """One card read: its code in engine notation, its corners (4 x 2 px: its own top-left,
    top-right, bottom-right, bottom-left), the network's confidence and the index quads read."""

    code: str
    quad: np.ndarray
    score: float
    indices: tuple[np.ndarray, ...]

    @property
    def card(self) -> Card:
        return parse_card(self.code)


def _session(path: Path):  # type: ignore[no-untyped-def]
    """The card network's ONNX session (the detectors' loader), or :class:`CardReaderError`."""
    try:
        return onnx_session(path)
    except DetectorError as exc:
        raise CardReaderError(f"card {exc}") from exc


def decode(data: bytes, name: str = "image") -> np.ndarray:
    """Image file bytes as BGR, or :class:`CardReaderError` saying why not."""
    if not data:
        raise CardReaderError(f"{name}: empty file")
    problem = size_problem(data)
    if problem:
        raise CardReaderError(f"{name}: {problem}")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise CardReaderError(f"{name}: not an image OpenCV can decode (corrupt or unknown format)")
    return image


class CardReader:
    """Reads the cards of BGR frames; ``threshold`` is the least confidence kept."""

    def __init__(
        self, weights: Path | str = WEIGHTS, threshold: float = 0.5, *, fans: bool = True
    ) -> None:
        """``fans``: read again where a fanned row of indices has a gap (vision.card_fans)."""
        self.session = _session(Path(weights))
        self.threshold = threshold
        self.fans = fans

    def read_file(self, path: Path | str) -> list[CardRead]:
        path = Path(path)
        if not path.is_file():
            raise CardReaderError(f"no such image file: {str(path)!r}")
        return self.read(decode(path.read_bytes(), str(path)))

    def read(self, image: np.ndarray, card_height: float | None = None) -> list[CardRead]:
        """The cards in ``image``; ``card_height`` (px) when the calibration knows it."""
        if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
            raise CardReaderError("a frame is a uint8 numpy array (H x W x 3 BGR)")
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        if image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 16:
            raise CardReaderError(f"a frame is H x W x 3 BGR, at least 16 px; got {image.shape}")
        height = card_height or DEFAULT_HEIGHT_1080 * image.shape[0] / 1080
        candidates = find(image, height)
        if not candidates:
            return []
        batch = crops(image, candidates).transpose(0, 3, 1, 2).astype(np.float32) / 255
        probs = self.session.run(None, {"crops": batch})[0]
        best = probs.argmax(1)
        chosen = [
            i
            for i in range(len(candidates))
            if best[i] != NONE and probs[i, best[i]] >= self.threshold
        ]
        if not chosen:
            return []
        points = np.array([(candidates[i].cx, candidates[i].cy) for i in chosen])
        sizes = np.array([candidates[i].length for i in chosen]) / LENGTH_PER_HEIGHT
        local = scale_field(points, sizes)
        found = [
            _index(candidates[i], int(best[i]), float(probs[i, best[i]]), card_height or local(p))
            for i, p in zip(chosen, points, strict=True)
        ]
        if self.fans:
            found += self._probe(image, found, [candidates[i].length for i in chosen])
        return [CardRead(c.code, c.quad, c.score, c.indices) for c in place(found)]

    def _probe(
        self, image: np.ndarray, found: list[IndexRead], lengths: list[float]
    ) -> list[IndexRead]:
        """The indices read in the gaps of fanned rows (:mod:`vision.card_fans`)."""
        spots = gap_probes(found, lengths)
        probes = [candidate for spot in spots for candidate in spot.candidates]
        if not probes:
            return []
        batch = crops(image, probes).transpose(0, 3, 1, 2).astype(np.float32) / 255
        probs = iter(self.session.run(None, {"crops": batch})[0])
        out = []
        for spot in spots:
            best: tuple[float, Candidate, int] | None = None
            for candidate, row in zip(spot.candidates, probs, strict=False):
                output = int(row.argmax())
                score = float(row[output])
                rank = rank_of(FACES[output // 2]) if output != NONE else None
                if rank in spot.ranks and score >= PROBE_SCORE and (not best or score > best[0]):
                    best = (score, candidate, output)
            if best is None:
                continue
            score, candidate, output = best
            at = np.array([candidate.cx, candidate.cy])
            near = min(found, key=lambda f: float(np.linalg.norm(f.at - at)))
            if float(np.linalg.norm(near.at - at)) > 0.5 * spot.step:  # not one read already
                out.append(_index(candidate, output, score, near.height))
        return out


def _index(candidate: Candidate, output: int, score: float, height: float) -> IndexRead:
    up = np.array([candidate.ux, candidate.uy]) * (-1 if output % 2 else 1)
    down, right = -up, np.array([-up[1], up[0]])
    centre = np.array([candidate.cx, candidate.cy])
    half = candidate.length / 2
    quad = np.array(
        [
            centre + a * half * 0.5 * right + b * half * down
            for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
    )
    return IndexRead(FACES[output // 2], score, centre, right, down, height, quad)
