"""The table's optional rule-set hooks: rule sets without them see no change (MCR, Zung Jung),
and a plug-in rule set is consulted only through the documented protocol."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.actions import ConcealedKong, Deal, Discard, Draw, HandStart, Pung, Win
from engine.events import to_dict
from engine.notation import parse_tile, parse_tiles
from engine.rulesets import find_rules
from engine.table import Table
from engine.table.rules_api import NO_TABLE_RULES, Deltas, HandRules, TableRules, table_rules_of
from engine.tiles import Tile

T = parse_tile
HANDS = ["123m456m789m19s5p7pE", "123456789s234pS", "111p222p333s55sEE", "4567m678pCCCFFW"]
MCR = find_rules("mcr")


def test_mcr_and_zung_jung_get_the_defaults() -> None:
    for name in ("mcr", "zungjung"):
        assert table_rules_of(find_rules(name)) is NO_TABLE_RULES
    assert table_rules_of(None) is NO_TABLE_RULES
    memory = NO_TABLE_RULES.hand_rules()
    assert not memory.watches_passes and memory.pung_problem(0, T("E")) is None
    assert memory.win_problem(0, on_discard=True) is None
    assert not memory.must_win(0, tiles_left=0, legal_win=True, on_discard=False)
    assert NO_TABLE_RULES.kong_changes("exposed", konger=1, discarder=0) == (0, 0, 0, 0)
    assert NO_TABLE_RULES.next_dealer(0, [1, 2], discarder=0) is None


class _Recording(HandRules):
    watches_passes = True

    def __init__(self) -> None:
        self.passes: list[tuple[int, Tile, bool, bool]] = []

    def on_pass(self, seat: int, tile: Tile, *, could_pung: bool, could_win: bool) -> None:
        self.passes.append((seat, tile, could_pung, could_win))

    def pung_problem(self, seat: int, tile: Tile) -> str | None:
        return f"plug-in says no pung of {tile}" if seat == 2 else None


@dataclass
class _PlugIn:
    """MCR scoring plus table hooks, found through the protocol (no name anywhere)."""

    name: str = "plug-in"
    aliases: tuple[str, ...] = ()
    allows_chow: bool = True
    max_winners_per_discard: int = 1

    def score(self, request: Any) -> Any:
        return MCR.score(request)

    def settle(self, result: Any, *, winner: int, discarder: int | None) -> Any:
        return MCR.settle(result, winner=winner, discarder=discarder)

    def hand_rules(self) -> HandRules:
        return _Recording()

    def kong_changes(self, kind: str, *, konger: int, discarder: int | None = None) -> Deltas:
        return (-1, -1, -1, 3) if kind == "concealed" and konger == 3 else (0, 0, 0, 0)

    def next_dealer(self, dealer: int, winners: list[int], *, discarder: int | None) -> int | None:
        return 3


def _table(rules: Any) -> Table:
    table = Table("log", rules=rules)
    table.apply(HandStart(dealer=0))
    for seat, tiles in enumerate(HANDS):
        table.apply(Deal(seat=seat, tiles=parse_tiles(tiles)))
    return table


def test_a_plug_in_rule_set_is_consulted_through_the_hooks() -> None:
    rules = _PlugIn()
    assert isinstance(rules, TableRules)
    table = _table(rules)
    table.apply(Discard(seat=0, tile=T("E")))
    table.apply(Draw(seat=1, tile=T("E")))  # the E is gone: seat 2 passed it with a pair
    hand = table.hand
    assert hand is not None and isinstance(hand.rules_memory, _Recording)
    assert hand.rules_memory.passes == [
        (1, T("E"), False, False),
        (2, T("E"), True, True),  # MCR: a winning hand
        (3, T("E"), False, False),
    ]
    table.apply(Discard(seat=1, tile=T("E")))
    events = table.apply(Pung(seat=2))
    assert [to_dict(e).get("kind") for e in events if e.type == "violation"] == ["pung_furiten"]
    table.apply(Discard(seat=2, tile=T("W")))
    table.apply(Draw(seat=3, tile=T("C")))
    events = table.apply(ConcealedKong(seat=3, tile=T("C")))
    kong = [to_dict(e) for e in events if e.type == "kong_declared"]
    assert kong[0]["deltas"] == [-1, -1, -1, 3]
    table.apply(HandStart())  # abandons the hand: the kong payment counts, the plug-in deals
    assert table.scores == [-1, -1, -1, 3] and table.next_dealer == 3
    assert table.hand is not None and table.hand.dealer == 3


def test_mcr_tables_emit_no_kong_payments_and_keep_their_dealer_rule() -> None:
    table = Table("wsom", rules="mcr")
    table.apply(HandStart(dealer=0))
    for seat, tiles in enumerate(HANDS):
        table.apply(Deal(seat=seat, tiles=parse_tiles(tiles)))
    table.apply(Discard(seat=0, tile=T("E")))
    events = table.apply(Pung(seat=2))
    assert [e.type for e in events] == ["meld_claimed"]
    hand = table.hand
    assert hand is not None and hand.offer is None  # nothing is judged for MCR
    table.apply(Win(seat=1))  # a false win changes nothing about the dealer
    assert table.next_dealer == 0
