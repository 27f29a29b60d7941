"""Where the cards of a rendered scene lie on the table plane: plays fanned as players lay them
(each card's corner index left showing), single cards, face-down stacks. Pure geometry; the
compositing is :mod:`models.cards.scene`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from models.cards.art import CARD_H_MM, CARD_W_MM, RANKS, SUITS, CardStyle

_WILDS = ("2", "BJ", "RJ")


@dataclass(frozen=True)
class Placed:
    """One card on the plane: ``code`` (None face down, then ``back`` = (colour, pattern)),
    centre (px), angle (degrees, counter-clockwise as on screen) and height (px)."""

    code: str | None
    cx: float
    cy: float
    angle: float
    height: float
    style: CardStyle
    back: tuple[int, str] | None = None


def _card(rng: np.random.Generator, rank: str) -> str:
    if rank in ("BJ", "RJ"):
        return rank
    return rank + str(rng.choice(SUITS))


def _play(rng: np.random.Generator) -> list[str]:
    """A Gouji-like play: some cards of one rank, sometimes with 2s or jokers attached."""
    rank = str(rng.choice([*RANKS, "BJ", "RJ"], p=[0.072] * 13 + [0.032, 0.032]))
    count = int(rng.choice([1, 2, 3, 4, 5, 6], p=[0.3, 0.25, 0.18, 0.12, 0.1, 0.05]))
    cards = [_card(rng, rank) for _ in range(count)]
    for _ in range(int(rng.choice([0, 1, 2], p=[0.65, 0.25, 0.1]))):
        cards.append(_card(rng, str(rng.choice(_WILDS))))
    return cards


def _axes(angle: float) -> tuple[np.ndarray, np.ndarray]:
    """The card's right and down directions on screen for ``angle`` degrees."""
    a = math.radians(angle)
    return np.array([math.cos(a), -math.sin(a)]), np.array([math.sin(a), math.cos(a)])


def _fan(
    rng: np.random.Generator, codes: list[str], centre: np.ndarray, height: float, style: CardStyle
) -> list[Placed]:
    width = height * CARD_W_MM / CARD_H_MM
    angle = float(rng.uniform(0, 360))
    right, down = _axes(angle)
    step = right * width * rng.uniform(0.24, 0.45) + down * height * rng.uniform(-0.04, 0.22)
    if rng.random() < 0.2:  # laid in a column, each lower than the last
        step = right * width * rng.uniform(-0.05, 0.1) + down * height * rng.uniform(0.25, 0.4)
    start = centre - step * (len(codes) - 1) / 2
    placed = []
    for i, code in enumerate(codes):
        jitter = rng.normal(0, height * 0.015, 2)
        at = start + step * i + jitter
        turn = angle + float(rng.normal(0, 3.0))
        if rng.random() < 0.08:
            turn += 180.0  # a card laid the other way up
        placed.append(Placed(code, float(at[0]), float(at[1]), turn, height, style))
    return placed


def _backs(
    rng: np.random.Generator,
    centre: np.ndarray,
    height: float,
    style: CardStyle,
    back: tuple[int, str],
) -> list[Placed]:
    angle = float(rng.uniform(0, 360))
    count = int(rng.integers(1, 9))
    spread = height * rng.uniform(0.02, 0.25)
    return [
        Placed(
            None,
            float(centre[0] + rng.normal(0, spread)),
            float(centre[1] + rng.normal(0, spread)),
            angle + float(rng.normal(0, 12)),
            height,
            style,
            back,
        )
        for _ in range(count)
    ]


def layout(
    rng: np.random.Generator,
    area: tuple[float, float, float, float],
    height: float,
    style: CardStyle,
    back: tuple[int, str],
) -> list[Placed]:
    """The cards of one scene in drawing order (later on top), centres within ``area``
    (x0, y0, x1, y1 px), cards ``height`` px tall (give or take 3 %)."""
    x0, y0, x1, y1 = area

    def spot() -> np.ndarray:
        return np.array([rng.uniform(x0, x1), rng.uniform(y0, y1)])

    def tall() -> float:
        return height * float(rng.uniform(0.97, 1.03))

    groups: list[list[Placed]] = []
    for _ in range(int(rng.integers(1, 6))):
        groups.append(_fan(rng, _play(rng), spot(), tall(), style))
    for _ in range(int(rng.integers(0, 7))):
        code = _card(rng, str(rng.choice([*RANKS, "BJ", "RJ"])))
        at = spot()
        groups.append(
            [Placed(code, float(at[0]), float(at[1]), float(rng.uniform(0, 360)), tall(), style)]
        )
    for _ in range(int(rng.choice([0, 1, 2], p=[0.4, 0.4, 0.2]))):
        groups.append(_backs(rng, spot(), tall(), style, back))
    order = rng.permutation(len(groups))
    return [card for g in order for card in groups[int(g)]]


def card_corners(card: Placed) -> np.ndarray:
    """The card's corners on the plane, 4 x 2: its own top-left, top-right, bottom-right,
    bottom-left."""
    return mm_to_plane(
        card, np.array([[0, 0], [CARD_W_MM, 0], [CARD_W_MM, CARD_H_MM], [0, CARD_H_MM]])
    )


def mm_to_plane(card: Placed, points_mm: np.ndarray) -> np.ndarray:
    """Points given in the card's mm (x right, y down from its top-left) on the plane."""
    right, down = _axes(card.angle)
    scale = card.height / CARD_H_MM
    rel = np.asarray(points_mm, np.float64) - (CARD_W_MM / 2, CARD_H_MM / 2)
    return (
        np.array([card.cx, card.cy])
        + rel[:, :1] * scale * right[None, :]
        + rel[:, 1:2] * scale * down[None, :]
    )
