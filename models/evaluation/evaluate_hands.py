"""Evaluation part 3b: complete hands played by the engine's simulator, rendered and read back.

Each hand's actions (``engine.simulate.actions.demo_hands``: real MCR-valid wins, every kind
of claim and kong) update the visible table; after every visible change a 1920x1080 camera renders
``frames`` frames, the first ``arm_frames`` with an arm reaching over the table, and the full
perception path (calibration, detector, stabiliser, reader) reads them. Discards and melds are
compared with the engine's truth: seen, missed, read as a wrong tile, invented, out of order.
"""

from __future__ import annotations

from dataclasses import asdict


def engine_hands(
    hands: int,
    seed: int,
    frames: int = 5,
    arm_frames: int = 1,
    final_frames: int = 30,
    *,
    procedure: str = "wsom",
) -> dict:
    """Totals and per-hand figures over ``hands`` simulated hands of ``procedure`` (``wsom``,
    scored by Zung Jung; ``national``: 144 tiles with flowers, MCR scoring, concealed kongs
    face down and a self-drawn winning tile laid apart); the final table of each hand stays in
    view ``final_frames`` frames (three seconds at 10 fps: a whole hand laid beside a discard
    of its kind waits ``self_draw_frames`` to be read as self-drawn)."""
    from engine.events import to_dict
    from engine.simulate.actions import demo_hands
    from models.evaluation.camera_scoring import ScoredHand, laid_down, score_hand, truth_table
    from models.evaluation.perception_check import PerceptionCheck

    check = PerceptionCheck(
        frames,
        seed,
        frame_size=(1920, 1080),
        arm_frames=arm_frames,
        final_frames=final_frames,
        face_down_kongs=procedure == "national",
    )
    truth, rules, apart = truth_table(procedure)
    scored: list[ScoredHand] = []
    for hand in demo_hands(procedure, seed, hands):
        check.start_hand(hand.number)
        truth_events: list[dict[str, object]] = []
        for action in hand.actions:
            events = [to_dict(e) for e in truth.apply(action)]
            truth_events += events
            win = next((e for e in events if e["type"] == "win_declared"), None)
            if win is not None:  # the winner lays its hand down; a discard won on is taken
                check.reveal_win(*laid_down(win, apart))
            check.observe(action)
        check.finish_hand()
        scored.append(
            score_hand(
                hand.number, rules, hand.dealer, truth_events, check.events, procedure=procedure
            )
        )
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
    wins = {
        "scored_same": sum(h.same for h in scored),
        "hands": len(scored),
        "false_alerts": sum(len(h.alerts) for h in scored),
        "per_hand": [h.line() for h in scored],
    }
    return {
        "hands": hands,
        "seed": seed,
        "procedure": procedure,
        **totals,
        "per_hand": per_hand,
        "camera_scoring": wins,
    }
