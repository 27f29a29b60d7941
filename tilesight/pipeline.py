"""Old path of ``demo_hands`` (now :func:`engine.simulate_actions.demo_hands`), kept while
bench/bench_camera_run.py imports it from here. Remove once the bench imports it from engine."""

from engine.simulate_actions import demo_hands

__all__ = ["demo_hands"]
