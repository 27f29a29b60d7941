"""The renderer's labels are exact: every box holds its drawn tile and little else."""

from __future__ import annotations

import itertools

import cv2
import numpy as np

from models.drawn.camera import TABLE_PX, canvas_labels, render_frame
from models.drawn.render import render_table, visible_fraction
from vision.layout import MeldSpec, TableSpec


def _lonely_tile_spec(name: str, seat: int) -> TableSpec:
    spec = TableSpec(concealed=[0, 0, 0, 0], walls=[(0, 0)] * 4)
    spec.rivers[seat] = [name]
    return spec


def _tile_pixels(image: np.ndarray, felt: np.ndarray) -> np.ndarray:
    """Mask of pixels that differ clearly from the bare felt."""
    diff = np.abs(image.astype(np.int16) - felt.astype(np.int16)).max(axis=2)
    return diff > 60


def test_table_label_box_contains_the_tile_and_is_tight(faces) -> None:
    for seat, name in enumerate(["5m", "C", "7s", "3f"]):
        spec = _lonely_tile_spec(name, seat)
        image, labels = render_table(spec, faces, 512, np.random.default_rng(seat))
        bare, _ = render_table(
            TableSpec(concealed=[0] * 4, walls=[(0, 0)] * 4),
            faces,
            512,
            np.random.default_rng(seat),
        )
        assert len(labels) == 1 and labels[0].spot.name == name
        assert labels[0].spot.orientation == seat * 90
        ys, xs = np.nonzero(_tile_pixels(image, bare))
        x1, y1, x2, y2 = labels[0].box
        # the coloured back layer peeks out by a couple of pixels on the shadow side
        assert xs.min() >= x1 - 4 and xs.max() <= x2 + 4
        assert ys.min() >= y1 - 4 and ys.max() <= y2 + 4
        inside = _tile_pixels(image, bare)[int(y1) + 2 : int(y2) - 1, int(x1) + 2 : int(x2) - 1]
        assert inside.mean() > 0.8, f"box of {name} is not filled by the tile"


def test_sideways_meld_tile_has_a_wide_box(faces) -> None:
    spec = TableSpec(concealed=[0] * 4, walls=[(0, 0)] * 4)
    spec.melds[0] = [MeldSpec(["E", "E", "E"], 1)]
    _, labels = render_table(spec, faces, TABLE_PX, np.random.default_rng(0))
    widths = [(lab.box[2] - lab.box[0]) / (lab.box[3] - lab.box[1]) for lab in labels]
    assert [w > 1 for w in widths] == [False, True, False]
    assert labels[1].spot.sideways and labels[1].spot.orientation == 90


def test_camera_frame_labels_follow_projection_and_distortion(faces) -> None:
    spec = _lonely_tile_spec("9p", 0)
    corners = np.float32([[700, 200], [1300, 230], [1280, 850], [690, 820]])
    frame = render_frame(
        spec,
        faces,
        np.random.default_rng(1),
        arms=0,
        corners=corners,
        distortion=0.05,
        effects=False,
        table_seed=7,  # the table's own draws: the camera's stay the same with or without tiles
    )
    bare = render_frame(
        TableSpec(concealed=[0] * 4, walls=[(0, 0)] * 4),
        faces,
        np.random.default_rng(1),
        arms=0,
        corners=corners,
        distortion=0.05,
        effects=False,
        table_seed=7,  # the table's own draws: the camera's stay the same with or without tiles
    )
    ys, xs = np.nonzero(_tile_pixels(frame.image, bare.image))
    x1, y1, x2, y2 = frame.labels[0].box
    assert len(xs) > 200
    assert xs.min() >= x1 - 3 and xs.max() <= x2 + 3 and ys.min() >= y1 - 3 and ys.max() <= y2 + 3
    assert frame.labels[0].visible == 1.0


def test_visible_fraction_counts_the_covered_share() -> None:
    mask = np.zeros((100, 100), np.uint8)
    mask[:, 50:] = 255
    quad = np.array([[40, 10], [60, 10], [60, 30], [40, 30]], np.float64)
    assert abs(visible_fraction(mask, quad) - 0.5) < 0.08
    assert visible_fraction(mask, quad - (30, 0)) == 1.0


def test_arms_hide_some_tiles_in_some_frames(faces) -> None:
    spec = TableSpec()
    spec.rivers = [["1m"] * 18 for _ in range(4)]
    hidden_counts = []
    for seed in range(6):
        frame = render_frame(
            spec, faces, np.random.default_rng(seed), arms=2, frame_size=(960, 540)
        )
        hidden_counts.append(sum(lab.visible < 0.5 for lab in frame.labels))
        assert frame.image.shape == (540, 960, 3)
    assert max(hidden_counts) > 0
    assert all(count < 72 + 18 * 4 for count in hidden_counts)


def test_a_wall_of_backs_shows_a_seam_between_touching_tiles(faces) -> None:
    spec = TableSpec(concealed=[0] * 4, walls=[(4, 8), (0, 0), (0, 0), (0, 0)])
    image, labels = render_table(spec, faces, 1024, np.random.default_rng(3))
    backs = sorted((lab for lab in labels if lab.spot.name == "back"), key=lambda b: b.spot.centre)
    assert len(backs) == 4
    grey = image.astype(np.float32).mean(axis=2)
    for left, right in itertools.pairwise(backs):
        y = round(left.corners[:, 1].mean())
        seam = round((left.corners[:, 0].max() + right.corners[:, 0].min()) / 2)
        middle = round(left.corners[:, 0].mean())
        # the rims where two tiles touch are clearly darker than the middle of a back
        assert grey[y, seam - 1 : seam + 2].min() < 0.85 * grey[y, middle]


def test_frames_of_one_seeded_table_reuse_the_drawing_but_not_the_camera(faces) -> None:
    spec = _lonely_tile_spec("5m", 0)
    corners = np.float32([[700, 200], [1300, 230], [1280, 850], [690, 820]])
    first, second = (
        render_frame(
            spec,
            faces,
            np.random.default_rng(i),
            arms=0,
            corners=corners,
            distortion=0.0,
            table_seed=4,
        )
        for i in (1, 2)
    )
    np.testing.assert_allclose(first.labels[0].corners, second.labels[0].corners)
    assert not np.array_equal(first.image, second.image)  # light, noise and JPEG differ
    spec.rivers[0].append("6m")  # a new state is drawn afresh
    third = render_frame(
        spec, faces, np.random.default_rng(1), arms=0, corners=corners, table_seed=4
    )
    assert len(third.labels) == 2


def test_concealed_kongs_in_random_tables_are_optional_and_labelled_as_laid(faces) -> None:
    from models.drawn.dataset import KONG_DISPLAYS, random_spec

    plain = [random_spec(np.random.default_rng(seed)) for seed in range(30)]
    again = [random_spec(np.random.default_rng(seed), kongs=0.0) for seed in range(30)]
    assert plain == again  # the option off draws nothing: old seeds give old tables
    with_kongs = [random_spec(np.random.default_rng(seed), kongs=1.0) for seed in range(30)]
    melds = [m for spec in with_kongs for seat in spec.melds for m in seat]
    assert melds and all(m.sideways_index == -1 and len(m.names) == 4 for m in melds)
    downs = {tuple(name == "back" for name in m.names) for m in melds}
    assert downs == set(KONG_DISPLAYS)
    spec = TableSpec()
    spec.melds[1] = [MeldSpec(["back", "6s", "6s", "back"], -1)]
    _, labels = render_table(spec, faces, 512, np.random.default_rng(3))
    laid = [label.spot.name for label in labels if label.spot.zone == "meld"]
    assert laid == ["back", "6s", "6s", "back"]
    assert not any(label.spot.sideways for label in labels if label.spot.zone == "meld")


def test_canvas_labels_map_visible_tiles_onto_the_rectified_table(faces) -> None:
    spec = _lonely_tile_spec("9p", 0)
    corners = np.float32([[700, 200], [1300, 230], [1280, 850], [690, 820]])
    frame = render_frame(spec, faces, np.random.default_rng(1), arms=0, corners=corners)
    square = np.float32([[0, 0], [TABLE_PX, 0], [TABLE_PX, TABLE_PX], [0, TABLE_PX]])
    homography = cv2.getPerspectiveTransform(frame.table_corners.astype(np.float32), square)
    ((label, box),) = canvas_labels(frame, homography, min_visible=0.5)
    assert label.spot.name == "9p"
    x1, y1, x2, y2 = box
    cx, cy = label.spot.centre
    assert abs((x1 + x2) / 2 / TABLE_PX - cx) < 0.01 and abs((y1 + y2) / 2 / TABLE_PX - cy) < 0.01
    assert canvas_labels(frame, homography, min_visible=1.01) == []  # none that visible
