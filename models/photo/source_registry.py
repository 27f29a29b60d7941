"""The registered public photo sources: which repository, pinned commit and folders hold each
set of real tile photographs, under which licence, and how its label classes map to our
notation (docs/photo-sources.md). Fetching and loading them: :mod:`models.photo.sources`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PhotoSource:
    name: str
    repo: str  # owner/name on GitHub
    commit: str
    licence: str  # SPDX-style identifier of the licence the photos are used under
    licence_line: str  # quoted from the source
    holds: str
    image_dirs: tuple[str, ...]  # folders in the repository holding the images
    label_format: str = "none"  # "yolo" (labels/ beside images/), "coco" or "none"
    classes: tuple[str, ...] = ()  # YOLO class names by index (COCO files name their own)
    mapping: Mapping[str, str | None] = field(default_factory=dict)  # class -> our notation
    coco_files: tuple[str, ...] = ()
    note: str = ""

    @property
    def url(self) -> str:
        return f"https://github.com/{self.repo}"


def _suited(suits: dict[str, str], form: str) -> dict[str, str]:
    """Class names (``form`` filled with {key} and {n}) of the 27 suited tiles."""
    return {form.format(key=k, n=n): f"{n}{v}" for k, v in suits.items() for n in range(1, 10)}


def _names(words: str) -> tuple[str, ...]:
    return tuple(words.split())


HK_CLASSES = _names(
    "bs1 sc1 sd1 sb1 hwe bs2 sc2 sd2 sb2 hws bs3 sc3 sd3 sb3 hww bs4 sc4 sd4 sb4 hwn bf1 sc5 sd5 "
    "sb5 hdw bf2 sc6 sd6 sb6 hdg bf3 sc7 sd7 sb7 hdr bf4 sc8 sd8 sb8 sc9 sd9 sb9"
)
HK_MAPPING: dict[str, str | None] = {
    **_suited({"c": "m", "d": "p", "b": "s"}, "s{key}{n}"),
    **{f"hw{w.lower()}": w for w in "ESWN"},
    "hdr": "C",
    "hdg": "F",
    "hdw": "P",
    **{f"bf{n}": f"{n}f" for n in range(1, 5)},  # plum orchid chrysanthemum bamboo
    **{f"bs{n}": f"{n + 4}f" for n in range(1, 5)},  # spring summer autumn winter
}
RIICHI_HONOURS = dict(zip(_names("chun hatsu haku ton nan sya- pe-"), "CFPESWN", strict=True))
RIICHI_CLASSES = (
    "0",
    *(f"{n}_{s}" for n in range(1, 10) for s in ("man", "pin", "sou")),
    *_names("chun haku hatsu nan pe- sya- ton"),
)
RIICHI_MAPPING: dict[str, str | None] = {
    "0": None,  # unexplained catch-all class of the source
    **_suited({"man": "m", "pin": "p", "sou": "s"}, "{n}_{key}"),
    **RIICHI_HONOURS,
}

SOURCES: dict[str, PhotoSource] = {
    s.name: s
    for s in (
        PhotoSource(
            name="hk-table-rf",
            repo="alanchoi00/mahjong_detection",
            commit="4403f4c0b9f5c926559d01d0047ddae8e152ccc7",
            licence="CC-BY-4.0",
            licence_line="License: CC BY 4.0 (data/README.dataset.txt; Roboflow Universe "
            "riichimahjongdetection/chinese-mahjong-detection v4)",
            holds="Phone photos of HK/Chinese sets (racks, tables, trays), 640x640 stretched, "
            "42 classes with flowers; valid+test only (train is 3x augmented)",
            image_dirs=("data/valid/images", "data/test/images"),
            label_format="yolo",
            classes=HK_CLASSES,
            mapping=HK_MAPPING,
            note="Repository has no LICENSE file; the data carries the publisher's CC BY 4.0.",
        ),
        PhotoSource(
            name="hk-table-rf-train",
            repo="alanchoi00/mahjong_detection",
            commit="4403f4c0b9f5c926559d01d0047ddae8e152ccc7",
            licence="CC-BY-4.0",
            licence_line="License: CC BY 4.0 (data/README.dataset.txt; Roboflow Universe "
            "riichimahjongdetection/chinese-mahjong-detection v4)",
            holds="The same data set's train split (1,350 other photos of the same sets, each "
            "in 3 copies flipped and turned): photo detector TRAINING only, never evaluation",
            image_dirs=("data/train/images",),
            label_format="yolo",
            classes=HK_CLASSES,
            mapping=HK_MAPPING,
            note="Flipped copies mirror the faces: boxes only, never classifier crops.",
        ),
        PhotoSource(
            name="riichi-webcam-rf",
            repo="leo-miura-robot/mahjong-detect",
            commit="6e3accb27386679f46a489f6c5af2d92056c89be",
            licence="CC-BY-4.0",
            licence_line="License: CC BY 4.0 (datasets/mahjong.v5/README.dataset.txt; "
            "Roboflow Universe leomiurarobot/mahjong-bmblq)",
            holds="Webcam photos of riichi rows on felt, 640x640 stretched, 34 classes",
            image_dirs=tuple(f"datasets/mahjong.v5/{s}/images" for s in ("train", "valid", "test")),
            label_format="yolo",
            classes=RIICHI_CLASSES,
            mapping=RIICHI_MAPPING,
            note="Repository has no LICENSE file; its author published the data as CC BY 4.0.",
        ),
        PhotoSource(
            name="riichi-table-phone",
            repo="lietxia/Mahjong-YOLO",
            commit="32e82de41755a02859c9e72ad836952085961b9c",
            licence="MIT",
            licence_line="MIT License / Copyright (c) 2024 Shin Zhang (LICENSE)",
            holds="Unlabelled phone photos of riichi games on automatic tables (branch web_app)",
            image_dirs=("photos",),
        ),
        PhotoSource(
            name="riichi-row-phone",
            repo="TobyHoltzman/mahjong-scorer",
            commit="ecc308dca1cb3702491b249ab4e0d855661d8f50",
            licence="MIT",
            licence_line="MIT License / Copyright (c) 2025 TobyHoltzman (LICENSE)",
            holds="One unlabelled phone photo of eight riichi tiles in a row on a cloth",
            image_dirs=("tests/resources",),
        ),
    )
}
