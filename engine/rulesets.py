"""Rule sets: the one registry, and the contract every rule set (MCR, Zung Jung, Qujing…) meets.

A rule set scores a declared win and settles it into score changes; it also tells the table state
machine what the rules allow (chow, several winners on one discard, the minimum for a legal win).
Shared engine code never branches on a rule set's name: it asks the rule set.

Rule sets register themselves with :func:`register` when their module is imported;
:func:`find_rules` imports the built-in ones lazily, so a missing name fails at start-up. A rule
set may register its winning shapes too: :func:`any_winning_shape` asks them all (the camera's
check of a hand laid down, which does not know the table's rule set).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.notation import Hand
from engine.scoring.decompose import Counts, TileSet
from engine.tiles import Tile, Wind

#: Built-in rule-set modules, imported on first lookup (each calls :func:`register`).
BUILTIN_MODULES: tuple[str, ...] = (
    "engine.mcr.ruleset",
    "engine.qujing",
    "engine.zungjung",
)


@dataclass(frozen=True, slots=True)
class WinRequest:
    """Everything a scorer needs about one declared win.

    ``hand`` holds the concealed tiles *without* the winning tile, plus the declared melds.
    ``extras`` carries rule-set-specific facts the table knows (e.g. Qujing's discard history);
    each rule set documents the keys it reads.
    """

    hand: Hand
    win_tile: Tile
    self_drawn: bool = False
    seat_wind: Wind = Wind.EAST
    prevalent_wind: Wind = Wind.EAST
    flowers: int = 0
    last_of_kind: bool = False
    last_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    extras: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class FanScore:
    """One scoring element of a result: a fan (MCR), pattern (Zung Jung) or hand type (Qujing).

    ``points`` is the unit value, ``count`` how many times it counts; ``tiles`` lists the sets or
    tiles that produced it (each a tuple of tiles) so overlays can show why.
    """

    id: int | str
    name: str
    chinese: str
    points: int
    count: int = 1
    tiles: tuple[tuple[Tile, ...], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "points": self.points, "count": self.count}


@dataclass(frozen=True, slots=True)
class Payments:
    """What the discarder (None for a self-drawn win) and each other seat pay the winner."""

    each_other: int
    discarder: int | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.discarder is not None:
            out["discarder"] = self.discarder
        out["each_other"] = self.each_other
        out.update(self.details)
        return out


@dataclass(frozen=True, slots=True)
class ScoreResult:
    """A scored win. ``valid`` is False for a hand under the minimum or an impossible hand."""

    total: int
    valid: bool
    fans: tuple[FanScore, ...] = ()
    payments: Payments | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "valid": self.valid,
            "fans": [f.to_json() for f in self.fans],
            "payments": self.payments.to_json() if self.payments else None,
            "error": self.error,
        }


class RuleSet(Protocol):
    """What the engine asks of a rule set.

    A rule set that also restricts play at the table (furiten, must-win, tail tiles, kong
    payments, its own dealer rule) implements the optional :class:`engine.table.rules_api.
    TableRules` hooks as well; the table finds them structurally, never by name.
    """

    name: str
    aliases: tuple[str, ...]
    allows_chow: bool
    max_winners_per_discard: int

    def score(self, request: WinRequest) -> ScoreResult:
        """Score one win; never raises for bad hands (``valid=False`` with ``error`` instead)."""
        ...

    def settle(
        self, result: ScoreResult, *, winner: int, discarder: int | None
    ) -> tuple[int, int, int, int]:
        """Score changes for seats 0-3 (summing to zero) for a valid result."""
        ...


#: Whether tile counts (the concealed tiles, 34 kinds) with ``melds`` beside them make a
#: winning shape of a rule set.
WinningShape = Callable[[Counts, Sequence[TileSet]], bool]

_RULESETS: dict[str, Callable[..., RuleSet]] = {}
_ALIASES: dict[str, str] = {}
_SHAPES: dict[str, WinningShape] = {}


class UnknownRuleSetError(LookupError):
    """No rule set is registered under that name."""


def register(
    name: str,
    factory: Callable[..., RuleSet],
    aliases: tuple[str, ...] = (),
    *,
    winning_shape: WinningShape | None = None,
) -> None:
    """Register rule set ``name``; ``winning_shape`` tells its winning shapes from tiles alone."""
    if name in _RULESETS:
        raise ValueError(f"rule set {name!r} registered twice")
    _RULESETS[name] = factory
    if winning_shape is not None:
        _SHAPES[name] = winning_shape
    for alias in (name, *aliases):
        _ALIASES[alias.lower()] = name


def rule_set_names() -> tuple[str, ...]:
    _load_builtins()
    return tuple(sorted(_RULESETS))


def find_rules(name: str, **options: Any) -> RuleSet:
    """The rule set called ``name`` (or an alias), configured with ``options``."""
    _load_builtins()
    key = _ALIASES.get(name.lower())
    if key is None:
        known = ", ".join(sorted(_RULESETS)) or "none"
        raise UnknownRuleSetError(f"unknown rule set {name!r} (known: {known})")
    factory: Callable[..., RuleSet] = _RULESETS[key]
    return factory(**options)


def any_winning_shape(concealed: Counts, melds: Sequence[TileSet]) -> bool:
    """Whether the tiles make a winning shape of any rule set that registered its shapes (MCR's:
    four sets and a pair, seven pairs, thirteen orphans and the knitted hands)."""
    _load_builtins()
    return any(shape(concealed, melds) for shape in _SHAPES.values())


def _load_builtins() -> None:
    for module in BUILTIN_MODULES:
        importlib.import_module(module)


def score_safely(rules: RuleSet, request: WinRequest) -> ScoreResult:
    """A rule set that trips over bad extras must not end the run with a traceback."""
    try:
        return rules.score(request)
    except Exception as exc:
        return ScoreResult(total=0, valid=False, error=f"cannot score: {exc}")
