"""Where the wall is broken and where each tile of the draw order physically lies.

The digest (§7.2) indexes stacks clockwise from the breaker: the breaker's wall holds global
stacks 1..W counted from its owner's right end, then the breaker's upper seat's wall holds
W+1..2W, and so on. The break number ``n`` names the tail stack; dealing starts at stack ``n+1``.
Draw-order position ``p`` (0 = first tile dealt) is stack ``n + 1 + p // 2``, top tier first.

>>> from engine.procedures import WSOM
>>> brk = WallBreak.from_dice(WSOM, dealer=0, rolls=(7, 11))
>>> (brk.breaker, brk.number, brk.tail_side, brk.tail_stack)
(2, 18, 1, 1)
>>> position_of(brk, 0)
StackPosition(side=1, stack=2, tier=<Tier.TOP: 'top'>)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from engine.procedures import BreakMethod, Procedure, dice_seat

__all__ = ["StackPosition", "Tier", "WallBreak", "WallBreakError", "default_break", "position_of"]


class WallBreakError(ValueError):
    """Dice or a break number that the procedure cannot use; the message quotes them."""


class Tier(enum.Enum):
    TOP = "top"
    BOTTOM = "bottom"


@dataclass(frozen=True, slots=True)
class StackPosition:
    """A physical tile place: the seat whose wall it is, the stack (1 = that wall's right end as
    its owner sees it), and the tier."""

    side: int
    stack: int
    tier: Tier


@dataclass(frozen=True, slots=True)
class WallBreak:
    """The break: who broke the wall, the break number ``n``, and the procedure's wall width."""

    breaker: int
    number: int
    stacks_per_side: int
    rolls: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        total = 4 * self.stacks_per_side
        if not 1 <= self.number <= total:
            raise WallBreakError(f"break number {self.number!r} is outside 1..{total}")
        if self.breaker not in range(4):
            raise WallBreakError(f"breaker seat {self.breaker!r} is not 0-3")

    @classmethod
    def from_dice(cls, procedure: Procedure, dealer: int, rolls: Sequence[int]) -> WallBreak:
        """The break from the rolls the table reports; each roll is the total of two dice (2-12).

        WSOM: the dealer's roll ``r1`` picks the breaker, ``n = r1 + r2``. National: one roll
        ``d`` picks the wall of ``dice_seat(dealer, d)`` and ``n = d``.
        """
        rolls = tuple(rolls)
        if procedure.break_method is BreakMethod.NONE:
            raise WallBreakError(f"procedure {procedure.name!r} has no wall to break")
        if len(rolls) != procedure.rolls_needed or any(
            not isinstance(r, int) or not 2 <= r <= 12 for r in rolls
        ):
            raise WallBreakError(
                f"procedure {procedure.name!r} needs {procedure.rolls_needed} roll(s) of two dice "
                f"(each 2-12), got {rolls!r}"
            )
        breaker = dice_seat(dealer % 4, rolls[0])
        return cls(breaker, sum(rolls), procedure.stacks_per_side, rolls)

    @classmethod
    def from_die_faces(cls, procedure: Procedure, dealer: int, faces: Sequence[int]) -> WallBreak:
        """The break from single die faces (1-6) as a shuffling table reads them, two per roll
        in rolling order: WSOM ``(3, 4, 5, 6)`` is r1 = 7, r2 = 11."""
        faces = tuple(faces)
        if len(faces) != 2 * procedure.rolls_needed or any(
            not isinstance(f, int) or not 1 <= f <= 6 for f in faces
        ):
            raise WallBreakError(
                f"procedure {procedure.name!r} needs {2 * procedure.rolls_needed} die faces "
                f"(each 1-6), got {faces!r}"
            )
        rolls = tuple(faces[i] + faces[i + 1] for i in range(0, len(faces), 2))
        return cls.from_dice(procedure, dealer, rolls)

    @property
    def tail_side(self) -> int:
        """The seat whose wall holds the tail stack (the breaker's, or past W his upper seat's)."""
        return side_of_global(self, self.number)

    @property
    def tail_stack(self) -> int:
        return (self.number - 1) % self.stacks_per_side + 1

    @property
    def head(self) -> StackPosition:
        """Where dealing starts: the top tile of the stack after the tail."""
        return position_of(self, 0)

    @property
    def tail(self) -> StackPosition:
        """The tail stack's top tile: the first replacement tile (top first, §22.3)."""
        return StackPosition(self.tail_side, self.tail_stack, Tier.TOP)


def side_of_global(brk: WallBreak, global_stack: int) -> int:
    """The seat owning global stack ``global_stack`` (1-based, clockwise from the breaker)."""
    return (brk.breaker - (global_stack - 1) // brk.stacks_per_side) % 4


def position_of(brk: WallBreak, index: int) -> StackPosition:
    """The physical place of draw-order position ``index`` (0 = first tile dealt)."""
    total_stacks = 4 * brk.stacks_per_side
    if not 0 <= index < 2 * total_stacks:
        raise IndexError(f"draw-order position {index!r} is outside 0..{2 * total_stacks - 1}")
    global_stack = (brk.number + index // 2) % total_stacks + 1
    tier = Tier.TOP if index % 2 == 0 else Tier.BOTTOM
    return StackPosition(
        side_of_global(brk, global_stack),
        (global_stack - 1) % brk.stacks_per_side + 1,
        tier,
    )


def default_break(procedure: Procedure) -> WallBreak | None:
    """A neutral break for records that give no dice (None for procedures without a wall)."""
    if not procedure.has_wall_model:
        return None
    return WallBreak(0, procedure.stacks_per_side, procedure.stacks_per_side)
