from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.notation import (
    NotationError,
    format_botzone_tile,
    format_hand,
    format_tiles,
    parse_botzone_tile,
    parse_hand,
    parse_tile,
    parse_tiles,
)
from engine.tiles import ALL_TILES, KINDS, Meld, MeldKind, RelativeSeat, Suit, Tile, excess_copies


def test_every_tile_round_trips_and_indexes_are_dense() -> None:
    assert len(ALL_TILES) == 42 and len(KINDS) == 34
    for index, tile in enumerate(ALL_TILES):
        assert tile.index == index
        assert parse_tile(str(tile)) == tile
        assert parse_botzone_tile(format_botzone_tile(tile)) == tile


@pytest.mark.parametrize(
    ("code", "text"),
    [
        ("W1", "1m"),
        ("T9", "9s"),
        ("B5", "5p"),
        ("F1", "E"),
        ("F4", "N"),
        ("J1", "C"),
        ("J3", "P"),
        ("H1", "1f"),
        ("H8", "8f"),
    ],
)
def test_botzone_codes(code: str, text: str) -> None:
    assert str(parse_botzone_tile(code)) == text
    assert format_botzone_tile(parse_tile(text)) == code


def test_compact_runs_and_honours() -> None:
    assert [str(t) for t in parse_tiles("123m EESS 9p")] == [
        "1m",
        "2m",
        "3m",
        "E",
        "E",
        "S",
        "S",
        "9p",
    ]
    assert format_tiles(parse_tiles("1m2m3m4p")) == "123m4p"


def test_hand_with_melds_round_trips() -> None:
    hand = parse_hand("123m456pEE[555s<2]{CCCC}[7777p<1][234s<3]")
    kinds = [m.kind for m in hand.melds]
    assert kinds == [MeldKind.PUNG, MeldKind.CONCEALED_KONG, MeldKind.KONG, MeldKind.CHOW]
    assert hand.melds[0].source is RelativeSeat.OPPOSITE
    assert format_hand(parse_hand(format_hand(hand))) == format_hand(hand)
    assert len(hand.all_tiles()) == 8 + 3 + 4 + 4 + 3


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("5x", "'5x'"),
        ("[12m]", "[12m]"),
        ("123m[", "'123m['"),
        ("0m", "'0m'"),
        ("9f", "'9f'"),
        ("{555p<2}", "{555p<2}"),
        ("[124m]", "[124m]"),
        ("5", "'5'"),
        ("[EEE<4]", "EEE<4"),
        ("[123f]", "[123f]"),
        ("", None),
    ],
)
def test_malformed_input_names_the_text(text: str, quoted: str | None) -> None:
    if quoted is None:
        assert parse_hand(text).concealed == ()
        return
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    assert quoted in str(info.value)


def test_meld_shape_checked() -> None:
    five = Tile(Suit.DOTS, 5)
    with pytest.raises(ValueError, match="identical"):
        Meld(MeldKind.PUNG, (five, five, Tile(Suit.DOTS, 6)))


def test_excess_copies() -> None:
    assert excess_copies(parse_tiles("55555m1f1f2f")) == {parse_tile("5m"): 5, parse_tile("1f"): 2}


@given(st.text(alphabet="0123456789mspfESWNCFP[]{}<> x", max_size=40))
def test_parser_never_crashes(text: str) -> None:
    try:
        hand = parse_hand(text)
    except NotationError:
        return
    assert parse_hand(format_hand(hand)).all_tiles() == hand.all_tiles()


@given(st.lists(st.sampled_from(ALL_TILES), max_size=20))
def test_format_parse_round_trip(tiles: list[Tile]) -> None:
    assert parse_tiles(format_tiles(tiles)) == tuple(tiles)
