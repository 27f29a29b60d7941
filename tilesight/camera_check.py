"""The calibration a table's cameras read with, checked before ``tilesight run`` starts a thread.

At start: the file must exist and parse, and where it records the frame size it was made on
(``tilesight calibrate`` writes it) every zone must lie inside that frame; otherwise ``run``
refuses to start. On a camera's first frame: the frame must be that size, or, for a file that
does not record one, hold every zone; otherwise the camera worker stops with a
:class:`~tilesight.supervisor.WorkerFaultError` (its link goes offline with the reason, which the
referee console shows) instead of retrying: only a new calibration or the camera put back can
fix it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from tilesight.supervisor import WorkerFaultError

if TYPE_CHECKING:
    import numpy as np

    from tilesight.config import ServiceConfig
    from vision.calibration import Calibration

REMEDY = "make it with: tilesight calibrate --config <this config> (docs/vision.md)"


def load_calibration(config: ServiceConfig) -> Calibration:
    """The overhead cameras' calibration, or a :class:`CalibrationError` saying what is wrong."""
    from vision.calibration import Calibration, CalibrationError  # noqa: PLC0415 - OpenCV
    from vision.calibration_check import check_fits, corner_order_problem  # noqa: PLC0415

    path = config.calibration.path
    if path is None:
        raise CalibrationError(f"an overhead camera needs a [calibration] path; {REMEDY}")
    name = f"calibration {str(path)!r}"
    if not path.is_file():
        raise CalibrationError(f"{name} does not exist; {REMEDY}")
    try:
        calibration = Calibration.load(path)
    except CalibrationError as exc:
        raise CalibrationError(f"{name}: {exc}; {REMEDY}") from exc
    order = corner_order_problem(calibration)
    if order is not None:
        raise CalibrationError(f"{name}: {order}; run tilesight calibrate again")
    if calibration.image_size is not None:
        try:
            check_fits(calibration, calibration.image_size, name, config.game)
        except CalibrationError as exc:
            raise CalibrationError(f"{exc}; run tilesight calibrate again") from exc
    return calibration


def check_first_frame(
    calibration: Calibration, image: np.ndarray, path: Path | None, game: str = "mahjong"
) -> None:
    """Raise :class:`WorkerFaultError` when the camera's frames do not fit the calibration (the
    zones of a ``game`` table)."""
    from vision.calibration import CalibrationError  # noqa: PLC0415
    from vision.calibration_check import check_fits  # noqa: PLC0415

    height, width = image.shape[:2]
    name = f"calibration {str(path)!r}"
    made_on = calibration.image_size
    if made_on is not None and made_on != (width, height):
        raise WorkerFaultError(
            f"the camera gives {width}x{height} frames but {name} was made on "
            f"{made_on[0]}x{made_on[1]} frames; run tilesight calibrate again"
        )
    try:
        check_fits(calibration, (width, height), name, game)
    except CalibrationError as exc:
        raise WorkerFaultError(f"{exc}; run tilesight calibrate again") from exc
