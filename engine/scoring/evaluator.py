"""The one evaluator: patterns, declared exclusions, the best arrangement.

How a rule set plugs in
-----------------------
1. Write each scoring element (MCR fan, Zung Jung pattern, Qujing hand type) as a
   :class:`Pattern`: declarative data plus one predicate ``applies(ctx) -> Hit`` over an immutable
   :class:`~engine.scoring.context.WinContext`. The :func:`pattern` decorator turns a function into
   one::

       @pattern(48, "All Pungs", "碰碰和", 6, excludes={...})
       def all_pungs(ctx: WinContext) -> Hit:
           return len(ctx.pungs) == 4

   A predicate returns how many times the pattern counts (``bool``/``int``) or a :class:`Found`
   naming the sets behind each instance, which overlays show and ``absorbs`` uses.
2. Give :func:`build_contexts` an ``arrange`` function (usually
   :func:`~engine.scoring.decompose.common_arrangements`, plus any shapes of your own).
3. Call :func:`evaluate` with the patterns and the contexts; it scores every arrangement, applies
   the exclusions and returns the highest-scoring one (ties: the first arrangement, unless an
   optional ``prefer`` function of the rule set picks the later one).

Exclusions are data on the pattern that is present, applied from the highest-valued pattern
down (a pattern another one removed exerts no exclusions of its own):

* ``excludes`` - ids not counted at all alongside this pattern;
* ``absorbs`` - ids whose instances lie entirely within this pattern's sets (e.g. the wind pung
  behind Prevalent Wind is not also a Pung of Terminals or Honours);
* ``reduces`` - ``{id: n}``: n instances of that id per instance of this pattern are dropped;
* ``fallback`` - counts only when nothing else does (Chicken Hand);
* ``bonus`` - counts in the total but not toward a minimum and never blocks a fallback (flowers).

Rule-set principles that cannot be said as exclusions (MCR's account-once rule for combinations
of chows) belong in the rule set's own helper, shared by its predicates through ``ctx.cache``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.rulesets import FanScore
from engine.scoring.context import WinContext
from engine.scoring.decompose import TileSet
from engine.tiles import Tile

Group = tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Found:
    """Instances of a pattern: one tuple of sets per instance (empty when it is hand-wide)."""

    instances: tuple[tuple[TileSet, ...], ...]

    @property
    def count(self) -> int:
        return len(self.instances)


Hit = bool | int | Found
Predicate = Callable[[WinContext], Hit]


def found(*instances: Sequence[TileSet]) -> Found:
    """``found([chow_a, chow_b], [pung])`` - one argument per instance."""
    return Found(tuple(tuple(i) for i in instances))


@dataclass(frozen=True, slots=True)
class Pattern:
    """One scoring element: declarative data and a predicate."""

    id: int | str
    name: str
    chinese: str
    points: int
    predicate: Predicate = field(compare=False)
    excludes: frozenset[int | str] = frozenset()
    absorbs: frozenset[int | str] = frozenset()
    reduces: Mapping[int | str, int] = field(default_factory=dict)
    fallback: bool = False
    bonus: bool = False

    def applies(self, ctx: WinContext) -> Hit:
        return self.predicate(ctx)


def pattern(
    id: int | str,
    name: str,
    chinese: str,
    points: int,
    *,
    excludes: Iterable[int | str] = (),
    absorbs: Iterable[int | str] = (),
    reduces: Mapping[int | str, int] | None = None,
    fallback: bool = False,
    bonus: bool = False,
) -> Callable[[Predicate], Pattern]:
    """Decorator: a predicate function becomes a :class:`Pattern`."""

    def wrap(predicate: Predicate) -> Pattern:
        return Pattern(
            id, name, chinese, points, predicate, frozenset(excludes), frozenset(absorbs),
            dict(reduces or {}), fallback, bonus,
        )  # fmt: skip

    return wrap


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The best arrangement's patterns (in the rule set's order), its total and bonus share."""

    fans: tuple[FanScore, ...]
    total: int
    bonus: int
    context: WinContext

    @property
    def base(self) -> int:
        """The total without bonus patterns (what a minimum is checked against)."""
        return self.total - self.bonus


#: A rule set's tie-break: should ``candidate`` replace ``best`` when their totals are equal?
Prefer = Callable[["Evaluation", "Evaluation"], bool]


def evaluate(
    patterns: Sequence[Pattern], contexts: Iterable[WinContext], prefer: Prefer | None = None
) -> Evaluation | None:
    """Score every context and keep the highest total; on a tie the earlier one stays unless
    the rule set's ``prefer`` says otherwise."""
    order = sorted(patterns, key=lambda p: -p.points)
    best: Evaluation | None = None
    for ctx in contexts:
        result = _score(patterns, order, ctx)
        if best is None or _better(result, best, prefer):
            best = result
    return best


def _better(candidate: Evaluation, best: Evaluation, prefer: Prefer | None) -> bool:
    if candidate.total != best.total:
        return candidate.total > best.total
    return prefer is not None and prefer(candidate, best)


def _score(patterns: Sequence[Pattern], order: Sequence[Pattern], ctx: WinContext) -> Evaluation:
    hits: dict[int | str, list[tuple[TileSet, ...]]] = {}
    for p in patterns:
        if p.fallback:
            continue
        raw = p.predicate(ctx)
        if isinstance(raw, Found):
            if raw.instances:
                hits[p.id] = list(raw.instances)
        elif raw:
            hits[p.id] = [()] * int(raw)
    for p in order:
        instances = hits.get(p.id)
        if not instances:
            continue
        for other in p.excludes:
            hits.pop(other, None)
        for other, n in p.reduces.items():
            if other in hits:
                del hits[other][: n * len(instances)]
        if p.absorbs:
            mine = {s for inst in instances for s in inst}
            for other in p.absorbs:
                if other in hits:
                    hits[other] = [i for i in hits[other] if not (i and set(i) <= mine)]
    by_id = {p.id: p for p in patterns}
    if not any(hits.get(p.id) for p in patterns if not p.bonus):
        for p in patterns:
            if p.fallback and p.applies(ctx):
                hits[p.id] = [()]
    fans: list[FanScore] = []
    total = bonus = 0
    for p in patterns:
        instances = hits.get(p.id)
        if not instances:
            continue
        groups = tuple(s.tiles for inst in instances for s in inst)
        fans.append(FanScore(p.id, p.name, p.chinese, p.points, len(instances), groups))
        total += p.points * len(instances)
        if by_id[p.id].bonus:
            bonus += p.points * len(instances)
    return Evaluation(tuple(fans), total, bonus, ctx)
