"""Optional table hooks a rule set may offer, with defaults that change nothing.

:class:`engine.rulesets.RuleSet` covers scoring and a few switches (chow, several winners). Some
rule sets also restrict play at the table: furiten after passing a tile, a win that must be
taken among the last tiles, a choice among face-up tail tiles, payments for kongs, their own
rule for the next dealer. A rule set offers these by implementing :class:`TableRules`
(structurally: no registration, no base class needed); :func:`table_rules_of` hands the table
either the rule set itself or :data:`NO_TABLE_RULES`, so shared code never asks which rule set
it is.

Per-hand memory lives in a :class:`HandRules` the rule set makes at every hand start; the table
tells it what happened (``on_draw``, ``on_discard``, ``on_pass``) and asks it what is allowed
(``pung_problem``, ``win_problem``, ``must_win``, ``replacement_problem``). The base class
allows everything, so a rule set overrides only what it restricts.
"""

from __future__ import annotations

from typing import ClassVar, Protocol, runtime_checkable

from engine.tiles import Tile

#: Score changes for seats 0-3.
Deltas = tuple[int, int, int, int]

#: The kinds of kong :meth:`TableRules.kong_changes` is asked about.
KONG_KINDS: tuple[str, ...] = ("exposed", "concealed", "added")


class HandRules:
    """One hand's table rules. The defaults allow everything and remember nothing.

    ``watches_passes``: whether the table should work out, for every discard (and added-kong
    tile), which seats could have punged or won on it and let it go (``on_pass``, ``must_win``);
    it costs a scoring per seat and discard, so rules without pass rules leave it False.
    """

    watches_passes: ClassVar[bool] = False

    # --- what happened -------------------------------------------------------------------
    def on_draw(self, seat: int) -> None:
        """``seat`` drew a tile (normal or replacement)."""

    def on_discard(self, seat: int, tile: Tile) -> None:
        """``seat`` discarded ``tile``."""

    def on_pass(self, seat: int, tile: Tile, *, could_pung: bool, could_win: bool) -> None:
        """``seat`` let ``tile`` go although it could pung it and/or win on it."""

    # --- what is allowed -----------------------------------------------------------------
    def pung_problem(self, seat: int, tile: Tile) -> str | None:
        """Why ``seat`` may not pung ``tile`` now (None: it may)."""
        return None

    def win_problem(self, seat: int, *, on_discard: bool) -> str | None:
        """Why ``seat`` may not win now (None: it may); ``on_discard`` False for a self-draw."""
        return None

    def in_last_tiles(self, tiles_left: int) -> bool:
        """Whether a draw that leaves ``tiles_left`` live tiles is among the last tiles where
        :meth:`must_win` may apply (the table only checks self-drawn wins there)."""
        return False

    def must_win(self, seat: int, *, tiles_left: int, legal_win: bool, on_discard: bool) -> bool:
        """Whether letting a legal win go (``legal_win``) breaks the rules."""
        return False

    def replacement_problem(self, pick: int, live: int, *, completes_hand: bool) -> str | None:
        """Why a kong replacement taken at ``pick`` (0..k-1 the face-up tail tiles, k the
        face-down one in front of them) with ``live`` tiles left before it breaks the rules;
        ``completes_hand`` says whether the konger won on it."""
        return None


@runtime_checkable
class TableRules(Protocol):
    """What a rule set implements to restrict play at the table (all methods required)."""

    def hand_rules(self) -> HandRules:
        """Fresh per-hand memory, made at every hand start."""
        ...

    def kong_changes(self, kind: str, *, konger: int, discarder: int | None = None) -> Deltas:
        """Score changes when a kong of ``kind`` (:data:`KONG_KINDS`) is made; ``discarder``
        is the seat whose discard an exposed kong claimed."""
        ...

    def next_dealer(self, dealer: int, winners: list[int], *, discarder: int | None) -> int | None:
        """Who deals next; ``winners`` in order, ``discarder`` the seat they all won on when
        there are several. None: the procedure's rotation decides."""
        ...


class NoTableRules:
    """The table rules of a rule set that has none: nothing restricted, nothing paid."""

    def hand_rules(self) -> HandRules:
        return HandRules()

    def kong_changes(self, kind: str, *, konger: int, discarder: int | None = None) -> Deltas:
        return (0, 0, 0, 0)

    def next_dealer(self, dealer: int, winners: list[int], *, discarder: int | None) -> int | None:
        return None


NO_TABLE_RULES = NoTableRules()


def table_rules_of(rules: object) -> TableRules:
    """The table hooks ``rules`` offers, else :data:`NO_TABLE_RULES`."""
    return rules if isinstance(rules, TableRules) else NO_TABLE_RULES
