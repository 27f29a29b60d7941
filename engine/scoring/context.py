"""One immutable win context per arrangement of a declared win: what every pattern predicate reads.

:func:`build_contexts` checks the request (tile count, copies, flowers) and builds a
:class:`WinContext` for each arrangement the rule set's ``arrange`` function returns; the hand's
waits are searched on first use (``ctx.waits``), once per request. Facts that follow from the
tiles alone are normalised here, the same for every rule set: a pung the winning discard
completed counts as exposed unless the tile can sit in a concealed chow instead; a last-of-kind
flag is dropped when the winner holds the tile and set when its own exposed melds show the other
three; robbing a kong needs a tile the winner lacks; a kong-replacement win is self-drawn and
needs a kong.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.rulesets import WinRequest
from engine.scoring.decompose import Arrangement, Counts, SetKind, TileSet, counts_of, meld_set
from engine.tiles import Wind, excess_copies

#: A rule set's shapes: concealed counts (winning tile included) + declared melds -> arrangements.
Arrange = Callable[[Counts, Sequence[TileSet]], list[Arrangement]]
#: Optional fast test of the same shapes (used to find waits); defaults to ``bool(arrange(...))``.
IsWin = Callable[[Counts, Sequence[TileSet]], bool]
#: Optional: the only kinds that could complete the hand (a superset of its waits).
WaitCandidates = Callable[[Counts, Sequence[TileSet]], Iterable[int]]

EDGE = "edge"  # the winning tile completed a chow at one end (12+3, 7+89, 45+6 ...)
CLOSED = "closed"  # the middle of a chow
SINGLE = "single"  # the pair
PUNG = "pung"  # a concealed pung


class HandError(ValueError):
    """The request cannot be a winning hand; the message says why, quoting the hand."""


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything about one arrangement of one win. ``cache`` holds values derived from the
    context (e.g. a rule set's chow combinations) so several patterns can share one computation.
    """

    arrangement: Arrangement
    win_tile: int
    counts: Counts  # every tile of the hand, winning tile and all four of each kong included
    kinds: tuple[int, ...]  # dense indices of the kinds present in the hand
    concealed: Counts  # concealed tiles (winning tile included), declared melds excluded
    positions: frozenset[str]  # how the winning tile sits in this arrangement (EDGE, CLOSED ...)
    self_drawn: bool = False
    seat_wind: Wind = Wind.EAST
    prevalent_wind: Wind = Wind.EAST
    flowers: int = 0
    last_of_kind: bool = False
    last_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    extras: Mapping[str, Any] = field(default_factory=dict)
    cache: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)
    find_waits: Callable[[], frozenset[int]] = field(
        default=frozenset, compare=False, hash=False, repr=False
    )

    @property
    def shape(self) -> str:
        return self.arrangement.shape

    @property
    def sets(self) -> tuple[TileSet, ...]:
        return self.arrangement.sets

    @property
    def melds(self) -> tuple[TileSet, ...]:
        """Declared melds (exposed sets and concealed kongs)."""
        return self._sets_where("melds", lambda s: s.declared)

    @property
    def chows(self) -> tuple[TileSet, ...]:
        return self._sets_where("chows", lambda s: s.kind is SetKind.CHOW)

    @property
    def pungs(self) -> tuple[TileSet, ...]:
        """Pungs and kongs."""
        return self._sets_where("pungs", lambda s: s.is_pung)

    @property
    def kongs(self) -> tuple[TileSet, ...]:
        return self._sets_where("kongs", lambda s: s.kind is SetKind.KONG)

    @property
    def pairs(self) -> tuple[TileSet, ...]:
        return self._sets_where("pairs", lambda s: s.kind is SetKind.PAIR)

    def _sets_where(self, key: str, keep: Callable[[TileSet], bool]) -> tuple[TileSet, ...]:
        found: tuple[TileSet, ...] | None = self.cache.get(key)
        if found is None:
            found = self.cache[key] = tuple(s for s in self.sets if keep(s))
        return found

    @property
    def pair(self) -> TileSet | None:
        pairs = self.pairs
        return pairs[0] if len(pairs) == 1 else None

    @property
    def win_sets(self) -> tuple[TileSet, ...]:
        """The concealed groups of this arrangement the winning tile can have completed."""
        return tuple(s for s in self.sets if not s.declared and self.win_tile in s.indices)

    @property
    def waits(self) -> frozenset[int]:
        """Kinds that would have completed the hand before the win (found on first use)."""
        return self.find_waits()

    @property
    def unique_wait(self) -> bool:
        return len(self.waits) == 1

    @property
    def fully_concealed(self) -> bool:
        """No exposed meld (concealed kongs allowed) - before the winning tile is counted."""
        return all(s.concealed for s in self.melds)


def build_contexts(
    request: WinRequest,
    arrange: Arrange,
    *,
    is_win: IsWin | None = None,
    wait_candidates: WaitCandidates | None = None,
    live_waits_only: bool = True,
) -> tuple[WinContext, ...]:
    """One context per arrangement of the win; :class:`HandError` when it cannot be a win.

    With ``live_waits_only`` a tile counts as a wait only while a copy of it is left outside the
    winner's own hand and melds (a "wait" on a fifth copy is no wait); without it, every tile
    that would complete the shape counts, as in the PyMahjongGB reference calculator.
    """
    hand = request.hand
    win = request.win_tile
    if win.is_flower or any(t.is_flower for t in hand.concealed):
        raise HandError(
            f"flowers are not part of a hand; count them with flowers=N ({str(hand)!r})"
        )
    if request.flowers < 0 or request.flowers > 8:
        raise HandError(f"flowers must be 0-8, got {request.flowers}")
    size = len(hand.concealed) + 1 + 3 * len(hand.melds)
    if size != 14:
        raise HandError(
            f"a winning hand needs 14 tiles (kongs counting 3), got {size}: "
            f"{str(hand)!r} + winning tile {win}"
        )
    excess = excess_copies((*hand.all_tiles(), win))
    if excess:
        worst = ", ".join(f"{n} copies of {t}" for t, n in sorted(excess.items()))
        raise HandError(f"impossible hand: {worst} in {str(hand)!r} + {win}")
    melds = tuple(meld_set(m) for m in hand.melds)
    before = counts_of(hand.concealed)
    concealed = _plus(before, win.index)
    arrangements = arrange(concealed, melds)
    if not arrangements:
        raise HandError(f"not a winning hand: {str(hand)!r} + winning tile {win}")
    counts = counts_of((*hand.all_tiles(), win))
    meld_copies = counts_of(t for m in hand.melds for t in m.tiles)
    flags = _normalised_flags(request, before, meld_copies, melds)
    wins = is_win or (lambda c, m: bool(arrange(c, m)))
    found: list[frozenset[int]] = []

    def find_waits() -> frozenset[int]:
        """The search runs once per request, and only if a pattern asks."""
        if not found:
            found.append(
                frozenset(
                    t
                    for t in (
                        range(34) if wait_candidates is None else wait_candidates(before, melds)
                    )
                    if (before[t] + meld_copies[t] < 4 or not live_waits_only)
                    and wins(_plus(before, t), melds)
                )
            )
        return found[0]

    return tuple(
        WinContext(
            arrangement=_mark_discard_pung(a, win.index, flags.self_drawn),
            win_tile=win.index,
            counts=counts,
            kinds=tuple(i for i, n in enumerate(counts) if n),
            concealed=concealed,
            find_waits=find_waits,
            positions=_positions(a, win.index),
            seat_wind=request.seat_wind,
            prevalent_wind=request.prevalent_wind,
            flowers=request.flowers,
            extras=request.extras,
            self_drawn=flags.self_drawn,
            last_of_kind=flags.last_of_kind,
            last_tile=flags.last_tile,
            kong_replacement=flags.kong_replacement,
            robbing_kong=flags.robbing_kong,
        )
        for a in arrangements
    )


def _plus(counts: Counts, index: int) -> Counts:
    return (*counts[:index], counts[index] + 1, *counts[index + 1 :])


@dataclass(frozen=True, slots=True)
class _Flags:
    self_drawn: bool
    last_of_kind: bool
    last_tile: bool
    kong_replacement: bool
    robbing_kong: bool


def _normalised_flags(
    request: WinRequest, before: Counts, meld_copies: Counts, melds: Sequence[TileSet]
) -> _Flags:
    win = request.win_tile.index
    if request.robbing_kong and (request.self_drawn or request.kong_replacement):
        raise HandError("robbing a kong is a win on another player's tile, not self-drawn")
    self_drawn = request.self_drawn or request.kong_replacement
    held = before[win] + meld_copies[win]
    last_of_kind = (request.last_of_kind and before[win] == 0) or meld_copies[win] == 3
    return _Flags(
        self_drawn=self_drawn,
        last_of_kind=last_of_kind,
        last_tile=request.last_tile,
        kong_replacement=request.kong_replacement and any(m.kind is SetKind.KONG for m in melds),
        robbing_kong=request.robbing_kong and held == 0,
    )


def _positions(arrangement: Arrangement, win: int) -> frozenset[str]:
    found: set[str] = set()
    for s in arrangement.sets:
        if s.declared or win not in s.indices:
            continue
        if s.kind is SetKind.CHOW:
            found.add(CLOSED if win == s.first + 1 else EDGE)
        elif s.kind is SetKind.PAIR:
            found.add(SINGLE)
        elif s.kind is SetKind.PUNG:
            found.add(PUNG)
    return frozenset(found)


def _mark_discard_pung(arrangement: Arrangement, win: int, self_drawn: bool) -> Arrangement:
    """On a discard, the concealed pung of the winning tile counts as exposed unless the tile
    can complete a concealed chow of this arrangement instead (high-versus-low)."""
    if self_drawn:
        return arrangement
    sets = arrangement.sets
    if any(s.kind is SetKind.CHOW and not s.declared and win in s.indices for s in sets):
        return arrangement
    marked = tuple(
        replace(s, concealed=False)
        if s.kind is SetKind.PUNG and not s.declared and s.first == win
        else s
        for s in sets
    )
    return replace(arrangement, sets=marked)
