"""The simulated hands as a camera sees them: each visible change a table state (``plan_hands``),
each state rendered once at ``SIZE`` as the fixed overhead camera sees it (``render_hand``)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from bench.camera_run import SIZE, Event
from engine import actions as act
from engine.events import to_dict
from engine.table import Table


@dataclass(frozen=True)
class Change:
    """One visible change: the table state that first shows it, and the event it should bring."""

    state: int
    kind: str  # discard, claim, kong, flower, win
    seat: int
    event: str  # the engine event type it should cause


@dataclass
class HandPlan:
    number: int
    dealer: int
    specs: list[Any]  # vision.layout.TableSpec per state; the deal (after the first hand,
    # the table swept before it), then one state per change
    changes: list[Change]
    truth: list[Event]  # the truth table's events of the hand
    discards: list[tuple[int, str]]
    jpegs: list[bytes] = field(default_factory=list)


def _change(action: act.Action, state: int) -> Change:
    seat = int(getattr(action, "seat", -1))
    if isinstance(action, act.Discard):
        return Change(state, "discard", seat, "tile_discarded")
    if isinstance(action, act.Chow | act.Pung):
        return Change(state, "claim", seat, "meld_claimed")
    if isinstance(action, act.Kong | act.AddedKong | act.ConcealedKong):
        return Change(state, "kong", seat, "kong_declared")
    if isinstance(action, act.Flower):
        return Change(state, "flower", seat, "flower_replaced")
    raise ValueError(f"no visible change expected of {action!r}")


def plan_hands(procedure: str, seed: int, hands: int, rules: str | None) -> list[HandPlan]:
    """The simulator's hands, each as the table states a camera sees and the truth's events
    (one truth table for the game, as ``tilesight demo --camera-only`` keeps it)."""
    from engine.simulate.actions import demo_hands
    from models.drawn.visible_table import VisibleTable
    from models.evaluation.camera_scoring import laid_down
    from vision.layout import TableSpec

    truth = Table(procedure, rules=rules)
    plans = []
    for hand in demo_hands(procedure, seed, hands):
        table = VisibleTable(face_down_kongs=procedure == "national")
        specs, changes, events, discards = [copy.deepcopy(table.spec)], [], [], []
        if plans:  # first the table swept after the hand before: walls built, no hand dealt
            specs.insert(0, TableSpec(concealed=[0] * 4))
        for action in hand.actions:
            applied = [to_dict(e) for e in truth.apply(action)]
            events += applied
            if isinstance(action, act.Discard):
                discards.append((action.seat, str(action.tile)))
            win = next((e for e in applied if e["type"] == "win_declared"), None)
            if win is not None:  # the winner lays its hand face up, kongs turned up
                table.reveal_win(*laid_down(win, self_drawn_apart=True), show_kongs=True)
                specs.append(copy.deepcopy(table.spec))
                changes.append(Change(len(specs) - 1, "win", int(win["seat"]), "win_declared"))
            if table.apply(action):
                specs.append(copy.deepcopy(table.spec))
                changes.append(_change(action, len(specs) - 1))
        plans.append(HandPlan(hand.number, hand.dealer, specs, changes, events, discards))
    return plans


def render_hand(plan: HandPlan, corners: np.ndarray, table_seed: int) -> tuple[float, ...]:
    """Each state rendered once (``plan.jpegs``, JPEG quality 90); returns the table's corners
    in the frame (the calibration). The deal is state 0 of the hand's seeds (as when each hand
    had a process of its own: the same frames), the swept table before it seed 999."""
    from models.art.faces import load_faces
    from models.drawn.camera import render_frame

    faces = {name: [image] for name, image in load_faces().items()}
    found: tuple[float, ...] = ()
    plan.jpegs = []
    swept = len(plan.specs) - len(plan.changes) - 1
    for index, spec in enumerate(plan.specs):
        frame = render_frame(
            spec,
            faces,
            np.random.default_rng(plan.number * 1000 + (index - swept) % 1000),
            frame_size=SIZE,
            arms=0,
            corners=corners,
            distortion=0.0,
            table_seed=table_seed,
        )
        found = tuple(float(v) for v in np.asarray(frame.table_corners).ravel())
        ok, data = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        plan.jpegs.append(data.tobytes())
    return found
