"""Gouji options: one named option per rule the digest marks as a choice or a supplement.

Defaults are the digest's (``shared/rules/gouji.md``) except where seed 003 reads otherwise: the
seed wins (§6 minimum counts for 2s and the small joker, §7 burning priority). Every option is
listed with its source in ``docs/rules-gouji.md``. Named presets (``find_variant``) are the one
registry of Gouji rule sets; a missing name fails at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from engine.gouji.cards import Rank

BurnPriority = Literal["gouji-alliance", "target-alliance", "playing-order"]
LeadAfterOut = Literal["next-player", "next-ally"]
MetCards = Literal["out-of-play", "to-leader"]
_BURN_PRIORITIES = ("gouji-alliance", "target-alliance", "playing-order")

#: §6: least number of cards (attached 2s included) that makes a play of this core rank 够级.
NATURAL_GOUJI_MINIMUMS: dict[Rank, int] = {
    Rank.TEN: 5,
    Rank.JACK: 4,
    Rank.QUEEN: 3,
    Rank.KING: 2,
    Rank.ACE: 2,
}


class GoujiOptionError(ValueError):
    """An unknown Gouji option or a value out of range."""


@dataclass(frozen=True, slots=True)
class GoujiOptions:
    """The readings in force at one Gouji table; see docs/rules-gouji.md for each source."""

    #: §6 / seed Art. 9 "1 大王, 小王 and 钱 2": cards of 2s needed for 够级 (digest chose 1).
    two_gouji_minimum: int = 2
    #: §6 / seed Art. 9: small jokers needed for a pure small-joker play to be 够级 (digest: 1).
    small_joker_gouji_minimum: int = 2
    #: §6: a single big joker is 够级.
    big_joker_gouji_minimum: int = 1
    #: §6, §17.4 [TCY][LC]: any play with a joker attached (挂王) is 够级.
    joker_attached_is_gouji: bool = True
    #: §7: other players may burn (烧) a 够级 play that the target (对头) does not answer.
    burning: bool = True
    #: §7, §17.2: who burns first. Seed Art. 9 literally: the alliance of the 够级 player.
    burn_priority: BurnPriority = "gouji-alliance"
    #: §7 [WD]: a player who passed in the trick may not burn later in it.
    no_burn_after_pass: bool = True
    #: §7 [WD]: with 开点 in force, a player may not burn before he has opened.
    burn_needs_open: bool = True
    #: §7 [TCY]: once 头科 and 二科 are out, 够级 gives no priority: play simply goes round.
    plain_order_after_two_out: bool = True
    #: §7 / seed Art. 13: only the 对头 may answer a 通牌 (a play that empties the hand).
    tongpai_only_opposite: bool = True
    #: §5.7 [I]: who leads when the trick winner has gone out.
    lead_after_out: LeadAfterOut = "next-player"
    #: §10 / seed Art. 20: the match ends when an alliance has accumulated this many points.
    match_target: int = 12
    #: §10 / Art. 21(7): a 三家连 (one alliance 头科, 二科, 三科) ends the game at once.
    sweep_ends_game: bool = True
    #: §10 / Art. 21(7): after a 三家连 the cards are re-opened and no tribute is paid.
    sweep_reopens_without_tribute: bool = True
    #: §11 / Art. 24: the optional 开点 rule (点贡 for players who fail to open).
    kaidian: bool = False
    #: §11: the 翻车 tribute of a wrong 明点 / 预点 is doubled (4 / 8 instead of 2 / 4).
    overturn_doubled: bool = False
    #: §12 / Art. 21: tribute after each game (normally points are played without it).
    tribute: bool = False
    #: §12(3), §17.7: cards the 大落 gives the 头科 and the 二落 gives the 二科.
    last_place_tribute: int = 2
    second_last_tribute: int = 1
    #: §12(4), §17.7 [I]: receivers of last-place tribute return as many cards (还贡).
    return_tribute: bool = True
    #: §13 / Art. 23: revolution (革命) may be declared by a hand meeting the condition.
    revolution: bool = True
    #: §13, §17.11: the revolutionary counts as this place (4 = 四科).
    revolutionary_place: int = 4
    #: §14 / Art. 26: 憋三 — everyone's last play must be his 3s; buying 3s (买三).
    bie_san: bool = False
    #: §14 / Art. 26(2): under 憋三 a revolution may still be declared.
    revolution_under_bie_san: bool = True
    #: §14 [96U]: 买四 — under 憋三, 4s are bought like 3s and, like them, not split nor wild.
    buy_fours: bool = False
    #: §14 / Art. 25: 会三 / 会四 — all 3s (4s) are picked out before play (the leader chooses).
    meet_threes: bool = False
    meet_fours: bool = False
    #: §14, §17.9: where met cards go: out of play, or to the 上班 player.
    met_cards: MetCards = "out-of-play"
    #: §3, §17.10 [I]: J, Q, K count 11, 12, 13 in the opening draw (False: 10 each).
    court_cards_count_face_value: bool = True

    def __post_init__(self) -> None:
        for option in fields(self):
            value = getattr(self, option.name)
            if isinstance(option.default, bool) and not isinstance(value, bool):
                raise GoujiOptionError(f"{option.name} must be true or false, got {value!r}")
        for name in ("two_gouji_minimum", "small_joker_gouji_minimum", "big_joker_gouji_minimum"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 8:
                raise GoujiOptionError(f"{name} must be a whole number 1-8, got {value!r}")
        if self.burn_priority not in _BURN_PRIORITIES:
            raise GoujiOptionError(
                f"burn_priority must be one of {_BURN_PRIORITIES}, got {self.burn_priority!r}"
            )
        if self.lead_after_out not in ("next-player", "next-ally"):
            raise GoujiOptionError(
                f"lead_after_out must be 'next-player' or 'next-ally', got {self.lead_after_out!r}"
            )
        if self.met_cards not in ("out-of-play", "to-leader"):
            raise GoujiOptionError(
                f"met_cards must be 'out-of-play' or 'to-leader', got {self.met_cards!r}"
            )
        for name in ("match_target", "last_place_tribute", "second_last_tribute"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 36:
                raise GoujiOptionError(f"{name} must be a whole number 0-36, got {value!r}")
        if self.revolutionary_place not in (3, 4):
            raise GoujiOptionError(
                f"revolutionary_place must be 3 or 4, got {self.revolutionary_place!r}"
            )

    def gouji_minimum(self, core: Rank) -> int | None:
        """Least cards for a 够级 play of this core rank; None: never 够级 on count (3-9)."""
        if core is Rank.TWO:
            return self.two_gouji_minimum
        if core is Rank.SMALL_JOKER:
            return self.small_joker_gouji_minimum
        if core is Rank.BIG_JOKER:
            return self.big_joker_gouji_minimum
        return NATURAL_GOUJI_MINIMUMS.get(core)

    @classmethod
    def from_mapping(cls, options: dict[str, Any]) -> GoujiOptions:
        """Options from keyword arguments or a config file; dashes may replace underscores."""
        known = {f.name for f in fields(cls)}
        cleaned: dict[str, Any] = {}
        for key, value in options.items():
            name = key.replace("-", "_")
            if name not in known:
                raise GoujiOptionError(
                    f"unknown Gouji option {key!r} (known: {', '.join(sorted(known))})"
                )
            cleaned[name] = value
        return cls(**cleaned)


#: Named presets. "qingdao" is the digest's defaults; "bie-san" adds 开点 and 憋三, which
#: Art. 27 says should in principle be used together; "tcy" is the online platform's reading.
VARIANTS: dict[str, GoujiOptions] = {
    "qingdao": GoujiOptions(),
    "bie-san": GoujiOptions(kaidian=True, bie_san=True),
    "tcy": GoujiOptions(two_gouji_minimum=1, small_joker_gouji_minimum=1),
    "tribute": GoujiOptions(tribute=True),
}
ALIASES: dict[str, str] = {"gouji": "qingdao", "default": "qingdao", "biesan": "bie-san"}


class UnknownVariantError(LookupError):
    """No Gouji variant is registered under that name."""


def find_variant(name: str, **overrides: Any) -> GoujiOptions:
    """The preset called ``name`` (or an alias) with ``overrides`` applied.

    >>> find_variant("bie-san").bie_san
    True
    """
    key = ALIASES.get(name.lower(), name.lower())
    if key not in VARIANTS:
        known = ", ".join(sorted(VARIANTS))
        raise UnknownVariantError(f"unknown Gouji variant {name!r} (known: {known})")
    base = VARIANTS[key]
    if not overrides:
        return base
    checked = GoujiOptions.from_mapping(overrides)
    names = {key.replace("-", "_") for key in overrides}
    return replace(base, **{name: getattr(checked, name) for name in names})
