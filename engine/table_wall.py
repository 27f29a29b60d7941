"""What the table needs to know about the wall: counts, the sea-bottom tile, known draw order.

With a wall model (``wsom``, ``national``) every deal, head draw and tail (replacement) draw lowers
the live count; the reserved block never gets drawn. Without one (``log``) counts are kept but the
live count is unknown (None), so wall-end rules are not enforced. When the wall order is known (a
simulated shuffle, a recorded wall) each draw is checked against it.
"""

from __future__ import annotations

from typing import Any

from engine.notation import format_tiles
from engine.procedures import Procedure
from engine.tiles import Tile


class WallTracker:
    def __init__(self, procedure: Procedure, order: tuple[Tile, ...] | None = None) -> None:
        self.procedure = procedure
        self.order = order
        self.dealt = 0
        self.head_draws = 0
        self.tail_draws = 0

    @property
    def taken(self) -> int:
        return self.dealt + self.head_draws + self.tail_draws

    @property
    def live_left(self) -> int | None:
        """Live tiles still drawable, or None without a wall model."""
        if not self.procedure.has_wall_model:
            return None
        return self.procedure.tile_count - self.procedure.reserved_tiles - self.taken

    def deal(self, count: int) -> tuple[Tile, ...] | None:
        """Record ``count`` dealt tiles; returns them from the known order (in draw order)."""
        start = self.dealt
        self.dealt += count
        if self.order is None or self.head_draws or self.tail_draws:
            return None
        return self.order[start : start + count]

    def draw(self, replacement: bool) -> Tile | None:
        """Record one draw; returns the tile the known order says it must be (None if unknown)."""
        expected = self._expected(replacement)
        if replacement:
            self.tail_draws += 1
        else:
            self.head_draws += 1
        return expected

    def undo_draw(self, replacement: bool) -> None:
        """A drawn tile went back to the wall (a claim took precedence over the draw)."""
        if replacement:
            self.tail_draws = max(0, self.tail_draws - 1)
        else:
            self.head_draws = max(0, self.head_draws - 1)

    def _expected(self, replacement: bool) -> Tile | None:
        if self.order is None:
            return None
        n = len(self.order)
        if not replacement:
            pos = self.dealt + self.head_draws
        else:
            k = self.tail_draws
            stack_start = n - 2 * (k // 2 + 1)
            first = 0 if self.procedure.replacement_top_first else 1
            pos = stack_start + (first if k % 2 == 0 else 1 - first)
        return self.order[pos] if 0 <= pos < n else None

    def snapshot(self, *, private: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "model": self.procedure.has_wall_model,
            "total": self.procedure.tile_count,
            "dealt": self.dealt,
            "drawn": self.head_draws,
            "replacements_taken": self.tail_draws,
            "live_left": self.live_left,
            "reserved": self.procedure.reserved_tiles if self.procedure.has_wall_model else None,
            "sea_bottom": self.live_left == 0,
        }
        if private:
            out["order"] = format_tiles(self.order) if self.order else None
        return out
