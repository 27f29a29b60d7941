"""Claims and kongs in a simulated hand: the winner's planned ones and plausible other ones."""

from __future__ import annotations

import random
from collections import Counter

from engine.simulate.targets import ClaimPlan, WinnerPlan
from engine.simulate.types import PlayVerb
from engine.tiles import Meld, MeldKind, RelativeSeat, Tile
from engine.wall import Wall

DRAW, AFTER_DRAW, AFTER_CLAIM = "draw", "after_draw", "after_claim"


class MeldsMixin:
    """Needs the hand state of :class:`engine.simulate.play.HandSimulator`."""

    rng: random.Random
    wall: Wall
    t: float
    hands: list[list[Tile]]
    melds: list[list[Meld]]
    plan: WinnerPlan | None

    def _add(self, seat: int | None, verb: PlayVerb, **fields: object) -> None:
        raise NotImplementedError

    def _draw_through_flowers(self, seat: int, *, replacement: bool) -> Tile:
        raise NotImplementedError

    def _claim(self, discarder: int, tile: Tile, plant: ClaimPlan | None) -> tuple[int, str] | None:
        """The claim made on ``tile`` (the winner's planned one, or a plausible other one)."""
        plan = self.plan
        if plant is not None and plan is not None:
            return self._winner_claim(plan, plant, discarder, tile)
        others = [(discarder + k) % 4 for k in (1, 2, 3)]
        for seat in others:
            if (plan and seat == plan.seat) or len(self.melds[seat]) >= 2:
                continue
            held = self.hands[seat].count(tile)
            if held >= 3 and self.wall.live >= 1 and self.rng.random() < 0.4:
                return self._meld_claim(seat, discarder, tile, MeldKind.KONG, (tile,) * 4)
            if held >= 2 and self.rng.random() < 0.3:
                return self._meld_claim(seat, discarder, tile, MeldKind.PUNG, (tile,) * 3)
        lower = others[0]
        if (not plan or lower != plan.seat) and len(self.melds[lower]) < 2:
            for run in _runs_with(tile):
                rest = list(run)
                rest.remove(tile)
                if all(self.hands[lower].count(t) >= rest.count(t) for t in rest):
                    if self.rng.random() < 0.12:
                        return self._meld_claim(lower, discarder, tile, MeldKind.CHOW, run)
                    break
        return None

    def _winner_claim(
        self, plan: WinnerPlan, claim: ClaimPlan, discarder: int, tile: Tile
    ) -> tuple[int, str] | None:
        tiles = plan.target.sets[claim.set_index].tiles
        if claim.verb is MeldKind.PUNG:
            tiles = (tile,) * 3  # also the first step of a planned added kong
        rest = Counter(tiles) - Counter([tile])
        if claim.verb is MeldKind.KONG and self.wall.live < 1:
            plan.broken = True
        if plan.broken or rest - Counter(self.hands[plan.seat]):
            return None
        claim.done = True
        plan.melded_sets.add(claim.set_index)
        return self._meld_claim(plan.seat, discarder, tile, claim.verb, tiles)

    def _meld_claim(
        self, seat: int, discarder: int, tile: Tile, kind: MeldKind, tiles: tuple[Tile, ...]
    ) -> tuple[int, str]:
        self.t += self.rng.uniform(0.8, 1.5)
        rest = list(tiles)
        rest.remove(tile)
        for t in rest:
            self.hands[seat].remove(t)
        meld = Meld(kind, tuple(sorted(tiles)), RelativeSeat.between(seat, discarder), tile)
        self.melds[seat].append(meld)
        verb = {MeldKind.CHOW: PlayVerb.CHOW, MeldKind.PUNG: PlayVerb.PUNG}.get(kind, PlayVerb.KONG)
        self._add(seat, verb, tile=tile, tiles=meld.tiles, meld=meld, from_seat=discarder)
        if kind is MeldKind.KONG:
            self.t += self.rng.uniform(1.0, 2.0)
            self._draw_through_flowers(seat, replacement=True)
            return seat, AFTER_DRAW
        return seat, AFTER_CLAIM

    def _self_kong(self, seat: int) -> bool:
        """Declare a concealed or added kong after a draw when the hand (or plan) calls for it."""
        if self.wall.live < 1:
            return False
        plan = self.plan if self.plan and self.plan.seat == seat and not self.plan.broken else None
        counts = Counter(self.hands[seat])
        for tile, n in sorted(counts.items(), key=lambda item: item[0].index):
            wanted = plan is None or (
                plan.kong_set is not None and plan.target.sets[plan.kong_set].tiles[0] == tile
            )
            if n == 4 and wanted and (plan is not None or self.rng.random() < 0.8):
                if plan is not None and plan.kong_set is not None:
                    plan.melded_sets.add(plan.kong_set)
                return self._declare_kong(seat, tile, MeldKind.CONCEALED_KONG)
        for i, meld in enumerate(self.melds[seat]):
            tile = meld.tiles[0]
            if meld.kind is MeldKind.PUNG and tile in counts:
                if plan is not None and plan.added_kong_tile != tile:
                    continue
                if plan is None and self.rng.random() >= 0.8:
                    continue
                self.melds[seat][i] = Meld(MeldKind.KONG, (tile,) * 4, meld.source, meld.claimed)
                return self._declare_kong(seat, tile, MeldKind.KONG, added=meld)
        return False

    def _declare_kong(
        self, seat: int, tile: Tile, kind: MeldKind, added: Meld | None = None
    ) -> bool:
        self.t += self.rng.uniform(1.0, 3.0)
        if added is None:
            for _ in range(4):
                self.hands[seat].remove(tile)
            meld = Meld(kind, (tile,) * 4)
            self.melds[seat].append(meld)
            self._add(seat, PlayVerb.CONCEALED_KONG, tile=tile, tiles=meld.tiles, meld=meld)
        else:
            self.hands[seat].remove(tile)
            meld = Meld(MeldKind.KONG, (tile,) * 4, added.source, added.claimed)
            self._add(seat, PlayVerb.ADDED_KONG, tile=tile, tiles=meld.tiles, meld=meld)
        self.t += self.rng.uniform(1.0, 2.0)
        self._draw_through_flowers(seat, replacement=True)
        return True

    # --- drawing ----------------------------------------------------------------------------


def _runs_with(tile: Tile) -> list[tuple[Tile, ...]]:
    out = []
    for start in (-2, -1, 0):
        run = [tile.shifted(start + k) for k in range(3)]
        if all(t is not None for t in run):
            out.append(tuple(t for t in run if t is not None))
    return out


def connections(tile: Tile, hand: list[Tile]) -> int:
    """How useful a tile looks: copies held plus same-suit neighbours within two ranks."""
    score = 2 * (hand.count(tile) - 1)
    if tile.suit.is_numbered:
        suit, rank = tile.suit, tile.rank
        score += sum(1 for t in hand if t.suit is suit and 0 < abs(t.rank - rank) <= 2)
    return score
