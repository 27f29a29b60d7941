"""Physical table procedures: how many tiles, how the wall is broken, where the wall ends.

A :class:`Procedure` is a small frozen description that the wall, the table state machine and the
simulator read; shared code never branches on a procedure's name. Built-ins (from the digest
``rules/wsom-and-national-table-procedure.md``):

* ``wsom`` -- World Series of Mahjong v1.03: 136 tiles, 17 stacks a side, two-roll break
  (``n = r1 + r2``), 14 reserved tiles, no flowers, no prevailing wind, the deal always passes.
* ``national`` -- Chinese national rules 1998: 144 tiles with flowers, 18 stacks, one-roll break,
  whole wall drawn, prevailing wind by round, the dealer never repeats.
* ``log`` -- no wall model: draws come from a record or a camera; only counts are kept.

Other procedures register themselves with :func:`register_procedure`; :func:`find_procedure`
imports ``engine.procedure_<name>`` on first lookup of an unknown name, so a plug-in module (e.g.
``engine/procedure_qujing.py``) needs no edit here.

>>> find_procedure("wsom").live_tiles
122
>>> dice_seat(0, 7)  # East rolls 7: the opposite seat breaks
2
"""

from __future__ import annotations

import enum
import importlib
from dataclasses import dataclass

from engine.tiles import Wind


class BreakMethod(enum.Enum):
    """How the dice choose the break (the tail end of the wall)."""

    TWO_ROLLS = "two_rolls"  # dealer rolls r1 -> breaker; breaker rolls r2; n = r1 + r2 (4-24)
    ONE_ROLL = "one_roll"  # dealer rolls d -> the wall of dice_seat(dealer, d); n = d (2-12)
    NONE = "none"  # no wall model (records, camera-only)


class DealerRotation(enum.Enum):
    """Who deals the next hand."""

    ALWAYS_PASS = "always_pass"  # the dealer's lower seat, win or washout (WSOM, national)
    WINNER_DEALS = "winner_deals"  # the (first) winner; a washout keeps the dealer


class UnknownProcedureError(LookupError):
    """No procedure is registered under that name."""


def dice_seat(roller: int, total: int) -> int:
    """The seat a dice total points at, counting the roller as 1 counter-clockwise."""
    return (roller + total - 1) % 4


@dataclass(frozen=True, slots=True)
class Procedure:
    """One physical procedure, configurable per table.

    ``reserved_tiles`` are never drawn (WSOM's 14); ``revealed_tail_tiles`` are turned face up at
    the start and may be chosen as kong replacements (Qujing's two). ``replacement_top_first``
    settles the digest's ambiguity 3 (order inside the tail stack).
    """

    name: str
    tile_count: int = 136
    stacks_per_side: int = 17
    reserved_tiles: int = 14
    break_method: BreakMethod = BreakMethod.TWO_ROLLS
    flowers: bool = False
    prevailing_wind_by_round: bool = False
    dealer_rotation: DealerRotation = DealerRotation.ALWAYS_PASS
    revealed_tail_tiles: int = 0
    replacement_top_first: bool = True
    dealt_tiles: int = 53
    aliases: tuple[str, ...] = ()
    description: str = ""
    #: The rule set a table under this procedure scores with when none is chosen (find_rules).
    default_rules: str | None = None

    def __post_init__(self) -> None:
        if self.has_wall_model and self.tile_count != 8 * self.stacks_per_side:
            raise ValueError(
                f"procedure {self.name!r}: {self.tile_count} tiles do not fill "
                f"4 walls of {self.stacks_per_side} stacks"
            )
        if not 0 <= self.reserved_tiles < self.tile_count - self.dealt_tiles:
            raise ValueError(f"procedure {self.name!r}: bad reserved_tiles {self.reserved_tiles}")

    @property
    def has_wall_model(self) -> bool:
        """False for ``log``: no break, no positions, only counts."""
        return self.break_method is not BreakMethod.NONE

    @property
    def live_tiles(self) -> int:
        """Tiles that can be dealt or drawn in a hand (136 - 14 = 122 for WSOM)."""
        return self.tile_count - self.reserved_tiles

    @property
    def rolls_needed(self) -> int:
        return {BreakMethod.TWO_ROLLS: 2, BreakMethod.ONE_ROLL: 1, BreakMethod.NONE: 0}[
            self.break_method
        ]

    def prevailing_wind(self, hand_index: int) -> Wind | None:
        """The prevailing (round) wind of the ``hand_index``-th hand (0-based), or None."""
        if not self.prevailing_wind_by_round:
            return None
        return Wind((hand_index // 4) % 4)

    def next_dealer(self, dealer: int, winner: int | None) -> int:
        """The seat that deals the next hand."""
        if self.dealer_rotation is DealerRotation.WINNER_DEALS:
            return dealer if winner is None else winner
        return (dealer + 1) % 4


_PROCEDURES: dict[str, Procedure] = {}
_ALIASES: dict[str, str] = {}


def register_procedure(procedure: Procedure) -> Procedure:
    """Make ``procedure`` findable by its name and aliases; a second registration is an error."""
    if procedure.name in _PROCEDURES:
        raise ValueError(f"procedure {procedure.name!r} registered twice")
    _PROCEDURES[procedure.name] = procedure
    for alias in (procedure.name, *procedure.aliases):
        _ALIASES[alias.lower()] = procedure.name
    return procedure


def procedure_names() -> tuple[str, ...]:
    return tuple(sorted(_PROCEDURES))


def find_procedure(name: str) -> Procedure:
    """The procedure called ``name`` (or an alias); unknown names list the known ones."""
    wanted = name.strip().lower()
    key = _ALIASES.get(wanted)
    if key is None and wanted.isidentifier():
        module = f"engine.procedure_{wanted}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:  # the plug-in exists but is broken: say so
                raise
        key = _ALIASES.get(wanted)
    if key is None:
        known = ", ".join(procedure_names())
        raise UnknownProcedureError(f"unknown procedure {name!r} (known: {known})")
    return _PROCEDURES[key]


WSOM = register_procedure(
    Procedure(
        name="wsom",
        aliases=("wmc", "mcr-wsom"),
        description="World Series of Mahjong v1.03: 136 tiles, 14 reserved, two-roll break",
        default_rules="zung-jung",  # seeds 000/004: "scored by the World Mahjong Contest method"
    )
)
NATIONAL = register_procedure(
    Procedure(
        name="national",
        tile_count=144,
        stacks_per_side=18,
        reserved_tiles=0,
        break_method=BreakMethod.ONE_ROLL,
        flowers=True,
        prevailing_wind_by_round=True,
        aliases=("gb", "mcr-1998"),
        description="Chinese national rules 1998: 144 tiles with flowers, whole wall drawn",
    )
)
LOG = register_procedure(
    Procedure(
        name="log",
        tile_count=144,
        stacks_per_side=18,
        reserved_tiles=0,
        break_method=BreakMethod.NONE,
        flowers=True,
        prevailing_wind_by_round=True,
        aliases=("record", "camera"),
        description="no wall model: draws come from a record or a camera, only counts are kept",
    )
)
