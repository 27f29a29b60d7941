"""Old path of :mod:`models.visible_table`, kept while bench/bench_camera_run.py imports it.

Resolved on first use, so that importing tilesight never loads models. Remove once the bench
imports ``models.visible_table``.
"""

from __future__ import annotations


def __getattr__(name: str) -> object:
    from models import visible_table  # noqa: PLC0415 - tilesight reaches models only lazily

    return getattr(visible_table, name)
