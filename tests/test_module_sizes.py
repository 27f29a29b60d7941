"""Small modules (issue 41): no Python module of the project over 300 lines."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "vision", "tilesight", "devices", "models", "bench", "tests", "examples")
MOST_LINES = 300


def test_no_module_is_over_300_lines() -> None:
    sizes = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
    }
    assert len(sizes) > 300  # the packages were found
    assert {name: n for name, n in sizes.items() if n > MOST_LINES} == {}
