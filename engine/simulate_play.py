"""The hand loop behind :func:`engine.simulate.simulate_game`.

Tiles are decided when they are drawn (a lazily stacked wall): the chosen winner receives the
tiles of his plan (:mod:`engine.simulate_targets`) with some probability per draw, "carriers"
receive the tiles he will claim and discard them at once, everybody else gets random tiles from
the rest of the set. Undrawn positions get the leftovers, so the final wall is a full, consistent
set in draw order that a :class:`engine.wall.Wall` replays exactly.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.notation import Hand
from engine.procedures import Procedure
from engine.simulate_supply import TileSupply, tile_index
from engine.simulate_targets import ClaimPlan, WinnerPlan, plan_winner
from engine.simulate_types import (
    PlayVerb,
    SimulatedHand,
    SimulatedPlay,
    SimulatedWin,
    winning_shape_problem,
)
from engine.tiles import Meld, MeldKind, RelativeSeat, Tile
from engine.wall import DEAL_POSITIONS, Wall, procedure_tiles

DRAW, AFTER_DRAW, AFTER_CLAIM = "draw", "after_draw", "after_claim"


class HandSimulator:
    """Plays one hand; ``slow_play`` is the chance of a discard over the 15 s limit."""

    def __init__(
        self,
        procedure: Procedure,
        rng: random.Random,
        dealer: int,
        index: int,
        start: float,
        *,
        slow_play: float = 0.0,
    ) -> None:
        self.procedure, self.rng, self.dealer, self.index, self.start = (
            procedure,
            rng,
            dealer,
            index,
            start,
        )
        rolls = [rng.randint(1, 6) + rng.randint(1, 6) for _ in range(procedure.rolls_needed)]
        self.wall = Wall.from_dice(procedure, rolls, dealer=dealer)
        self.t = 0.0
        self.plays: list[SimulatedPlay] = []
        self.hands: list[list[Tile]] = [[] for _ in range(4)]
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.flowers = [0, 0, 0, 0]
        self.plan: WinnerPlan | None = None
        self.supply = TileSupply(procedure, rng, self.wall, None)
        self.last_draw: tuple[Tile, bool] | None = None
        self.slow_play = slow_play

    # --- the hand ---------------------------------------------------------------------------
    def play(self, winner: int | None) -> SimulatedHand:
        if winner is not None:
            self.plan = plan_winner(self.rng, winner, self.dealer)
            self.supply = TileSupply(self.procedure, self.rng, self.wall, self.plan)
        deal = self._deal()
        self._initial_flowers()
        win = self._loop()
        leftovers = self.supply.leftovers()
        order = list(self.wall.order())
        for i in range(len(order)):
            if order[i] is None:
                order[i] = leftovers.pop()
        final = tuple(t for t in order if t is not None)
        assert Counter(final) == Counter(procedure_tiles(self.procedure))
        return SimulatedHand(
            index=self.index,
            procedure=self.procedure.name,
            dealer=self.dealer,
            prevailing_wind=self.procedure.prevailing_wind(self.index),
            dice=self.wall.wall_break.rolls if self.wall.wall_break else (),
            wall_break=self.wall.wall_break,
            wall=final,
            deal=deal,
            plays=tuple(self.plays),
            win=win,
            start=self.start,
        )

    def _deal(self) -> tuple[tuple[Tile, ...], ...]:
        plan = self.plan
        out: list[tuple[Tile, ...]] = [(), (), (), ()]
        for offset, positions in enumerate(DEAL_POSITIONS):
            seat = (self.dealer + offset) % 4
            tiles = list(plan.dealt) if plan and plan.seat == seat else []
            while len(tiles) < len(positions):
                tiles.append(self.supply.junk(seat, allow_flower=self.procedure.flowers))
            self.rng.shuffle(tiles)
            out[seat] = tuple(tiles)
            self.hands[seat] = list(tiles)
        self.wall.deal(out)
        for seat in ((self.dealer + k) % 4 for k in range(4)):
            self._add(seat, PlayVerb.DEAL, tiles=out[seat])
        return tuple(out)

    def _initial_flowers(self) -> None:
        """Dealer first, then in turn; a flower drawn as a replacement waits for the next round."""
        pending = {s: [t for t in self.hands[s] if t.is_flower] for s in range(4)}
        while any(pending.values()):
            later: dict[int, list[Tile]] = {s: [] for s in range(4)}
            for seat in ((self.dealer + k) % 4 for k in range(4)):
                for flower in pending[seat]:
                    self.t += self.rng.uniform(0.5, 1.5)
                    self._flower(seat, flower)
                    tile = self._draw(seat, replacement=True)
                    if tile.is_flower:
                        later[seat].append(tile)
            pending = later

    def _loop(self) -> SimulatedWin | None:
        seat, phase = self.dealer, AFTER_DRAW
        self.t += self.rng.uniform(1.0, 4.0)
        while True:
            if phase == DRAW:
                self.t += self.rng.uniform(1.0, 2.0)
                self._draw_through_flowers(seat, replacement=False)
                phase = AFTER_DRAW
            if phase == AFTER_DRAW:
                if self._complete(seat, None) and self.last_draw is not None:
                    return self._win(seat, self.last_draw[0], None)
                if self._self_kong(seat):
                    continue
            slow = self.slow_play and self.rng.random() < self.slow_play
            self.t += self.rng.uniform(16.0, 40.0) if slow else self.rng.uniform(2.0, 7.0)
            tile = self._choose_discard(seat)
            self.hands[seat].remove(tile)
            self._add(seat, PlayVerb.DISCARD, tile=tile)
            plant = self.supply.pop_plant(seat, tile)
            if self.plan and self.plan.seat != seat and self._complete(self.plan.seat, tile):
                self.t += self.rng.uniform(0.5, 1.5)
                return self._win(self.plan.seat, tile, seat)
            if self.wall.exhausted:  # the river-bottom tile: only a win may claim it
                self.t += 2.0
                self._add(None, PlayVerb.WASHOUT)
                return None
            claimer = self._claim(seat, tile, plant)
            if claimer is None:
                seat, phase = (seat + 1) % 4, DRAW
            else:
                seat, phase = claimer

    # --- claims and kongs -------------------------------------------------------------------
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
    def _draw_through_flowers(self, seat: int, *, replacement: bool) -> Tile:
        tile = self._draw(seat, replacement=replacement)
        while tile.is_flower:
            self.t += self.rng.uniform(0.5, 1.5)
            self._flower(seat, tile)
            tile = self._draw(seat, replacement=True)
        return tile

    def _draw(self, seat: int, *, replacement: bool) -> Tile:
        tile = self.supply.choose(seat)
        if replacement:
            self.wall.draw_replacement(tile)
        else:
            self.wall.draw(tile)
        self.hands[seat].append(tile)
        self.last_draw = (tile, replacement)
        self._add(seat, PlayVerb.DRAW, tile=tile, replacement=replacement)
        return tile

    def _flower(self, seat: int, flower: Tile) -> None:
        self.hands[seat].remove(flower)
        self.flowers[seat] += 1
        self._add(seat, PlayVerb.FLOWER, tile=flower)

    # --- discards and the end ---------------------------------------------------------------
    def _choose_discard(self, seat: int) -> Tile:
        hand = self.hands[seat]
        planted = self.supply.planted_in(seat, hand)
        if planted is not None:
            return planted
        plan = self.plan
        if plan is not None and plan.seat == seat:
            junk = list((Counter(hand) - self._remainder(plan)).elements())
            if junk:
                return self.rng.choice(sorted(junk, key=tile_index))
            plan.broken = True
        ordered = sorted(hand, key=tile_index)
        return min(ordered, key=lambda t: (_connections(t, ordered), self.rng.random()))

    def _remainder(self, plan: WinnerPlan) -> Counter[Tile]:
        melded = Counter(t for m in self.melds[plan.seat] for t in m.tiles)
        return plan.target.tiles() - melded

    def _complete(self, seat: int, extra: Tile | None) -> bool:
        plan = self.plan
        if plan is None or plan.broken or plan.seat != seat:
            return False
        hand = Counter(self.hands[seat])
        if extra is not None:
            hand[extra] += 1
        melded = Counter(t for m in self.melds[seat] for t in m.tiles)
        return hand + melded == plan.target.tiles() and len(self.melds[seat]) == len(
            plan.melded_sets
        )

    def _win(self, seat: int, tile: Tile, discarder: int | None) -> SimulatedWin:
        plan = self.plan
        assert plan is not None
        concealed = list(self.hands[seat])
        if discarder is None:
            concealed.remove(tile)
        hand = Hand(tuple(sorted(concealed)), tuple(self.melds[seat]))
        problem = winning_shape_problem(hand, tile)
        assert problem is None, problem
        self._add(seat, PlayVerb.WIN, tile=tile, from_seat=discarder)
        replacement = discarder is None and self.last_draw is not None and self.last_draw[1]
        return SimulatedWin(
            seat=seat,
            tile=tile,
            hand=hand,
            self_drawn=discarder is None,
            discarder=discarder,
            pattern=plan.target.pattern,
            flowers=self.flowers[seat],
            kong_replacement=bool(replacement) and self.plays[-2].verb is PlayVerb.DRAW,
            last_tile=self.wall.exhausted,
        )

    def _add(self, seat: int | None, verb: PlayVerb, **fields: object) -> None:
        t = round(self.t, 3)
        self.plays.append(SimulatedPlay(seat, verb, t, round(self.start + t, 3), **fields))  # type: ignore[arg-type]


def _runs_with(tile: Tile) -> list[tuple[Tile, ...]]:
    out = []
    for start in (-2, -1, 0):
        run = [tile.shifted(start + k) for k in range(3)]
        if all(t is not None for t in run):
            out.append(tuple(t for t in run if t is not None))
    return out


def _connections(tile: Tile, hand: list[Tile]) -> int:
    """How useful a tile looks: copies held plus same-suit neighbours within two ranks."""
    score = 2 * (hand.count(tile) - 1)
    if tile.suit.is_numbered:
        suit, rank = tile.suit, tile.rank
        score += sum(1 for t in hand if t.suit is suit and 0 < abs(t.rank - rank) <= 2)
    return score
