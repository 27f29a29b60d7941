"""Old path of :mod:`tilesight.demo.broker`, kept while bench/bench_camera_run.py imports it.

Remove once the bench imports ``tilesight.demo.broker``.
"""

from tilesight.demo.broker import MosquittoBroker

__all__ = ["MosquittoBroker"]
