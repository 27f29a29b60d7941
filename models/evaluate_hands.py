"""Evaluation part 3b: complete hands played by the engine's simulator, rendered and read back.

Each hand's actions (``tilesight.pipeline.demo_hands``: real MCR-valid wins, every kind of claim
and kong) update the visible table; after every visible change a 1920x1080 camera renders
``frames`` frames, the first ``arm_frames`` with an arm reaching over the table, and the full
perception path (calibration, detector, stabiliser, reader) reads them. Discards and melds are
compared with the engine's truth: seen, missed, read as a wrong tile, invented, out of order.
"""

from __future__ import annotations

from dataclasses import asdict


def engine_hands(
    hands: int, seed: int, frames: int = 5, arm_frames: int = 1, final_frames: int = 10
) -> dict:
    """Totals and per-hand figures over ``hands`` simulated hands (procedure ``wsom``); the
    final table of each hand stays in view ``final_frames`` frames (a second at 10 fps)."""
    from tilesight.perception_demo import PerceptionCheck
    from tilesight.pipeline import demo_hands

    check = PerceptionCheck(
        frames, seed, frame_size=(1920, 1080), arm_frames=arm_frames, final_frames=final_frames
    )
    for hand in demo_hands("wsom", seed, hands):
        check.start_hand(hand.number)
        for action in hand.actions:
            check.observe(action)
        check.finish_hand()
    per_hand = [
        {k: v for k, v in asdict(h).items() if k not in ("seconds", "render_seconds")}
        for h in check.hands
    ]
    totals = {
        key: sum(int(h[key]) for h in per_hand)
        for key in ("expected", "seen", "missed", "wrong_tile", "invented", "wrong_order", "frames")
    }
    reading = sum(h.seconds for h in check.hands)
    totals["read_fps"] = round(totals["frames"] / reading, 1) if reading else 0.0
    return {"hands": hands, "seed": seed, **totals, "per_hand": per_hand}
