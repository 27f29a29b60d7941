"""Qujing configuration: one option per ambiguity the seed leaves open (digest §8).

The defaults are the readings chosen in ``shared/rules/qujing.md``; every alternative a table might
play is a value here, so that no other engine code has to know which reading is in force.
Options are validated on construction and quote the offending value.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

TailReading = Literal["any-kong", "bloom-only"]
WindsPayment = Literal["self-drawn", "as-declared"]


class QujingOptionError(ValueError):
    """An unknown Qujing option or a value out of range."""


@dataclass(frozen=True, slots=True)
class QujingOptions:
    """The readings in force for one Qujing table (digest §8, numbered as there)."""

    #: §8.1 — "any-kong": every kong takes either face-up tail tile as its replacement and the
    #: next tail tile is revealed; "bloom-only": a revealed tile may only be taken when it
    #: completes the hand, ordinary replacements come from behind the revealed pair.
    tail_reading: TailReading = "any-kong"
    #: Number of tail tiles kept face up.
    revealed_tail_tiles: int = 2
    #: §8.2 — kong payments. Exposed kong: the discarder pays the konger (seed: 2).
    exposed_kong_payment: int = 2
    #: Concealed kong: each other seat pays the konger (not in the seed: 0).
    concealed_kong_payment: int = 0
    #: Added kong (转杠/上杠): each other seat pays the konger (not in the seed: 0).
    added_kong_payment: int = 0
    #: §8.3 — "任意两门牌" read literally: a plain win needs tiles of at least two colours.
    plain_win_needs_two_colours: bool = False
    #: §8.4 — kong discard / robbing the kong make a plain hand "big" enough to win on a discard.
    kong_fans_allow_discard_win: bool = True
    #: §8.5 — dragon seven pairs: total fans (replaces small seven pairs, does not add to it).
    dragon_seven_pairs_fans: int = 2
    #: Text (B): seven pairs must be seven different pairs, which forbids dragon seven pairs.
    seven_pairs_all_different: bool = False
    #: §8.6 — ten winds / seven winds count all seven honours (False drops 发 as the seed's
    #: shorter list does).
    winds_include_green_dragon: bool = True
    #: §8.6 — who pays the winds hands: "self-drawn" (each opponent) or "as-declared" (follow the
    #: win's self_drawn flag).
    winds_payment: WindsPayment = "self-drawn"
    #: §8.7 — one colour counts honours as a colour (A); False restricts it to the three suits (B).
    honours_are_a_colour: bool = True
    #: §8.10 — furiten rules and the last-four-tiles rule.
    pung_furiten: bool = True
    win_furiten: bool = True
    must_win_tiles_left: int = 4
    #: §8.9 — washout: the same dealer deals again (False passes the deal).
    washout_dealer_repeats: bool = True

    def __post_init__(self) -> None:
        if self.tail_reading not in ("any-kong", "bloom-only"):
            raise QujingOptionError(
                f"tail_reading must be 'any-kong' or 'bloom-only', got {self.tail_reading!r}"
            )
        if self.winds_payment not in ("self-drawn", "as-declared"):
            raise QujingOptionError(
                f"winds_payment must be 'self-drawn' or 'as-declared', got {self.winds_payment!r}"
            )
        for name in ("exposed_kong_payment", "concealed_kong_payment", "added_kong_payment"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise QujingOptionError(f"{name} must be a whole number >= 0, got {value!r}")
        if not 1 <= self.revealed_tail_tiles <= 4:
            raise QujingOptionError(
                f"revealed_tail_tiles must be 1-4, got {self.revealed_tail_tiles!r}"
            )
        if not 1 <= self.dragon_seven_pairs_fans <= 4:
            raise QujingOptionError(
                f"dragon_seven_pairs_fans must be 1-4, got {self.dragon_seven_pairs_fans!r}"
            )
        if not 0 <= self.must_win_tiles_left <= 14:
            raise QujingOptionError(
                f"must_win_tiles_left must be 0-14, got {self.must_win_tiles_left!r}"
            )

    @classmethod
    def from_mapping(cls, options: dict[str, Any]) -> QujingOptions:
        """Options from keyword arguments or a config file; dashes may replace underscores."""
        known = {f.name for f in fields(cls)}
        cleaned: dict[str, Any] = {}
        for key, value in options.items():
            name = key.replace("-", "_")
            if name not in known:
                raise QujingOptionError(
                    f"unknown Qujing option {key!r} (known: {', '.join(sorted(known))})"
                )
            cleaned[name] = value
        return cls(**cleaned)
