"""The public-domain (CC0) riichi tile art in ``shared/datasets/tile-art-cc0`` as faces.

Training only: the SVGs are rasterised at data-generation time (``cairosvg``, a training extra)
and never committed. Two styles (``Regular``, ``Black``), 34 kinds plus the red fives as extra
5m/5p/5s faces; no flowers. Each face is drawn over the set's own ivory tile front.
"""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np

from models.art.faces import FACE_H, FACE_W

log = logging.getLogger(__name__)

HONOURS = {"Ton": "E", "Nan": "S", "Shaa": "W", "Pei": "N", "Chun": "C", "Hatsu": "F", "Haku": "P"}
SUITS = {"Man": "m", "Pin": "p", "Sou": "s"}


def notation(stem: str) -> str | None:
    """``Man5-Dora`` -> ``5m``, ``Ton`` -> ``E``; None for tile bodies (Front, Back, Blank)."""
    if stem in HONOURS:
        return HONOURS[stem]
    base = stem.split("-", maxsplit=1)[0]
    for prefix, suit in SUITS.items():
        if base.startswith(prefix) and base[len(prefix) :].isdigit():
            return f"{base[len(prefix) :]}{suit}"
    return None


def _raster(path: Path) -> np.ndarray:
    import cairosvg  # training extra

    png = cairosvg.svg2png(url=str(path), output_width=FACE_W, output_height=FACE_H)
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise ValueError(f"cannot rasterise {path}")
    return np.asarray(image)


def _over(face: np.ndarray, front: np.ndarray) -> np.ndarray:
    alpha = face[..., 3:4].astype(np.float32) / 255
    body = front[..., :3].astype(np.float32)
    return np.asarray(face[..., :3] * alpha + body * (1 - alpha), np.uint8)


def cc0_faces(root: Path) -> dict[str, list[np.ndarray]]:
    """Faces per engine name from ``root`` (the tile-art-cc0 folder); empty when unavailable."""
    try:
        import cairosvg  # noqa: F401  # training extra
    except ImportError:
        log.warning("cairosvg not installed: the CC0 tile art is skipped")
        return {}
    faces: dict[str, list[np.ndarray]] = {}
    for style in sorted(p for p in root.iterdir() if p.is_dir()):
        front_svg = style / "Front.svg"
        front = _raster(front_svg) if front_svg.is_file() else None
        if front is None or front[..., 3].mean() < 200:
            front = np.full((FACE_H, FACE_W, 4), (225, 238, 244, 255), np.uint8)
        for svg in sorted(style.glob("*.svg")):
            name = notation(svg.stem)
            if name is not None:
                faces.setdefault(name, []).append(_over(_raster(svg), front))
    return faces
