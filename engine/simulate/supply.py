"""Which tile each simulated draw brings: planned tiles for the winner, tiles to plant with the
seats that will discard them for his claims, and random tiles from the rest of the set."""

from __future__ import annotations

import random
from collections import Counter

from engine.procedures import Procedure
from engine.simulate.targets import ClaimPlan, WinnerPlan
from engine.tiles import Tile
from engine.wall import Wall, procedure_tiles


def tile_index(tile: Tile) -> int:
    return tile.index


class TileSupply:
    """The undealt part of the set, split into the free pool and the winner's reserve."""

    def __init__(
        self, procedure: Procedure, rng: random.Random, wall: Wall, plan: WinnerPlan | None
    ) -> None:
        self.rng, self.wall, self.plan, self.flowers = rng, wall, plan, procedure.flowers
        self.pool: Counter[Tile] = Counter(procedure_tiles(procedure))
        self.reserved: Counter[Tile] = Counter()
        self.plants: list[tuple[int, Tile, ClaimPlan | None]] = []  # (carrier, tile, claim)
        self.win_tile_out = False
        if plan is not None:
            self.reserved = plan.target.tiles()
            self.pool -= self.reserved
            for tile in plan.dealt:
                self.reserved[tile] -= 1

    def leftovers(self) -> list[Tile]:
        """Every tile not handed out yet, shuffled: they fill the undrawn wall positions."""
        out = sorted((self.pool + self.reserved).elements(), key=tile_index)
        self.rng.shuffle(out)
        return out

    def planted_in(self, seat: int, hand: list[Tile]) -> Tile | None:
        """A planted tile ``seat`` holds and must discard now."""
        for carrier, tile, _ in self.plants:
            if carrier == seat and tile in hand:
                return tile
        return None

    def choose(self, seat: int) -> Tile:
        """The tile this draw brings: a planned one, a tile to plant, or a random one."""
        last = self.wall.next_is_last
        plan = self.plan
        if plan is not None and not plan.broken:
            urgent = self.wall.live <= 4 * (self._outstanding(plan) + 2)
            if seat == plan.seat:
                need = self._next_need(plan, urgent)
                if need is not None and (urgent or self.rng.random() < 0.3):
                    self.reserved[need] -= 1
                    if need in plan.draw_needs:
                        plan.draw_needs.remove(need)
                    elif need == plan.added_kong_tile:
                        plan.added_kong_drawn = True
                    return need
            else:
                plant = self._plant_for(plan, seat, last)
                if plant is not None and (urgent or self.rng.random() < 0.3):
                    tile, claim = plant
                    self.reserved[tile] -= 1
                    self.plants.append((seat, tile, claim))
                    if claim is None:
                        self.win_tile_out = True
                    else:
                        claim.carrier = seat
                    return tile
        return self.junk(seat, allow_flower=self.flowers and not last)

    def _outstanding(self, plan: WinnerPlan) -> int:
        return len(plan.draw_needs) + sum(not c.done for c in plan.claims) + 2

    def _next_need(self, plan: WinnerPlan, urgent: bool) -> Tile | None:
        for tile in plan.draw_needs:
            if self.reserved[tile] > 0:
                return tile
        kong_tile = plan.added_kong_tile
        if kong_tile is not None and not plan.added_kong_drawn:
            if plan.kong_set in plan.melded_sets and self.reserved[kong_tile] > 0:
                return kong_tile
            return None
        if any(not c.done for c in plan.claims) or self.win_tile_out:
            return None
        if (not plan.win_by_discard or urgent) and self.reserved[plan.win_tile] > 0:
            return plan.win_tile
        return None

    def _plant_for(
        self, plan: WinnerPlan, seat: int, last: bool
    ) -> tuple[Tile, ClaimPlan | None] | None:
        if any(p[0] == seat for p in self.plants):
            return None
        for claim in plan.claims:
            if claim.done or claim.carrier not in (None, seat) or last:
                continue
            if any(p[2] is claim for p in self.plants) or self.reserved[claim.tile] <= 0:
                continue
            return claim.tile, claim
        waiting = not plan.draw_needs and all(c.done for c in plan.claims)
        kong_done = plan.added_kong_tile is None or plan.added_kong_drawn
        ready = waiting and kong_done and not self.win_tile_out
        if plan.win_by_discard and ready and self.reserved[plan.win_tile] > 0:
            return plan.win_tile, None
        return None

    def pop_plant(self, seat: int, tile: Tile) -> ClaimPlan | None:
        for i, (carrier, planted, claim) in enumerate(self.plants):
            if carrier == seat and planted == tile:
                del self.plants[i]
                return claim
        return None

    def junk(self, seat: int, *, allow_flower: bool) -> Tile:
        """A random tile from the free part of the set (weighted by copies left)."""
        avoid = set(self.plan.target.tiles()) if self.plan and self.plan.seat == seat else set()
        choices = self._free_kinds(allow_flower)
        flowers = [t for t in choices if t.is_flower]
        if flowers and sum(self.pool[t] for t in flowers) >= self.wall.live - 3:
            choices = flowers  # never leave flowers for the last draw: it gets no replacement
        preferred = [t for t in choices if t not in avoid] or choices
        if not preferred:  # the free tiles ran out: give up the plan's reserve
            if self.plan is not None:
                self.plan.broken = True
            self.pool += self.reserved
            self.reserved = Counter()
            preferred = self._free_kinds(allow_flower)
        tile = self.rng.choices(preferred, weights=[self.pool[t] for t in preferred])[0]
        self.pool[tile] -= 1
        return tile

    def _free_kinds(self, allow_flower: bool) -> list[Tile]:
        kinds = (t for t, n in self.pool.items() if n > 0 and (allow_flower or not t.is_flower))
        return sorted(kinds, key=tile_index)
