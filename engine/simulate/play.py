"""The hand loop behind :func:`engine.simulate.simulate_game`.

Tiles are decided when they are drawn (a lazily stacked wall): the chosen winner receives the
tiles of his plan (:mod:`engine.simulate.targets`) with some probability per draw, "carriers"
receive the tiles he will claim and discard them at once, everybody else gets random tiles from
the rest of the set. Undrawn positions get the leftovers, so the final wall is a full, consistent
set in draw order that a :class:`engine.wall.Wall` replays exactly.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.notation import Hand
from engine.procedures import Procedure
from engine.simulate.melds import AFTER_DRAW, DRAW, MeldsMixin, connections
from engine.simulate.supply import TileSupply, tile_index
from engine.simulate.targets import WinnerPlan, plan_winner
from engine.simulate.types import (
    PlayVerb,
    SimulatedHand,
    SimulatedPlay,
    SimulatedWin,
    winning_shape_problem,
)
from engine.tiles import Meld, Tile
from engine.wall import DEAL_POSITIONS, Wall, procedure_tiles


class HandSimulator(MeldsMixin):
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
        return min(ordered, key=lambda t: (connections(t, ordered), self.rng.random()))

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
