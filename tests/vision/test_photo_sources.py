"""The registry of public real-photo sources and its label conversion (models.photo.sources).
Nothing here touches the network; the cached photos are only checked when already fetched."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.photo import sources as ps
from vision.crops import TILE_NAMES

ALLOWED_LICENCES = {"MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "CC0-1.0", "CC-BY-4.0"}


@pytest.mark.parametrize("name", sorted(ps.SOURCES))
def test_registry_entry_is_well_formed(name: str) -> None:
    source = ps.SOURCES[name]
    assert source.name == name
    assert re.fullmatch(r"[0-9a-f]{40}", source.commit)
    assert re.fullmatch(r"[\w.-]+/[\w.-]+", source.repo)
    assert source.url == f"https://github.com/{source.repo}"
    assert source.licence in ALLOWED_LICENCES
    assert source.licence_line and source.holds and source.image_dirs
    assert source.label_format in {"yolo", "coco", "none"}
    assert set(source.mapping.values()) <= {*TILE_NAMES, None}
    if source.label_format == "yolo":
        assert source.classes and set(source.classes) <= set(source.mapping)
    if source.label_format == "coco":
        assert source.coco_files


def test_hk_classes_cover_every_tile_once() -> None:
    mapped = [str(ps.HK_MAPPING[c]) for c in ps.HK_CLASSES]
    assert sorted(mapped) == sorted(TILE_NAMES)
    assert ps.HK_MAPPING["bf1"] == "1f" and ps.HK_MAPPING["bs4"] == "8f"
    assert (ps.HK_MAPPING["hdr"], ps.HK_MAPPING["hdg"], ps.HK_MAPPING["hdw"]) == ("C", "F", "P")


def test_riichi_classes_map_to_the_34_plain_tiles() -> None:
    mapped = {ps.RIICHI_MAPPING[c] for c in ps.RIICHI_CLASSES} - {None}
    assert mapped == set(TILE_NAMES[:34])
    assert ps.RIICHI_MAPPING["pe-"] == "N" and ps.RIICHI_MAPPING["sya-"] == "W"


def test_yolo_labels_become_pixel_boxes(tmp_path: Path) -> None:
    label = tmp_path / "hand.txt"
    label.write_text("1 0.5 0.5 0.2 0.4\n2 0.1 0.1 0.3 0.1 0.3 0.2 0.1 0.2\n7 0.5 0.5 0.1 0.1\n\n")
    tiles = ps.yolo_tiles(label.read_text(), ("a", "b", "c"), {"b": "5p", "c": "E"}, 200, 100)
    assert tiles == [
        {"tile": "5p", "box": [80.0, 30.0, 120.0, 70.0]},
        {"tile": "E", "box": [20.0, 10.0, 60.0, 20.0]},  # a polygon's bounding box
        {"tile": None, "box": [90.0, 45.0, 110.0, 55.0]},  # class index outside the list
    ]


def test_coco_labels_become_tiles_by_file(tmp_path: Path) -> None:
    coco = {
        "images": [{"id": 1, "file_name": "a.jpg"}, {"id": 2, "file_name": "b.jpg"}],
        "categories": [{"id": 0, "name": "dots-5"}, {"id": 3, "name": "joker"}],
        "annotations": [
            {"image_id": 1, "category_id": 0, "bbox": [10, 20, 30, 40]},
            {"image_id": 1, "category_id": 3, "bbox": [0, 0, 5, 5]},
        ],
    }
    path = tmp_path / "_annotations.coco.json"
    path.write_text(json.dumps(coco))
    tiles = ps.coco_tiles(json.loads(path.read_text()), {"dots-5": "5p"})
    assert tiles == {
        "a.jpg": [
            {"tile": "5p", "box": [10.0, 20.0, 40.0, 60.0]},
            {"tile": None, "box": [0.0, 0.0, 5.0, 5.0]},
        ],
        "b.jpg": [],
    }


def _git(repo: Path, *args: str) -> str:
    cmd = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()


def test_fetch_from_a_mirror_then_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    (repo / "set/test/images").mkdir(parents=True)
    (repo / "set/test/labels").mkdir(parents=True)
    ok, image = cv2.imencode(".png", np.zeros((50, 80, 3), np.uint8))
    assert ok
    (repo / "set/test/images/row 1.png").write_bytes(image.tobytes())
    (repo / "set/test/images/z copy.png").write_bytes(image.tobytes())  # same blob: kept once
    (repo / "set/test/labels/row 1.txt").write_text("0 0.5 0.5 0.25 0.5\n")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "photos")
    source = ps.PhotoSource(
        name="synthetic",
        repo="someone/photos",
        commit=_git(repo, "rev-parse", "HEAD"),
        licence="MIT",
        licence_line="MIT License",
        holds="one black image",
        image_dirs=("set/test/images",),
        label_format="yolo",
        classes=("tile-east",),
        mapping={"tile-east": "E"},
    )
    monkeypatch.setitem(ps.SOURCES, "synthetic", source)
    out = ps.fetch("synthetic", tmp_path / "cache", mirror=repo / ".git")
    assert json.loads((out / "source.json").read_text())["images"] == 1
    [(path, record)] = list(ps.load("synthetic", tmp_path / "cache"))
    assert path.is_file() and path.name == "row 1.png"
    assert (record["width"], record["height"]) == (80, 50)
    assert record["tiles"] == [{"tile": "E", "box": [30.0, 12.5, 50.0, 37.5]}]


def test_load_without_a_fetch_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="fetch riichi-row-phone"):
        next(ps.load("riichi-row-phone", tmp_path))


@pytest.mark.parametrize("name", sorted(ps.SOURCES))
def test_cached_photos_are_consistent(name: str) -> None:
    try:
        records = list(ps.load(name))
    except FileNotFoundError:
        pytest.skip(f"{name} not fetched (python -m models.photo.sources fetch {name})")
    assert records
    for path, record in records:
        assert path.is_file() and record["width"] > 0 and record["height"] > 0
        for tile in record["tiles"] or []:
            x1, y1, x2, y2 = tile["box"]
            assert x1 < x2 and y1 < y2
            assert tile["tile"] in {*TILE_NAMES, None}


def test_one_kind_on_every_tile_is_a_placeholder_label() -> None:
    box = [0.0, 0.0, 10.0, 10.0]
    same = [{"tile": "1p", "box": box}] * 14
    assert ps.placeholder_labels(same)
    assert not ps.placeholder_labels(same[:4])  # four copies of a face: a kong, a real label
    assert not ps.placeholder_labels([*same[:4], {"tile": "2p", "box": box}] * 2)
    assert not ps.placeholder_labels([{"tile": "back", "box": box}] * 18)  # a wall
    assert not ps.placeholder_labels(None)


def test_load_unnames_the_tiles_of_a_placeholder_photo(tmp_path: Path) -> None:
    folder = tmp_path / "hk-table-rf"
    (folder / "labels").mkdir(parents=True)
    (folder / "source.json").write_text("{}")
    tiles = [{"tile": "1p", "box": [i * 10.0, 0.0, i * 10.0 + 9, 12.0]} for i in range(13)]
    record = {"image": "a.jpg", "width": 140, "height": 20, "tiles": tiles}
    (folder / "labels" / "a.json").write_text(json.dumps(record))
    [(_, loaded)] = list(ps.load("hk-table-rf", tmp_path))
    assert loaded["placeholder_labels"] is True
    assert [t["tile"] for t in loaded["tiles"]] == [None] * 13
    assert [t["box"] for t in loaded["tiles"]] == [t["box"] for t in tiles]
