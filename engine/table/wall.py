"""The table's view of the wall: :class:`engine.wall.Wall` where the procedure models one, plain
counts where it does not (``log``: records and camera-only tables, where the live count is
unknown and wall-end rules are not enforced).

The adapter turns wall errors into problems the table reports as violations, deals per seat (the
physical deal hands all four seats out at once), and handles a drawn tile going back to the wall
when a claim took precedence over the draw (WSOM): it is the next head draw again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.json_forms import tiles_to_json
from engine.procedures import Procedure
from engine.tiles import Tile
from engine.wall import Wall, WallError, WallExhaustedError


class WallTracker:
    def __init__(
        self,
        procedure: Procedure,
        order: Sequence[Tile] | None = None,
        *,
        dice: Sequence[int] = (),
        dealer: int = 0,
    ) -> None:
        """Raises WallError (quoting the dice or order) when the wall cannot be built."""
        self.procedure = procedure
        self.order = tuple(order) if order is not None else None
        self.wall: Wall | None = None
        if procedure.has_wall_model:
            if dice:
                self.wall = Wall.from_dice(procedure, dice, dealer=dealer, tiles=order)
            else:
                self.wall = Wall(procedure, tiles=order, dealer=dealer)
        self._hands: tuple[tuple[Tile | None, ...], ...] | None = None
        self._returned: list[Tile | None] = []
        self.dealt = self.head_draws = self.tail_draws = 0
        #: Which tail tile the last replacement took (see :meth:`_tail_pick`); None when the
        #: wall does not know its face-up tail tiles (or has none).
        self.last_pick: int | None = None

    @property
    def live_left(self) -> int | None:
        """Live tiles still drawable, or None without a wall model."""
        if self.wall is None:
            return None
        return self.wall.live + len(self._returned)

    def deal(self, seat: int, count: int) -> tuple[Tile | None, ...] | None:
        """The tiles the wall deals ``seat`` (None without a wall model)."""
        self.dealt += count
        if self.wall is None:
            return None
        if self._hands is None:
            self._hands = self.wall.deal()
        return self._hands[seat]

    def draw(self, replacement: bool, tile: Tile | None) -> tuple[Tile | None, str | None]:
        """One draw: (the tile, as named or as the known wall holds it; a problem or None)."""
        self.last_pick = None
        if replacement:
            self.tail_draws += 1
        else:
            self.head_draws += 1
        if self.wall is None:
            return tile, None
        if not replacement and self._returned:
            returned = self._returned.pop()
            if tile is not None and returned is not None and tile != returned:
                return tile, f"drew {tile} where the returned tile {returned} lies"
            return tile if tile is not None else returned, None
        try:
            if replacement:
                pick = self._tail_pick(tile)
                drawn = self.wall.draw_replacement(tile, pick=pick if pick is not None else 0)
                self.last_pick = pick
                return drawn, None
            return self.wall.draw(tile), None
        except WallExhaustedError as exc:
            return tile, f"exhausted: {exc}"
        except WallError as exc:
            return tile, str(exc)

    def _tail_pick(self, tile: Tile | None) -> int | None:
        """Which tail tile a replacement takes where the procedure turns ``k`` tail tiles face
        up (``revealed_tail_tiles``, e.g. Qujing's two): the face-up tile it names (0..k-1),
        else the face-down tile in front of them (k), else the next one (0). None when the wall
        has no face-up tail tiles or does not know them (the rule set cannot judge the pick)."""
        wall = self.wall
        revealed = wall.revealed_tail() if wall is not None else ()
        if wall is None or not revealed or None in revealed:
            return None
        if tile is None:
            return 0
        if tile in revealed:
            return revealed.index(tile)
        return len(revealed) if wall.live > len(revealed) else 0

    def undo_draw(self, tile: Tile | None) -> None:
        """A drawn tile went back to the wall (a claim took precedence over the draw)."""
        self.head_draws = max(0, self.head_draws - 1)
        if self.wall is not None:
            self._returned.append(tile)

    def snapshot(self, *, private: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "model": self.wall is not None,
            "total": self.procedure.tile_count,
            "dealt": self.dealt,
            "drawn": self.head_draws,
            "replacements_taken": self.tail_draws,
            "live_left": self.live_left,
            "reserved": self.wall.reserved if self.wall is not None else None,
            "sea_bottom": self.live_left == 0,
        }
        if self.wall is not None and self.wall.wall_break is not None:
            brk = self.wall.wall_break
            out["break"] = {"side": brk.tail_side, "stack": brk.tail_stack, "number": brk.number}
        if private:
            out["order"] = tiles_to_json(self.order) if self.order else None
        return out
