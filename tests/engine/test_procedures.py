"""Procedure registry: built-ins, aliases, plug-ins, clear errors, per-procedure facts."""

from __future__ import annotations

import dataclasses

import pytest

from engine.procedures import (
    LOG,
    NATIONAL,
    WSOM,
    BreakMethod,
    DealerRotation,
    Procedure,
    UnknownProcedureError,
    find_procedure,
    procedure_names,
    register_procedure,
)
from engine.tiles import Wind


def test_builtins_and_aliases() -> None:
    assert {"wsom", "national", "log"} <= set(procedure_names())
    assert find_procedure("WSOM") is WSOM
    assert find_procedure(" gb ") is NATIONAL
    assert find_procedure("camera") is LOG


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownProcedureError, match=r"'tenhou'.*known: .*national.*wsom"):
        find_procedure("tenhou")
    with pytest.raises(UnknownProcedureError, match="'no such'"):
        find_procedure("no such")


def test_wsom_and_national_facts_from_the_digest() -> None:
    assert (WSOM.tile_count, WSOM.stacks_per_side, WSOM.reserved_tiles) == (136, 17, 14)
    assert WSOM.live_tiles == 53 + 69 and WSOM.rolls_needed == 2 and not WSOM.flowers
    assert (NATIONAL.tile_count, NATIONAL.stacks_per_side, NATIONAL.reserved_tiles) == (144, 18, 0)
    assert NATIONAL.break_method is BreakMethod.ONE_ROLL and NATIONAL.flowers
    assert not LOG.has_wall_model and LOG.rolls_needed == 0


def test_prevailing_wind_and_dealer_rotation() -> None:
    assert WSOM.prevailing_wind(5) is None
    assert [NATIONAL.prevailing_wind(i) for i in (0, 3, 4, 11, 15, 16)] == [
        Wind.EAST,
        Wind.EAST,
        Wind.SOUTH,
        Wind.WEST,
        Wind.NORTH,
        Wind.EAST,
    ]
    assert [WSOM.next_dealer(d, w) for d, w in ((0, 0), (3, None), (1, 2))] == [1, 0, 2]
    winner_deals = dataclasses.replace(WSOM, dealer_rotation=DealerRotation.WINNER_DEALS)
    assert winner_deals.next_dealer(1, 3) == 3 and winner_deals.next_dealer(1, None) == 1


def test_register_is_extensible_and_refuses_duplicates() -> None:
    custom = register_procedure(Procedure(name="test-custom", aliases=("tc-alias",)))
    assert find_procedure("TC-ALIAS") is custom
    with pytest.raises(ValueError, match="registered twice"):
        register_procedure(Procedure(name="test-custom"))


def test_inconsistent_procedures_are_refused() -> None:
    with pytest.raises(ValueError, match="do not fill"):
        Procedure(name="bad", tile_count=136, stacks_per_side=18)
    with pytest.raises(ValueError, match="reserved_tiles"):
        Procedure(name="bad", reserved_tiles=100)
