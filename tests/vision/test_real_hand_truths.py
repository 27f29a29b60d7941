"""The truths of `models.photo.evaluate_hands --real`: photos of a labelled real set whose 14
tiles besides flowers win, won on the tile that scores most (synthetic label files, no model)."""

from __future__ import annotations

import json
from pathlib import Path

from engine.rulesets import find_rules
from models.photo.evaluate_hands import _same_tiles, real_hands, truth_request


def _names(text: str) -> list[str | None]:
    return list(text.split())


def _source(tmp_path: Path, photos: dict[str, list[str | None]]) -> Path:
    folder = tmp_path / "hk-table-rf"
    (folder / "labels").mkdir(parents=True)
    (folder / "source.json").write_text("{}")
    for stem, names in photos.items():
        tiles = [
            {"tile": n, "box": [i * 10.0, 0.0, i * 10.0 + 9, 12.0]} for i, n in enumerate(names)
        ]
        record = {"image": f"{stem}.jpg", "width": 200, "height": 20, "tiles": tiles}
        (folder / "labels" / f"{stem}.json").write_text(json.dumps(record))
    return tmp_path


def test_winning_photos_become_truths_won_on_the_tile_scoring_most(tmp_path: Path) -> None:
    win = _names("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 5s 5s 3f")  # a pure straight
    not_a_win = _names("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 2p 5s 6s")
    short = _names("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 5s")
    cache = _source(tmp_path, {"a": win, "b": not_a_win, "c": short, "d": [None] * 14})
    [(path, truth)] = list(real_hands("hk-table-rf", cache=cache))
    assert path.name == "a.jpg" and truth["flowers"] == ["3f"] and not truth["self_drawn"]
    rules = find_rules("mcr")
    best = rules.score(truth_request(truth)).total
    for other in {"1m", "9m", "1p", "5s"} - {truth["win"]}:
        assert rules.score(truth_request({**truth, "win": other})).total <= best


def test_a_concealed_hand_is_the_same_whatever_order_it_is_written_in() -> None:
    assert _same_tiles("789s123m456pNEEN", "123m456p789sEENN")
    assert not _same_tiles("123m456p789sEENN", "123m456p789sEEWN")
    assert not _same_tiles(None, "123m456p789sEENN")
    assert not _same_tiles("123m456p789sEN [NNN<1]", "123m456p789sENNNN")


def test_a_rendered_hands_truth_holds_the_flowers_its_photo_shows(tmp_path: Path) -> None:
    from models.photo.evaluate_hands import rendered_hands

    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    (tmp_path / "images" / "1.png").write_bytes(b"")

    def tile(kind: str, left: float) -> dict[str, object]:
        corners = [[left, 100], [left + 40, 100], [left + 40, 150], [left, 150]]
        return {"kind": kind, "corners": corners, "visible": 1.0}

    truth = {"notation": "x", "win": "1m", "self_drawn": False, "flowers": ["5f", "6f", "1f"]}
    record = {
        "image": "1.png",
        "width": 640,
        "height": 480,
        "tiles": [tile("5f", -65), tile("6f", -25), tile("1f", 300), tile("2m", 400)],
        "truth": truth,
    }
    (tmp_path / "labels" / "1.json").write_text(json.dumps(record), encoding="utf-8")
    [(_, got)] = list(rendered_hands(tmp_path))
    assert got["flowers"] == ["1f"]  # 5f out of the frame, 6f more than half out
    assert got["notation"] == "x" and truth["flowers"] == ["5f", "6f", "1f"]
