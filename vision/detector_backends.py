"""The YOLO box detector's backends (ONNX Runtime by default, ultralytics optional) and the
registry that picks one by name (:func:`box_backend`); its 640 px view of the canvas, anchor
decoding, NMS and straddler dropping, plus the weights folder and the ONNX Runtime session
factory every network of vision/ loads through."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

WEIGHTS = Path(__file__).resolve().parent.parent / "models" / "weights"
CANVAS, DETECT_SIZE = 1024, 640


class DetectorError(RuntimeError):
    """Weights missing or unreadable, or an image that cannot be processed."""


def detector_view(canvas: np.ndarray, size: int = DETECT_SIZE) -> np.ndarray:
    """The canvas shrunk to the detector's input, the same way for training and at run time.
    Area averaging, as the detector was trained: bilinear is ~4 ms faster at 1024 -> 640 but
    aliases, and the box shapes it gives lost a turned tile in a kong (seed 1000, hand 3)."""
    return cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)


def anchor_grid(size: int, strides: tuple[int, ...] = (8, 16, 32)) -> tuple[np.ndarray, np.ndarray]:
    """YOLO's anchor points (N x 2, in cells, row by row per level) and each one's stride."""
    points, steps = [], []
    for stride in strides:
        cells = size // stride
        ys, xs = np.mgrid[0:cells, 0:cells].astype(np.float32) + 0.5
        points.append(np.column_stack([xs.ravel(), ys.ravel()]))
        steps.append(np.full(cells * cells, stride, np.float32))
    return np.concatenate(points), np.concatenate(steps)


def decode_boxes(logits: np.ndarray, anchors: np.ndarray, strides: np.ndarray) -> np.ndarray:
    """x1y1x2y2 input pixels from YOLO's box logits (64 x N: four sides x 16 distance bins, a
    softmax each, its expectation in cells) at ``anchors`` (N x 2 cells) of ``strides`` (N)."""
    bins = logits.reshape(4, 16, -1)
    weights = np.exp(bins - bins.max(axis=1, keepdims=True))
    distance = (weights * np.arange(16, dtype=np.float32)[None, :, None]).sum(axis=1)
    distance /= weights.sum(axis=1)  # 4 x N: left, top, right, bottom
    lo, hi = anchors - distance[:2].T, anchors + distance[2:].T
    return np.column_stack([lo, hi]) * strides[:, None]


class BoxBackend(Protocol):
    threshold: float  # the least score of a box it reports

    def locate(
        self, image: np.ndarray, floor: float | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Boxes (N x 4, x1y1x2y2 px of ``image``), scores (N), classes (N; 0 face, 1 back);
        with a ``floor`` under the threshold, boxes scored down to it too (the caller judges
        them: :mod:`vision.row_fill`)."""


def onnx_session(path: Path):  # type: ignore[no-untyped-def]
    import onnxruntime as ort  # noqa: PLC0415 - loaded only when a detector is built

    if not path.is_file():
        raise DetectorError(f"weights not found: {str(path)!r}")
    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    # no busy-waiting between runs: on two cores the spinning threads took time from the rest
    # of the frame (crops, stabiliser); ~10 % faster per frame on the eighth session's CPU
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors
        raise DetectorError(f"cannot load {str(path)!r}: {exc}") from exc


def crop_probabilities(session: Any, crops: np.ndarray, outputs: int) -> np.ndarray:
    """A crop network's softmax outputs (N x ``outputs``) for BGR crops (N x H x W x 3)."""
    if len(crops) == 0:
        return np.zeros((0, outputs), np.float32)
    blob = crops.transpose(0, 3, 1, 2).astype(np.float32) / 255
    return np.asarray(session.run(None, {"crops": blob})[0])


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    if len(boxes) == 0:
        return np.zeros(0, np.int64)
    xywh = np.column_stack([boxes[:, :2], boxes[:, 2:] - boxes[:, :2]]).tolist()
    keep = cv2.dnn.NMSBoxes(xywh, scores.tolist(), 0.0, iou)
    return np.array(keep, np.int64).reshape(-1)


def drop_straddlers(
    boxes: np.ndarray, faces: np.ndarray, cover: float = 0.8, each: float = 0.2
) -> np.ndarray:
    """Indices of the boxes to keep. Tiles lie flat and never overlap, so a face box (``faces``:
    a mask) covered by at least ``cover`` is no tile of its own when one other box covers it
    so (two boxes over one turned tile), or when two or more others each cover at least
    ``each`` of it (a box straddling touching tiles, which plain NMS keeps: it overlaps each of
    them by less than half). The most covered goes first, then the rest are measured again
    without it. Slivers do not count: in a tightly packed river a true tile's box, a little
    larger than its tile, overlaps all four neighbours', and with a straddler over most of it
    is covered more in sum than the straddler, but by one large part only. Backs are left
    alone: a wall's two tiers make overlapping back boxes legitimate."""
    lo = np.maximum(boxes[:, None, :2], boxes[None, :, :2])
    hi = np.minimum(boxes[:, None, 2:], boxes[None, :, 2:])
    shared = np.prod(np.clip(hi - lo, 0, None), axis=2)
    np.fill_diagonal(shared, 0)
    areas = np.maximum(np.prod(np.clip(boxes[:, 2:] - boxes[:, :2], 0, None), axis=1), 1e-9)
    part = shared / areas[:, None]  # [i, j]: the part of box i that box j covers
    alive = np.ones(len(boxes), bool)
    while alive.any():
        large = np.where((part >= each) & alive[None, :], part, 0.0)
        by_one, coverers = large.max(axis=1), (large > 0).sum(axis=1)
        by_all = np.where(coverers >= 2, large.sum(axis=1), by_one)
        covered = np.where(alive & faces, by_all, 0.0)
        worst = int(covered.argmax())
        if covered[worst] < cover:
            break
        alive[worst] = False
    return np.flatnonzero(alive)


class OnnxBoxes:
    """The YOLO box detector through ONNX Runtime (no torch)."""

    def __init__(self, path: Path = WEIGHTS / "detector.onnx", threshold: float = 0.3) -> None:
        self.session = onnx_session(path)
        model_input = self.session.get_inputs()[0]
        self.input = model_input.name
        size = model_input.shape[-1]
        self.size = size if isinstance(size, int) else DETECT_SIZE  # the size it was exported at
        self.threshold = threshold
        self.anchors, self.strides = anchor_grid(self.size)

    def locate(
        self, image: np.ndarray, floor: float | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        least = self.threshold if floor is None else min(floor, self.threshold)
        h, w = image.shape[:2]
        blob = cv2.dnn.blobFromImage(detector_view(image, self.size), 1 / 255, swapRB=True)
        try:
            outputs = self.session.run(None, {self.input: blob})
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise DetectorError(f"detector failed on a {w}x{h} image: {exc}") from exc
        if len(outputs) == 2:  # the cut head (training/detector_head.py): decode likely boxes
            logits, class_scores = outputs[0][0], outputs[1][0]
            scores = class_scores.max(axis=0)
            keep = np.flatnonzero(scores >= least)
            scores, classes = scores[keep], class_scores[:, keep].argmax(axis=0)
            boxes = decode_boxes(logits[:, keep], self.anchors[keep], self.strides[keep])
        else:  # a plain ultralytics export: N x (4 + classes), boxes as centre and size
            out = outputs[0][0].T
            scores = out[:, 4:].max(axis=1)
            out, scores = out[scores >= least], scores[scores >= least]
            classes = out[:, 4:].argmax(axis=1)
            cx, cy, bw, bh = out[:, 0], out[:, 1], out[:, 2], out[:, 3]
            boxes = np.column_stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2])
        boxes *= np.array([w, h, w, h]) / self.size
        keep_idx = nms(boxes, scores, 0.5)
        return boxes[keep_idx], scores[keep_idx], classes[keep_idx]


class UltralyticsBoxes:
    """The same detector through ultralytics and torch (``pip install tilesight[train]``)."""

    def __init__(self, path: Path, threshold: float = 0.3) -> None:
        from ultralytics import YOLO  # type: ignore[attr-defined]  # noqa: PLC0415 - optional

        self.model: Any = YOLO(str(path))
        self.threshold = threshold

    def locate(
        self, image: np.ndarray, floor: float | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        least = self.threshold if floor is None else min(floor, self.threshold)
        result: Any = self.model.predict(image, imgsz=DETECT_SIZE, conf=least, verbose=False)[0]
        return (
            result.boxes.xyxy.cpu().numpy(),
            result.boxes.conf.cpu().numpy(),
            result.boxes.cls.cpu().numpy().astype(int),
        )


def _onnx(model: Path | None, threshold: float) -> BoxBackend:
    if model is None:
        return OnnxBoxes(threshold=threshold)  # the shipped weights
    return OnnxBoxes(model, threshold=threshold)


def _ultralytics(model: Path | None, threshold: float) -> BoxBackend:
    if model is None:
        raise ValueError("detector backend 'ultralytics' needs [detector] model")
    return UltralyticsBoxes(model, threshold=threshold)


#: Backends by the name ``[detector] backend`` gives: each builds from a weights file (None: the
#: backend's default) and a confidence threshold.
BACKENDS: dict[str, Callable[[Path | None, float], BoxBackend]] = {
    "onnx": _onnx,
    "ultralytics": _ultralytics,
}


def box_backend(name: str, model: Path | None = None, threshold: float = 0.3) -> BoxBackend:
    """The backend registered as ``name``, built; LookupError names the known ones."""
    if name not in BACKENDS:
        raise LookupError(f"unknown detector backend {name!r} (known: {', '.join(BACKENDS)})")
    return BACKENDS[name](model, threshold)
