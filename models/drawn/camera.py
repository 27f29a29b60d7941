"""See a rendered table through an overhead camera, and rectify it back as the runtime does."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from models.drawn.render import Labelled, add_arms, jpeg, lighting, render_table, visible_fraction
from vision.layout import TableSpec

TABLE_PX = 1024  # the rectified table canvas the detector and classifier read


@dataclass
class Frame:
    image: np.ndarray
    labels: list[Labelled]  # corners in frame pixels, visibility set
    table_corners: np.ndarray  # the table's corners in the frame: TL, TR, BR, BL of seat 0's view


def _distort_points(points: np.ndarray, centre: np.ndarray, radius: float, k: float) -> np.ndarray:
    """Where undistorted points land after the radial distortion used by :func:`_distort`."""
    out = points.astype(np.float64).copy()
    for _ in range(8):  # the remap is defined dst -> src, so invert it by fixed-point iteration
        r2 = (((out - centre) / radius) ** 2).sum(axis=1, keepdims=True)
        out = centre + (points - centre) / (1 + k * r2)
    return out


def _distort(image: np.ndarray, k: float, interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
    h, w = image.shape[:2]
    centre = np.array([w / 2, h / 2])
    radius = float(np.hypot(w, h) / 2)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xs - centre[0]) ** 2 + (ys - centre[1]) ** 2) / radius**2
    map_x = (centre[0] + (xs - centre[0]) * (1 + k * r2)).astype(np.float32)
    map_y = (centre[1] + (ys - centre[1]) * (1 + k * r2)).astype(np.float32)
    return cv2.remap(image, map_x, map_y, interpolation, borderMode=cv2.BORDER_REFLECT)


def random_camera(
    frame_w: int, frame_h: int, rng: np.random.Generator, span: tuple[float, float] = (0.6, 0.97)
) -> np.ndarray:
    """The table's four corners in an undistorted frame: a random, slightly tilted overhead view."""
    side = rng.uniform(*span) * frame_h
    centre = np.array([frame_w / 2, frame_h / 2]) + rng.normal(0, 0.03, 2) * (frame_w, frame_h)
    theta = np.radians(rng.normal(0, 4))
    rot = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    square = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]) * side
    corners = square @ rot.T + centre + rng.normal(0, 0.03 * side, (4, 2))
    return corners.astype(np.float32)


_last_table: dict[tuple[int, int, str], tuple[object, np.ndarray, list[Labelled]]] = {}


def _seeded_table(
    spec: TableSpec, faces: dict[str, list[np.ndarray]], seed: int
) -> tuple[np.ndarray, list[Labelled]]:
    """The table drawn from its own seed: the same spec and seed always give the same table, so
    the frames of one table state (a video holding still) reuse the last drawing."""
    key = (seed, id(faces), repr(spec))
    if key not in _last_table or _last_table[key][0] is not faces:  # held: its id stays unique
        _last_table.clear()
        drawn = render_table(spec, faces, TABLE_PX, np.random.default_rng(seed))
        _last_table[key] = (faces, *drawn)
    _, table, labels = _last_table[key]
    return table.copy(), list(labels)


def render_frame(
    spec: TableSpec,
    faces: dict[str, list[np.ndarray]],
    rng: np.random.Generator,
    *,
    frame_size: tuple[int, int] = (1920, 1080),
    arms: int | None = None,
    corners: np.ndarray | None = None,
    distortion: float | None = None,
    effects: bool = True,
    table_seed: int | None = None,
) -> Frame:
    """One camera frame of ``spec`` with exact labels; ``corners``/``distortion`` fix the camera."""
    w, h = frame_size
    if table_seed is None:
        table, labels = render_table(spec, faces, TABLE_PX, rng)
    else:
        table, labels = _seeded_table(spec, faces, table_seed)
    if corners is None:
        corners = random_camera(w, h, rng)
    square = np.float32([[0, 0], [TABLE_PX, 0], [TABLE_PX, TABLE_PX], [0, TABLE_PX]])
    homography = cv2.getPerspectiveTransform(square, corners)
    floor = tuple(int(c) for c in rng.integers(20, 120, 3))
    image = cv2.warpPerspective(table, homography, (w, h), flags=cv2.INTER_AREA, borderValue=floor)
    count = int(rng.integers(0, 3)) if arms is None else arms
    mask = add_arms(image, rng, count)
    k = float(rng.uniform(-0.06, 0.06)) if distortion is None else distortion
    centre, radius = np.array([w / 2, h / 2]), float(np.hypot(w, h) / 2)
    if k:
        image = _distort(image, k)
        mask = _distort(mask, k, cv2.INTER_NEAREST)
    if effects:
        image = jpeg(lighting(image, rng), rng)

    def project(points: np.ndarray) -> np.ndarray:
        flat = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), homography)
        flat = flat.reshape(-1, 2)
        return _distort_points(flat, centre, radius, k) if k else flat

    framed = []
    for label in labels:
        quad = project(label.corners)
        framed.append(Labelled(label.spot, quad, visible_fraction(mask, quad)))
    return Frame(image, framed, project(square))


def rectify(
    image: np.ndarray, corners: np.ndarray, size: int = TABLE_PX
) -> tuple[np.ndarray, np.ndarray]:
    """The table warped to a ``size`` square, and the frame-to-table homography used."""
    square = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    homography = cv2.getPerspectiveTransform(corners.astype(np.float32), square)
    return cv2.warpPerspective(image, homography, (size, size), flags=cv2.INTER_LINEAR), homography


def canvas_labels(
    frame: Frame, homography: np.ndarray, min_visible: float, size: int = TABLE_PX
) -> list[tuple[Labelled, tuple[float, float, float, float]]]:
    """The frame's labels at least ``min_visible`` visible, each with its box on the rectified
    ``size`` canvas (clipped to it); a box under 4 px on a side is left out."""
    out = []
    for label in frame.labels:
        if label.visible < min_visible:
            continue
        quad = cv2.perspectiveTransform(label.corners.reshape(-1, 1, 2), homography)
        lo = np.clip(quad.reshape(-1, 2).min(axis=0), 0, size)
        hi = np.clip(quad.reshape(-1, 2).max(axis=0), 0, size)
        if (hi - lo).min() >= 4:
            out.append((label, (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))))
    return out
