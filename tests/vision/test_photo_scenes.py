"""The photo scene plans, their labels as training sets, and the evaluation's counting."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.photo.scoring import Tally, Truth, match
from models.scenes.groups import GROUP_MAKERS, Slot, pose_matrix
from models.scenes.obb_set import obb_lines, upright_crop, usable, write_real_obb
from models.scenes.photo_effects import photograph
from models.scenes.plan import Deck, random_plan, tile_style


def test_a_plan_is_fixed_by_its_seed_and_differs_between_seeds() -> None:
    assert random_plan(11) == random_plan(11)
    assert random_plan(11) != random_plan(12)
    assert json.loads(json.dumps(random_plan(5))) == random_plan(5)  # JSON-ready for Blender


def test_a_scene_never_holds_a_fifth_copy_or_a_second_flower() -> None:
    for seed in range(60):
        counts = Counter(t["name"] for t in random_plan(seed)["tiles"])
        assert all(n <= (1 if k.endswith("f") else 4) for k, n in counts.items()), (seed, counts)


def test_some_scenes_hold_no_tile_and_all_hold_clutter_then() -> None:
    plans = [random_plan(seed) for seed in range(200)]
    empty = [p for p in plans if not p["tiles"]]
    assert 4 <= len(empty) <= 40
    assert all(len(p["clutter"]) >= 2 for p in empty)
    assert random_plan(3, empty=1.0)["tiles"] == []


def test_tiles_rest_on_the_surface_and_face_where_their_pose_says() -> None:
    rng = np.random.default_rng(0)
    style = tile_style(rng)
    for pose, normal_z in (("up", 1.0), ("down", -1.0), ("stand", 0.0)):
        matrix = np.array(pose_matrix(Slot("5p", pose, (0.0, 0.0)), 3.0, 4.0, 0.7, style))
        assert matrix[2, 2] == pytest.approx(normal_z, abs=1e-9)  # the face normal's height
        assert matrix[:2, 3] == pytest.approx([3.0, 4.0])
        lowest = min(
            (matrix @ np.array([sx * style["w"] / 2, sy * style["h"] / 2, sz * style["d"] / 2, 1]))[
                2
            ]
            for sx in (-1, 1)
            for sy in (-1, 1)
            for sz in (-1, 1)
        )
        assert lowest == pytest.approx(0.0, abs=1e-9)  # touching the table, not in it


def test_every_group_maker_lays_tiles_that_do_not_overlap() -> None:
    rng = np.random.default_rng(4)
    style = tile_style(rng)
    for name, maker in GROUP_MAKERS.items():
        slots = maker(rng, Deck(rng), style)
        assert slots, name
        flat = [s for s in slots if s.level == 0]
        for i, a in enumerate(flat):
            for b in flat[i + 1 :]:
                assert np.hypot(a.xy[0] - b.xy[0], a.xy[1] - b.xy[1]) > 0.9 * style["w"], name


def _tile(corners: list[list[float]], visible: float = 1.0, name: str = "5p") -> dict:
    return {"name": name, "corners": corners, "visible": visible}


def test_a_label_needs_half_the_tile_seen_and_most_of_it_in_frame() -> None:
    square = [[10, 10], [40, 10], [40, 50], [10, 50]]
    assert usable(_tile(square), 100, 100) is not None
    assert usable(_tile(square, visible=0.4), 100, 100) is None
    half_out = [[-25, 10], [5, 10], [5, 50], [-25, 50]]
    assert usable(_tile(half_out), 100, 100) is None
    mostly_in = [[-5, 10], [25, 10], [25, 50], [-5, 50]]
    clipped = usable(_tile(mostly_in), 100, 100)
    assert clipped is not None and clipped[:, 0].min() >= 0


def test_oriented_box_lines_are_normalised_quads_of_one_class() -> None:
    record = {
        "width": 200,
        "height": 100,
        "tiles": [
            _tile([[10, 10], [40, 10], [40, 50], [10, 50]]),
            _tile([[100, 20], [130, 20], [130, 60], [100, 60]], name="back"),
            _tile([[150, 20], [180, 20], [180, 60], [150, 60]], visible=0.2),
        ],
    }
    lines = obb_lines(record)
    assert len(lines) == 2
    assert [line.split()[0] for line in lines] == ["0", "0"]  # one class: the reader names backs
    values = [float(v) for v in lines[0].split()[1:]]
    assert values == pytest.approx([0.05, 0.1, 0.2, 0.1, 0.2, 0.5, 0.05, 0.5])


def test_real_photo_labels_become_quads_of_their_boxes(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    cv2.imwrite(str(folder / "images" / "a.jpg"), np.full((50, 100, 3), 90, np.uint8))
    record = {
        "image": "a.jpg",
        "width": 100,
        "height": 50,
        "tiles": [{"tile": "E", "box": [10, 5, 30, 45]}],
    }
    (folder / "labels" / "a.json").write_text(json.dumps(record))
    out = tmp_path / "out"
    (out / "images").mkdir(parents=True)
    (out / "labels").mkdir()
    assert write_real_obb(folder, out) == 1
    (line,) = (out / "labels" / "set-a.txt").read_text().splitlines()
    assert [float(v) for v in line.split()] == pytest.approx(
        [0, 0.1, 0.1, 0.3, 0.1, 0.3, 0.9, 0.1, 0.9]
    )


def test_an_upright_crop_turns_a_turned_face_back_upright() -> None:
    image = np.zeros((120, 120, 3), np.uint8)
    image[20:60, 40:70] = 255  # a face whose top half is white, drawn turned a quarter
    turned = cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE)
    # the white half's corners after the turn: TL (20, 79), TR (20, 50), BR (100, 50)...
    corners = np.array([[20, 80], [20, 50], [100, 50], [100, 80]], np.float32)
    crop = upright_crop(turned, corners)
    assert crop.shape == (48, 36, 3)
    assert crop[5:20].mean() > 200 and crop[30:44].mean() < 60


def test_a_photograph_keeps_the_frame_and_strength_zero_keeps_the_pixels() -> None:
    rng = np.random.default_rng(1)
    image = (rng.random((60, 80, 3)) * 255).astype(np.uint8)
    assert np.array_equal(photograph(image, rng, 0.0), image)
    shots = [photograph(image, np.random.default_rng(s)) for s in range(6)]
    assert all(s.shape == image.shape and s.dtype == np.uint8 for s in shots)
    assert any(not np.array_equal(s, image) for s in shots)


def test_matching_pairs_each_tile_once_best_overlap_first() -> None:
    truth = [(0, 0, 10, 10), (10, 0, 20, 10)]
    reported = [(10.5, 0, 20.5, 10), (0, 0, 10, 10), (50, 50, 60, 60)]
    assert sorted(match(truth, reported)) == [(0, 1), (1, 0)]


def test_a_tally_counts_right_readings_wrong_boxes_and_silence_on_empty_images() -> None:
    tally = Tally()
    truths = [
        Truth("5p", (0, 0, 10, 14)),
        Truth("1f", (20, 0, 30, 14)),
        Truth("E", (40, 0, 50, 14), counted=False),
    ]
    tally.add(
        truths,
        [
            ("5p", (0, 0, 10, 14)),
            ("2f", (20, 0, 30, 14)),
            ("E", (40, 0, 50, 14)),
            ("C", (80, 0, 90, 14)),
        ],
    )
    tally.add([], [])
    tally.add([], [("back", (0, 0, 5, 5))])
    summary = tally.summary()
    assert summary["tiles"]["hits"] == 1 and summary["tiles"]["total"] == 2
    assert summary["boxes"]["hits"] == 1 and summary["boxes"]["total"] == 4  # the hidden E not
    assert summary["flowers"]["total"] == 1 and summary["flowers"]["hits"] == 0
    assert summary["silent_on_empty"]["hits"] == 1 and summary["silent_on_empty"]["total"] == 2
    assert summary["confusions"] == [["1f", "2f", 1]]
    # the C lies 40 px (nearly three tile lengths) from every labelled tile: away, left out of
    # boxes_near; the tile-free photo's back is never away
    assert summary["boxes_near"]["hits"] == 1 and summary["boxes_near"]["total"] == 3


def test_a_box_beside_the_labelled_tiles_counts_wrong_near_them_too() -> None:
    tally = Tally()
    truths = [Truth("5p", (0, 0, 10, 14)), Truth("6p", (11, 0, 21, 14))]
    tally.add(truths, [("5p", (0, 0, 10, 14)), ("7p", (30, 0, 40, 14)), ("C", (200, 0, 210, 14))])
    summary = tally.summary()
    assert summary["boxes"]["total"] == 3 and summary["boxes_near"]["total"] == 2
    assert summary["boxes_near"]["hits"] == 1
