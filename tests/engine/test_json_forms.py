"""The one JSON form of tiles, runs, melds, hands and winds (engine.json_forms): round trips,
the older table-log forms still read, malformed values refused with the field named."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import actions as act
from engine.events import from_dict, to_dict
from engine.json_forms import (
    MAX_RUN,
    JsonFormError,
    hand_from_json,
    hand_to_json,
    meld_from_json,
    meld_to_json,
    tile_from_json,
    tile_to_json,
    tiles_from_json,
    tiles_to_json,
    wind_from_json,
    wind_to_json,
)
from engine.notation import Hand, format_tiles, parse_hand, parse_tiles
from engine.table.events import HandStarted, MeldClaimed
from engine.tiles import ALL_TILES, KINDS, Meld, MeldKind, RelativeSeat, Tile, Wind

TILES = st.sampled_from(ALL_TILES)
RUNS = st.lists(TILES, max_size=20).map(tuple)
WINDS = st.sampled_from(list(Wind))


@st.composite
def melds(draw: st.DrawFn) -> Meld:
    kind = draw(st.sampled_from(list(MeldKind)))
    if kind is MeldKind.CHOW:
        start = draw(st.sampled_from([t for t in KINDS if t.is_numbered and t.rank <= 7]))
        tiles = (start, Tile(start.suit, start.rank + 1), Tile(start.suit, start.rank + 2))
    else:
        tiles = (draw(st.sampled_from(KINDS)),) * kind.size
    source = (
        None if kind is MeldKind.CONCEALED_KONG else draw(st.sampled_from([None, *RelativeSeat]))
    )
    return Meld(kind, tiles, source)


@given(tile=TILES, run=RUNS, meld=melds(), wind=WINDS)
def test_write_then_read_is_the_identity(tile: Tile, run: tuple[Tile, ...], meld: Meld, wind: Wind):
    assert tile_from_json(json.loads(json.dumps(tile_to_json(tile)))) == tile
    assert tiles_from_json(json.loads(json.dumps(tiles_to_json(run)))) == run
    assert meld_from_json(json.loads(json.dumps(meld_to_json(meld)))) == meld
    assert wind_from_json(json.loads(json.dumps(wind_to_json(wind)))) == wind


@given(concealed=st.lists(st.sampled_from(KINDS), max_size=14).map(tuple),
       shown=st.lists(melds(), max_size=4).map(tuple))  # fmt: skip
def test_a_hand_round_trips(concealed: tuple[Tile, ...], shown: tuple[Meld, ...]):
    hand = Hand(concealed, shown)
    assert hand_from_json(hand_to_json(hand)) == hand


@given(run=RUNS, wind=WINDS)
def test_the_older_forms_still_read(run: tuple[Tile, ...], wind: Wind):
    assert tiles_from_json(format_tiles(run)) == run  # "123m55pE", as table logs v1 wrote
    assert wind_from_json("ESWN"[wind]) == wind  # a letter, as table logs v1 wrote


def test_the_written_form_is_the_events_form():
    assert tiles_to_json(parse_tiles("123mE")) == ["1m", "2m", "3m", "E"]
    assert wind_to_json(Wind.SOUTH) == 1 and isinstance(wind_to_json(Wind.SOUTH), int)
    assert meld_to_json(parse_hand("[555p<2]").melds[0]) == "[555p<2]"
    started = HandStarted(event_id="e", table="t", epoch=1, seq=1, timestamp=0.0, hand_number=1,
                          procedure="log", dealer=0, prevalent_wind=Wind.WEST)  # fmt: skip
    assert to_dict(started)["prevalent_wind"] == 2
    start = act.action_to_dict(act.HandStart(prevalent_wind=Wind.WEST, wall=parse_tiles("19m")))
    assert start == {"action": "hand_start", "prevalent_wind": 2, "wall": ["1m", "9m"]}
    chow = act.action_to_dict(act.Chow(seat=2, tiles=parse_tiles("345s")))
    assert chow == {"action": "chow", "seat": 2, "tiles": ["3s", "4s", "5s"]}


def test_an_action_reads_the_same_in_either_form():
    old = {"action": "hand_start", "prevalent_wind": "S", "wall": "123m456p"}
    new = {
        "action": "hand_start",
        "prevalent_wind": 1,
        "wall": ["1m", "2m", "3m", "4p", "5p", "6p"],
    }
    assert act.action_from_dict(old) == act.action_from_dict(new)
    assert act.action_to_dict(act.action_from_dict(old)) == new
    old_deal = {"action": "deal", "seat": 0, "tiles": "3m99pNW"}
    assert act.action_from_dict(old_deal).tiles == parse_tiles("3m99pNW")  # type: ignore[attr-defined]


def test_an_event_reads_back_its_meld_and_wind():
    claimed = MeldClaimed(event_id="e", table="t", epoch=1, seq=2, timestamp=1.0, seat=1,
                          meld=parse_hand("[789m<3]").melds[0], from_seat=0)  # fmt: skip
    assert from_dict(json.loads(json.dumps(to_dict(claimed)))) == claimed
    data = {"schema": "tilesight.event/1", "type": "hand_started", "event_id": "e", "table": "t",
            "epoch": 1, "seq": 1, "timestamp": 0.0, "hand_number": 1, "procedure": "log",
            "dealer": 0, "prevalent_wind": 3}  # fmt: skip
    assert from_dict(data).prevalent_wind is Wind.NORTH  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("read", "value", "message"),
    [
        (tile_from_json, "10m", "chow.tile: not a tile: '10m'"),
        (tile_from_json, 5, "chow.tile: expected a tile such as '5m', got 5"),
        (tiles_from_json, 5, "chow.tile: expected a list of tiles such as ['1m', 'E'], got 5"),
        (tiles_from_json, ["1m", "x"], "chow.tile[1]: not a tile: 'x'"),
        (tiles_from_json, ["1m", None], "chow.tile[1]: expected a tile such as '5m', got None"),
        (tiles_from_json, "12", "chow.tile: digits without a suit letter"),
        (
            tiles_from_json,
            ["1m"] * (MAX_RUN + 1),
            f"chow.tile: {MAX_RUN + 1} tiles, over {MAX_RUN}",
        ),
        (meld_from_json, "555p", "chow.tile: expected one meld such as '[555p<2]', got '555p'"),
        (meld_from_json, "[555p][666p]", "expected one meld"),
        (meld_from_json, "[12m]", "chow.tile: a meld needs 3 or 4 tiles"),
        (hand_from_json, ["1m"], "chow.tile: expected a hand such as"),
        (wind_from_json, 4, "chow.tile: expected a wind 0-3 (E S W N), got 4"),
        (wind_from_json, True, "chow.tile: expected a wind 0-3 (E S W N), got True"),
        (wind_from_json, "Q", "chow.tile: not a wind: 'Q'"),
        (wind_from_json, 1.0, "expected a wind 0-3"),
    ],
)
def test_a_malformed_value_names_its_field(read, value, message: str):
    with pytest.raises(JsonFormError) as info:
        read(value, "chow.tile")
    assert message in str(info.value)


def test_a_malformed_action_field_is_an_action_format_error():
    with pytest.raises(act.ActionFormatError, match=r"chow\.tiles\[2\]: not a tile: '6x'"):
        act.action_from_dict({"action": "chow", "seat": 1, "tiles": ["4m", "5m", "6x"]})
    with pytest.raises(act.ActionFormatError, match=r"hand_start\.prevalent_wind: expected a wind"):
        act.action_from_dict({"action": "hand_start", "prevalent_wind": 7})
