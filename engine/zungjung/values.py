"""Zung Jung pattern table and value profiles, kept as data so a profile swaps without code changes.

A pattern id ``c.s.p`` is category ``c``, series ``c.s``, variant ``p``; ids with two parts are a
series of their own. At most one pattern per series counts (3.1 Value Honor is the one repeatable
pattern). The values below are Zung Jung v3.3; :data:`PROFILES` holds the older values seen on some
WSOM pages (``../shared/rules/zung-jung.md`` §5.1), selected with ``profile="mahjongtime-legacy"``.

>>> PATTERNS["4.2.3"].name, PROFILES["v3.3"]["4.2.3"], PROFILES["mahjongtime-legacy"]["4.2.3"]
('Four Concealed Triplets', 125, 115)
>>> series_of("3.2.1"), series_of("7.1")
('3.2', '7.1')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class PatternInfo:
    """The fixed facts of one pattern; its value comes from the selected profile."""

    id: str
    name: str
    chinese: str


def series_of(pattern_id: str) -> str:
    """The exclusion group of a pattern: its first two id parts."""
    return ".".join(pattern_id.split(".")[:2])


_TABLE: tuple[tuple[str, str, str, int], ...] = (
    ("1.1", "All Sequences", "平和", 5),
    ("1.2", "Concealed Hand", "門前清", 5),
    ("1.3", "No Terminals", "斷么九", 5),
    ("2.1.1", "Mixed One-Suit", "混一色", 40),
    ("2.1.2", "Pure One-Suit", "清一色", 80),
    ("2.2", "Nine Gates", "九蓮寶燈", 480),
    ("3.1", "Value Honor", "番牌", 10),
    ("3.2.1", "Small Three Dragons", "小三元", 40),
    ("3.2.2", "Big Three Dragons", "大三元", 130),
    ("3.3.1", "Small Three Winds", "小三風", 30),
    ("3.3.2", "Big Three Winds", "大三風", 120),
    ("3.3.3", "Small Four Winds", "小四喜", 320),
    ("3.3.4", "Big Four Winds", "大四喜", 400),
    ("3.4", "All Honors", "字一色", 320),
    ("4.1", "All Triplets", "對對和", 30),
    ("4.2.1", "Two Concealed Triplets", "二暗刻", 5),
    ("4.2.2", "Three Concealed Triplets", "三暗刻", 30),
    ("4.2.3", "Four Concealed Triplets", "四暗刻", 125),
    ("4.3.1", "One Kong", "一槓", 5),
    ("4.3.2", "Two Kong", "二槓", 20),
    ("4.3.3", "Three Kong", "三槓", 120),
    ("4.3.4", "Four Kong", "四槓", 480),
    ("5.1.1", "Two Identical Sequences", "一般高", 10),
    ("5.1.2", "Two Identical Sequences Twice", "兩般高", 60),
    ("5.1.3", "Three Identical Sequences", "一色三同順", 120),
    ("5.1.4", "Four Identical Sequences", "一色四同順", 480),
    ("6.1", "Three Similar Sequences", "三色同順", 35),
    ("6.2.1", "Small Three Similar Triplets", "三色小同刻", 30),
    ("6.2.2", "Three Similar Triplets", "三色同刻", 120),
    ("7.1", "Nine-Tile Straight", "一氣通貫", 40),
    ("7.2.1", "Three Consecutive Triplets", "三連刻", 100),
    ("7.2.2", "Four Consecutive Triplets", "四連刻", 200),
    ("8.1.1", "Mixed Lesser Terminals", "混全帶么", 40),
    ("8.1.2", "Pure Lesser Terminals", "純全帶么", 50),
    ("8.1.3", "Mixed Greater Terminals", "混么九", 100),
    ("8.1.4", "Pure Greater Terminals", "清么九", 400),
    ("9.1.1", "Final Draw", "海底撈月", 10),
    ("9.1.2", "Final Discard", "河底撈魚", 10),
    ("9.2", "Win on Kong", "嶺上開花", 10),
    ("9.3", "Robbing a Kong", "搶槓", 10),
    ("9.4.1", "Blessing of Heaven", "天和", 155),
    ("9.4.2", "Blessing of Earth", "地和", 155),
    ("10.1", "Thirteen Terminals", "十三么九", 160),
    ("10.2", "Seven Pairs", "七對子", 30),
)

#: The 44 patterns of v3.3, in table order.
PATTERNS: Mapping[str, PatternInfo] = MappingProxyType(
    {pid: PatternInfo(pid, name, chinese) for pid, name, chinese, _ in _TABLE}
)

#: The pseudo-pattern reported for a patternless regular hand.
CHICKEN = PatternInfo("chicken", "Chicken Hand", "雞和")

#: Patterns counted once per qualifying set instead of once per hand.
REPEATABLE: frozenset[str] = frozenset({"3.1"})

_V33 = {pid: value for pid, _, _, value in _TABLE}
_LEGACY = _V33 | {
    "2.1.2": 100,
    "3.2.1": 30,
    "3.3.1": 25,
    "4.1": 40,
    "4.2.2": 25,
    "4.2.3": 115,
    "6.2.1": 25,
}

#: Value profiles by name. "v3.3" is the recommended table; "mahjongtime-legacy" the older values.
PROFILES: Mapping[str, Mapping[str, int]] = MappingProxyType(
    {"v3.3": MappingProxyType(_V33), "mahjongtime-legacy": MappingProxyType(_LEGACY)}
)


@dataclass(frozen=True, slots=True)
class ValueTable:
    """The numbers a rule-set instance scores with: pattern values, limits and the win minimum.

    ``minimum`` is the least total that may win (5 in the WSOM 2007 profile, so a chicken hand is
    a false win; 0 for standard Zung Jung, where a chicken hand scores ``chicken`` points).
    """

    values: Mapping[str, int]
    limit: int = 320
    maximum: int = 480
    chicken: int = 1
    minimum: int = 5

    def value(self, pattern_id: str) -> int:
        return self.values[pattern_id]


def build_value_table(
    profile: str = "v3.3",
    overrides: Mapping[str, int] | None = None,
    *,
    limit: int = 320,
    maximum: int = 480,
    chicken: int = 1,
    minimum: int = 5,
) -> ValueTable:
    """A value table from a named profile plus per-pattern overrides; bad names raise ValueError."""
    base = PROFILES.get(profile)
    if base is None:
        known = ", ".join(sorted(PROFILES))
        raise ValueError(f"unknown Zung Jung value profile {profile!r} (known: {known})")
    values = dict(base)
    for pid, value in (overrides or {}).items():
        if pid not in PATTERNS:
            raise ValueError(f"unknown Zung Jung pattern id {pid!r} in value overrides")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"value for pattern {pid!r} must be a non-negative int: {value!r}")
        values[pid] = value
    if not 0 < limit <= maximum:
        raise ValueError(f"limit {limit!r} must be positive and not above maximum {maximum!r}")
    return ValueTable(MappingProxyType(values), limit, maximum, chicken, minimum)
