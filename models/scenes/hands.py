"""Revealed winning hands laid out as a referee would photograph them, with their truth.

A hand is four sets and a pair drawn from one set of tiles (never a fifth copy); some sets are
exposed melds (a claimed tile turned on the side it came from: left from the upper seat, middle
from the opposite, right from the lower), one may be a concealed kong (its end tiles face down),
and some hands hold flowers. It is laid in one row, or in two (melds in front of the concealed
tiles); a self-drawn winning tile lies a little apart at the right of the concealed tiles.
``hand_plan`` gives a scene plan (models.scenes.plan) whose camera frames the hand like a phone
held over it, up to 45 degrees from straight down, turned any way.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine.notation import Hand, format_hand, parse_tile
from engine.tiles import Meld, MeldKind, RelativeSeat
from models.scenes.groups import Slot, _row, pose_matrix
from models.scenes.plan import Deck, random_plan, tile_style

SUITS = "mps"


def _set(rng: np.random.Generator, deck: Deck) -> list[str]:
    if rng.random() < 0.5:
        for _ in range(20):
            start, suit = int(rng.integers(1, 8)), SUITS[int(rng.integers(3))]
            names = [f"{start + i}{suit}" for i in range(3)]
            if all(deck.left[n] > 0 for n in names):
                return [deck.draw(n) for n in names]
    return deck.draw_same(3)


def random_hand(rng: np.random.Generator) -> dict[str, Any]:
    """The truth: concealed tiles, melds (kind, tiles, source), the winning tile and flags."""
    deck = Deck(rng)
    melds: list[dict[str, Any]] = []
    concealed: list[str] = []
    exposed = int(rng.choice([0, 0, 1, 1, 2, 2, 3, 4]))
    for k in range(4):
        names = _set(rng, deck)
        if k < exposed:
            chow = names[0] != names[1]
            kind = "chow" if chow else "pung"
            if not chow and rng.random() < 0.25 and deck.left[names[0]] > 0:
                names.append(deck.draw(names[0]))
                kind = "kong"
            source = 3 if chow else int(rng.integers(1, 4))
            melds.append({"kind": kind, "tiles": names, "source": source})
        elif rng.random() < 0.1 and deck.left[names[0]] > 0 and names[0] == names[1]:
            melds.append({"kind": "concealed_kong", "tiles": [*names, deck.draw(names[0])]})
        else:
            concealed += names
    concealed += deck.draw_same(2)
    order = rng.permutation(len(concealed))
    win = concealed[int(order[0])]
    rest = sorted((concealed[i] for i in order[1:]), key=_sort_key)
    flowers = [f"{k + 1}f" for k in sorted(rng.permutation(8)[: int(rng.choice([0, 0, 1, 2]))])]
    return {
        "concealed": rest,
        "win": win,
        "melds": melds,
        "self_drawn": bool(rng.random() < 0.4),
        "flowers": flowers,
    }


def _sort_key(name: str) -> tuple[int, str]:
    return (" mpsESWNCFP".find(name[-1]) if name[0].isdigit() else 10 + "ESWNCFP".find(name), name)


def notation(hand: dict[str, Any]) -> str:
    """The hand in engine notation, the winning tile last (as ``tilesight score HAND``)."""
    kinds = {"chow": MeldKind.CHOW, "pung": MeldKind.PUNG, "kong": MeldKind.KONG}
    melds = []
    for meld in hand["melds"]:
        tiles = tuple(parse_tile(t) for t in meld["tiles"])
        if meld["kind"] == "concealed_kong":
            melds.append(Meld(MeldKind.CONCEALED_KONG, tiles))
        else:
            melds.append(Meld(kinds[meld["kind"]], tiles, RelativeSeat(meld["source"])))
    concealed = tuple(parse_tile(t) for t in [*hand["concealed"], hand["win"]])
    return format_hand(Hand(concealed, tuple(melds)))


def _meld_items(meld: dict[str, Any]) -> list[tuple[str, str, bool]]:
    tiles = meld["tiles"]
    if meld["kind"] == "concealed_kong":
        return [(t, "down" if i in (0, 3) else "up", False) for i, t in enumerate(tiles)]
    turned = {3: 0, 2: len(tiles) // 2, 1: len(tiles) - 1}[meld["source"]]
    return [(t, "up", i == turned) for i, t in enumerate(tiles)]


def hand_slots(hand: dict[str, Any], style: dict, rng: np.random.Generator) -> list[Slot]:
    """The hand as laid: concealed tiles (the winning tile among them, or apart when
    self-drawn), melds in front or in the same row, flowers at the left end."""
    gap = ("|", "", False)
    concealed = [(t, "up", False) for t in hand["concealed"]]
    if hand["self_drawn"]:
        concealed += [gap, (hand["win"], "up", False)]
    else:
        spot = int(rng.integers(len(concealed) + 1))
        concealed.insert(spot, (hand["win"], "up", False))
    melds: list[tuple[str, str, bool]] = []
    for meld in hand["melds"]:
        melds += [*_meld_items(meld), gap]
    flowers = [(f, "up", False) for f in hand["flowers"]]
    if melds and rng.random() < 0.6:  # two rows: melds (and flowers) in front
        back = _row(concealed, style, rng, style["h"] * float(rng.uniform(1.25, 1.8)))
        return back + _row(flowers + ([gap] if flowers else []) + melds[:-1], style, rng, 0.0)
    items = flowers + ([gap] if flowers else []) + melds + concealed
    return _row(items, style, rng, 0.0)


def hand_plan(seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """(scene plan, truth) of a photographed winning hand."""
    rng = np.random.default_rng(seed)
    plan = random_plan(seed, empty=1.0)  # surface, light and clutter of an ordinary scene
    style = tile_style(rng)
    style["faces"] = str(rng.choice(["camerash", "ours", "mixed"]))
    hand = random_hand(rng)
    slots = hand_slots(hand, style, rng)
    xs = np.array([s.xy[0] for s in slots])
    ys = np.array([s.xy[1] for s in slots])
    turn = float(rng.uniform(0, 2 * math.pi))
    centre = ((xs.max() + xs.min()) / 2, (ys.max() + ys.min()) / 2)
    tiles = []
    for slot in slots:
        dx, dy = slot.xy[0] - centre[0], slot.xy[1] - centre[1]
        x = math.cos(turn) * dx - math.sin(turn) * dy
        y = math.sin(turn) * dx + math.cos(turn) * dy
        matrix = pose_matrix(slot, x, y, turn, style)
        tiles.append({"name": slot.name, "face_up": slot.pose != "down", "matrix": matrix})
    span = float(np.hypot(np.ptp(xs), np.ptp(ys))) + 2 * style["w"]
    camera = plan["camera"]
    camera["target"] = [float(rng.normal(0, 0.05 * span)), float(rng.normal(0, 0.05 * span)), 0.0]
    camera["tilt_deg"] = float(rng.uniform(0, 45))
    camera["azimuth_deg"] = math.degrees(turn) - 90 + float(rng.normal(0, 30))
    camera["roll_deg"] = float(rng.uniform(-25, 25)) + (180 if rng.random() < 0.2 else 0)
    fov = 2 * math.atan(18 / camera["focal_mm"])  # the sensor's half width is 18 mm
    camera["distance"] = span * float(rng.uniform(0.45, 0.7)) / math.tan(fov / 2)
    camera["aperture"] = 0.0
    plan["clutter"] = [c for c in plan["clutter"] if math.hypot(*c["xy"]) > span]
    plan.update(style=style, tiles=tiles, resolution=[800, 600])
    truth = {**hand, "notation": notation(hand)}
    return plan, truth
