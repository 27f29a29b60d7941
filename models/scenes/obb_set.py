"""Training sets from rendered scenes: oriented boxes for the photo detector and upright face
crops for the classifier.

A label is a tile the camera sees at least half of (``visible``, cast rays) whose face or back
lies at least 60 % inside the frame. Its quad is the face (or back) as four projected corners;
ultralytics turns a quad into the smallest rotated rectangle around it. One class: a tile,
whatever side it shows (face, or back: face down, or standing seen from behind). The detector
only finds tiles; the classifier, which has a "back" output, says which side shows (a detector
with a back class of its own, trained first, never learnt backs from these scenes: recall 0).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from models.scenes.photo_effects import photograph
from vision.crops import CROP_H, CROP_W

MIN_VISIBLE = 0.5
MIN_INSIDE = 0.6


def _area(quad: np.ndarray) -> float:
    return float(abs(cv2.contourArea(quad.astype(np.float32))))


def usable(tile: dict[str, Any], width: int, height: int) -> np.ndarray | None:
    """The tile's quad clipped to the frame, or None when it is not a fair label."""
    if tile["visible"] < MIN_VISIBLE:
        return None
    quad = np.asarray(tile["corners"], np.float32)
    full = _area(quad)
    if full < 16:
        return None
    frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    inside, clipped = cv2.intersectConvexConvex(quad, frame)
    if inside < MIN_INSIDE * full or clipped is None:
        return None
    return quad if inside > 0.98 * full else clipped.reshape(-1, 2)


def rendered(folders: list[Path]) -> Iterator[tuple[Path, dict[str, Any]]]:
    """(image path, label record) of every rendered scene under ``folders``."""
    for folder in folders:
        for label_file in sorted((folder / "labels").glob("*.json")):
            record = json.loads(label_file.read_text(encoding="utf-8"))
            image = folder / "images" / record["image"]
            if image.is_file():
                yield image, record


def obb_lines(record: dict[str, Any]) -> list[str]:
    width, height = record["width"], record["height"]
    lines = []
    for tile in record["tiles"]:
        quad = usable(tile, width, height)
        if quad is None:
            continue
        if len(quad) != 4:
            rect = cv2.minAreaRect(quad.astype(np.float32))
            quad = cv2.boxPoints(rect)
        cls = 0  # one class, a tile whatever side shows: the classifier reads "back"
        coords = " ".join(f"{x / width:.5f} {y / height:.5f}" for x, y in quad)
        lines.append(f"{cls} {coords}")
    return lines


def write_obb_set(folders: list[Path], out: Path, copies: int = 2, seed: int = 0) -> int:
    """``copies`` photographs of every render, with their oriented-box labels; returns images."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    written = 0
    for image_path, record in rendered(folders):
        image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        lines = obb_lines(record)
        for copy in range(copies):
            stem = f"{image_path.parent.parent.name}-{image_path.stem}~{copy}"
            photo = photograph(image, rng, strength=1.0 if copy else 0.6)
            cv2.imwrite(str(out / "images" / f"{stem}.jpg"), photo, [cv2.IMWRITE_JPEG_QUALITY, 95])
            (out / "labels" / f"{stem}.txt").write_text("\n".join(lines), encoding="utf-8")
            written += 1
    return written


def dominant_turn(image: np.ndarray, boxes: list[list[float]]) -> float:
    """The turn (degrees, -45..45) of the strongest straight edges inside ``boxes``: 0 when the
    tiles lie square to the image, so that their axis-aligned boxes are fair oriented ones."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    mask = np.zeros(grey.shape, bool)
    for x1, y1, x2, y2 in boxes:
        mask[int(max(y1, 0)) : int(y2), int(max(x1, 0)) : int(x2)] = True
    magnitude = np.hypot(gx, gy)[mask]
    angle = np.degrees(np.arctan2(gy, gx))[mask] % 90
    histogram, _ = np.histogram(angle, bins=90, range=(0, 90), weights=magnitude)
    histogram = np.convolve(np.r_[histogram[-2:], histogram, histogram[:2]], np.ones(5), "valid")
    peak = float(np.argmax(histogram)) + 0.5
    return peak if peak <= 45 else peak - 90


def write_real_obb(
    folder: Path, out: Path, limit: int | None = None, seed: int = 0, max_turn: float = 30.0
) -> int:
    """Labelled real photos (models.photo.sources' cache layout) as oriented-box training
    images, class 0 (these sets show faces only). The publisher turned its photos and labelled
    each tile by the axis-aligned box of its turned outline: each box becomes the rectangle
    turned by the photo's turn (models.photo.turned_boxes); photos turned more than
    ``max_turn`` degrees, or whose rectangles overlap, are left out."""
    from models.photo.turned_boxes import fitted_quads

    labels = sorted((folder / "labels").glob("*.json"))
    rng = np.random.default_rng(seed)
    if limit is not None and limit < len(labels):
        labels = [labels[i] for i in sorted(rng.choice(len(labels), limit, replace=False))]
    written = 0
    for label_file in labels:
        record = json.loads(label_file.read_text(encoding="utf-8"))
        if not record.get("tiles"):
            continue
        image = cv2.imread(str(folder / "images" / record["image"]), cv2.IMREAD_COLOR)
        if image is None:
            continue
        boxes = [tuple(t["box"]) for t in record["tiles"]]
        turn = dominant_turn(image, [t["box"] for t in record["tiles"]])
        quads = fitted_quads(boxes, turn, image.shape[:2], max_turn=max_turn)
        if quads is None:
            continue
        width, height = record["width"], record["height"]
        lines = [
            "0 " + " ".join(f"{x / width:.5f} {y / height:.5f}" for x, y in quad) for quad in quads
        ]
        stem = f"{folder.name}-{label_file.stem}"
        target = out / "images" / f"{stem}{Path(record['image']).suffix}"
        target.write_bytes((folder / "images" / record["image"]).read_bytes())
        (out / "labels" / f"{stem}.txt").write_text("\n".join(lines), encoding="utf-8")
        written += 1
    return written


def upright_crop(image: np.ndarray, corners: np.ndarray, pad: float = 0.06) -> np.ndarray:
    """The face inside ``corners`` (TL, TR, BR, BL as read upright) warped to the classifier's
    CROP_W x CROP_H, with ``pad`` of the tile's size around it as the table crops have."""
    w, h = CROP_W, CROP_H
    px, py = w * pad / (1 + 2 * pad), h * pad / (1 + 2 * pad)
    target = np.array([[px, py], [w - px, py], [w - px, h - py], [px, h - py]], np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), target)
    return cv2.warpPerspective(
        image, matrix, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE
    )


def face_crops(folders: list[Path], seed: int = 0) -> tuple[np.ndarray, list[str]]:
    """Upright crops (N x 48 x 36 x 3) of every fairly visible face and back, with names."""
    rng = np.random.default_rng(seed)
    crops, names = [], []
    for image_path, record in rendered(folders):
        image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        photo = photograph(image, rng, strength=0.8)
        for tile in record["tiles"]:
            quad = usable(tile, record["width"], record["height"])
            if quad is None or len(quad) != 4 or tile["visible"] < 0.8:
                continue
            crops.append(upright_crop(photo, np.asarray(tile["corners"], np.float32)))
            names.append(tile["name"])
    shape = (0, CROP_H, CROP_W, 3)
    return (np.stack(crops) if crops else np.zeros(shape, np.uint8)), names
