"""Front-view training scenes: standing tiles facing a low camera (models.scenes.front)."""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np

from models.scenes.front import front_plan


def _camera_position(camera: dict) -> np.ndarray:
    tilt, azimuth = math.radians(camera["tilt_deg"]), math.radians(camera["azimuth_deg"])
    direction = np.array(
        [math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), math.cos(tilt)]
    )
    return np.asarray(camera["target"]) + direction * camera["distance"]


def _standing(plan: dict) -> list[np.ndarray]:
    matrices = [np.asarray(t["matrix"]) for t in plan["tiles"]]
    return [m for m in matrices if abs(m[2, 2]) < 0.05]  # face normal lying flat: standing


def test_a_front_plan_is_fixed_by_its_seed_json_ready_and_never_holds_a_fifth_copy() -> None:
    assert front_plan(4) == front_plan(4) and front_plan(4) != front_plan(5)
    assert json.loads(json.dumps(front_plan(4))) == front_plan(4)
    for seed in range(40):
        counts = Counter(t["name"] for t in front_plan(seed)["tiles"])
        assert all(n <= (1 if k.endswith("f") else 4) for k, n in counts.items()), seed


def test_the_low_camera_sees_the_faces_of_the_standing_tiles() -> None:
    facing, total = 0, 0
    for seed in range(40):
        plan = front_plan(seed)
        camera = plan["camera"]
        assert 50 <= camera["tilt_deg"] <= 80
        eye = _camera_position(camera)
        standing = _standing(plan)
        assert standing, seed
        for m in standing:
            assert math.isclose(m[2, 3], plan["style"]["h"] / 2, rel_tol=1e-6)  # on its edge
            to_eye = eye - m[:3, 3]
            facing += float(np.dot(m[:3, 2], to_eye)) > 0
            total += 1
    assert facing / total > 0.95, (facing, total)


def test_tiles_of_a_standing_row_do_not_overlap() -> None:
    for seed in range(20):
        plan = front_plan(seed)
        width = plan["style"]["w"]
        centres = np.array([m[:2, 3] for m in _standing(plan)])
        gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2)
        np.fill_diagonal(gaps, np.inf)
        assert gaps.min() >= 0.99 * width, seed
