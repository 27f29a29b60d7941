"""Overhead frames of a Gouji table for the camera-only demo: six seat zones, each seat's play
of the current trick fanned in its zone, the cleared tricks face down in the middle.

One :class:`GoujiTableRender` is one game's table and camera (a surface, a pack's style, the
light and a slightly keystoned view, all from a seed); :meth:`~GoujiTableRender.frames` renders
a table state (what lies in each zone) as camera frames, each with its own sensor noise and
JPEG. The seat zones in frame pixels (:attr:`~GoujiTableRender.zones`) come from the table's
corners in the frame, as a calibration would give them
(:meth:`vision.card_seats.SeatZones.from_corners`).

Seats sit as at a six-seat table seen from above, turn order counter-clockwise: 0 and 1 along
the near side, 2 at the right end, 3 and 4 along the far side, 5 at the left end. A play lies
facing the seat that played it, its corner indices showing (the art and compositing of
:mod:`models.cards.scene`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import cv2
import numpy as np

from models.cards.art import CARD_H_MM, CARD_W_MM, COLOURS, PATTERNS, random_style
from models.cards.layout import Placed
from models.cards.scene import _paste
from models.cards.tables import surface
from vision.card_seats import TABLE_ZONES, SeatZones

FRAME = (1920, 1080)
PLANE = (2400, 1350)
CARD_HEIGHT = 175.0  # px on the plane: about 140 px in a 1080p frame
#: Each seat's zone on the plane (x0, y0, x1, y1 as fractions: the reader's own table layout,
#: :data:`vision.card_seats.TABLE_ZONES`) and how its cards lie (degrees): facing the seat.
ZONES: tuple[tuple[tuple[float, float, float, float], float], ...] = tuple(
    zip(TABLE_ZONES, (0.0, 0.0, 90.0, 180.0, 180.0, 270.0), strict=True)
)
PILE = (0.5, 0.5)  # the cleared tricks, face down


class GoujiTableRender:
    """One game's table seen by a fixed overhead camera; ``frame`` is (width, height) px."""

    def __init__(self, seed: int, frame: tuple[int, int] = FRAME) -> None:
        self.seed = seed
        self.frame = frame
        rng = np.random.default_rng(seed)
        self.style = random_style(rng)
        self.back = (int(rng.integers(len(COLOURS))), str(rng.choice(PATTERNS)))
        self.table = surface(rng, PLANE[1], PLANE[0], "felt" if rng.random() < 0.6 else None)
        angle = rng.uniform(0, 2 * math.pi)
        offset = rng.uniform(0.003, 0.012)
        self.shadow = np.array([math.cos(angle) * offset, math.sin(angle) * offset, 0.25])
        fw, fh = frame
        inset = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float64)
        seen = inset + rng.uniform(-0.025, 0.025, (4, 2)) * (fw, fh)  # a slightly tilted camera
        plane = np.array([[0, 0], [PLANE[0], 0], [PLANE[0], PLANE[1]], [0, PLANE[1]]], np.float32)
        self.homography = cv2.getPerspectiveTransform(plane, seen.astype(np.float32))
        self.light = _light(rng, fw, fh)
        self.pile = 0
        self._base = self._with_pile(0)

    @property
    def corners(self) -> np.ndarray:
        """The table's corners in the frame (far left, far right, near right, near left), as
        a calibration (``tilesight calibrate``) would give them."""
        return self._to_frame(np.array([[0, 0], [1, 0], [1, 1], [0, 1]]) * PLANE)

    @property
    def zones(self) -> SeatZones:
        """The six seat zones in frame pixels, from the corners (``SeatZones.from_corners``)."""
        return SeatZones.from_corners(self.corners)

    def _to_frame(self, points: np.ndarray) -> np.ndarray:
        pts = points.reshape(-1, 1, 2).astype(np.float64)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def _with_pile(self, count: int) -> np.ndarray:
        plane = self.table.copy()
        rng = np.random.default_rng([self.seed, count])
        ids = np.zeros(plane.shape[:2], np.int32)
        for _ in range(min(count, 12)):  # the top of the pile, squared up roughly
            x = PILE[0] * PLANE[0] + rng.normal(0, 12)
            y = PILE[1] * PLANE[1] + rng.normal(0, 12)
            card = Placed(None, x, y, float(rng.normal(0, 15)), CARD_HEIGHT, self.style, self.back)
            _paste(plane, ids, card, 1, rng=rng, light=self.shadow)
        return plane

    def plane(
        self, zones: Sequence[Sequence[str]], pile: int, laid: Sequence[int] = ()
    ) -> np.ndarray:
        """The table plane with ``zones[seat]`` (card codes) fanned in each seat's zone and
        ``pile`` cards face down in the middle; ``laid[seat]`` (when the play was laid) varies
        how each play lies, and keeps it still while it lies there."""
        if min(pile, 12) != min(self.pile, 12):
            self.pile, self._base = pile, self._with_pile(pile)
        plane = self._base.copy()
        ids = np.zeros(plane.shape[:2], np.int32)
        for seat, codes in enumerate(zones):
            when = laid[seat] if seat < len(laid) else 0
            rng = np.random.default_rng([self.seed, seat, when, len(codes)])
            for card in fan(rng, list(codes), seat, self.style):
                _paste(plane, ids, card, 1, rng=rng, light=self.shadow)
        return plane

    def frames(
        self,
        zones: Sequence[Sequence[str]],
        pile: int,
        count: int,
        key: int = 0,
        *,
        laid: Sequence[int] = (),
    ) -> Iterator[np.ndarray]:
        """``count`` camera frames of one table state (``key`` seeds their noise and JPEG),
        each frame its own; ``laid`` as for :meth:`plane`."""
        plane = self.plane(zones, pile, laid)
        image = cv2.warpPerspective(
            plane, self.homography, self.frame, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT
        )
        lit = image.astype(np.float32) * self.light
        for k in range(count):
            rng = np.random.default_rng([self.seed, key, k, 7])
            yield _film(lit, rng)


def fan(rng: np.random.Generator, codes: list[str], seat: int, style: object) -> list[Placed]:
    """``codes`` fanned in ``seat``'s zone as its player lays them, facing the player."""
    if not codes:
        return []
    (x0, y0, x1, y1), angle = ZONES[seat]
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2]) * PLANE + rng.normal(0, 15, 2)
    turn = angle + float(rng.normal(0, 4))
    a = math.radians(turn)
    right, down = np.array([math.cos(a), -math.sin(a)]), np.array([math.sin(a), math.cos(a)])
    width = CARD_HEIGHT * CARD_W_MM / CARD_H_MM
    room = ((x1 - x0) * PLANE[0] if angle % 180 == 0 else (y1 - y0) * PLANE[1]) * 0.85
    spread = rng.uniform(0.3, 0.42)
    if len(codes) > 1:
        spread = min(spread, (room / width - 1) / (len(codes) - 1))
    step = right * width * spread + down * CARD_HEIGHT * rng.uniform(-0.02, 0.06)
    start = centre - step * (len(codes) - 1) / 2
    out = []
    for i, code in enumerate(codes):
        at = start + step * i + rng.normal(0, 2, 2)
        lie = turn + float(rng.normal(0, 2.0)) + (180.0 if rng.random() < 0.04 else 0.0)
        out.append(Placed(code, float(at[0]), float(at[1]), lie, CARD_HEIGHT, style))  # type: ignore[arg-type]
    return out


def _light(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """The room's light over the frame (a ramp, a vignette, a colour cast), fixed for a game."""
    yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = ((xx - w / 2) * math.cos(angle) + (yy - h / 2) * math.sin(angle)) / max(h, w)
    vignette = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (max(h, w) / 2) ** 2
    light = rng.uniform(0.85, 1.1) + ramp * rng.uniform(0, 0.35) - vignette * rng.uniform(0, 0.2)
    light = cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)
    cast = rng.uniform(0.9, 1.08, 3).astype(np.float32)
    return light[..., None] * cast[None, None, :]


def _film(lit: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One frame of the sensor: noise, now and then a little blur, JPEG at quality 70-92."""
    noise = np.empty(lit.shape, np.float32)
    cv2.setRNGSeed(int(rng.integers(1 << 30)))
    cv2.randn(noise, 0.0, float(rng.uniform(1.5, 4.0)))
    image = lit + noise
    if rng.random() < 0.25:
        image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.4, 0.9)))
    out = np.clip(image, 0, 255).astype(np.uint8)
    quality = int(rng.integers(70, 93))
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)
