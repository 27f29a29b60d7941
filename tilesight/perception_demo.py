"""Old path of :mod:`models.perception_check`, kept while bench/bench_camera_run.py imports it.

Resolved on first use, so that importing tilesight never loads models. Remove once the bench
imports ``models.perception_check``.
"""

from __future__ import annotations


def __getattr__(name: str) -> object:
    from models import perception_check  # noqa: PLC0415 - tilesight reaches models only lazily

    return getattr(perception_check, name)
