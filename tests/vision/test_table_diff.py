"""Observation diffs: a river corrected in the same frame as a new discard still reports it."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from engine.tiles import Tile
from vision.observed import to_json
from vision.stabiliser import SeatObservation, TableObservation
from vision.table_diff import diff as typed_diff


def diff(
    before: TableObservation | None,
    after: TableObservation,
    frame: int,
    reported: Sequence[tuple[Tile, ...]] | None = None,
) -> list[dict[str, object]]:
    """The diff's observations in their JSON form."""
    return [to_json(e) for e in typed_diff(before, after, frame, reported)]


def _table(river: str, seat: int = 1) -> TableObservation:
    tiles = tuple(Tile.parse(t) for t in river.split())
    seats = [SeatObservation((), (), ()) for _ in range(4)]
    seats[seat] = SeatObservation(tiles, (), ())
    return TableObservation(tuple(seats))


def _events(before: str, after: str) -> list[tuple[object, ...]]:
    out = []
    for e in diff(_table(before), _table(after), frame=9):
        out.append((e["type"], e.get("tile") or e.get("river"), e.get("index")))
    return out


def test_an_appended_discard_is_a_discard() -> None:
    assert _events("7s 9s", "7s 9s 4s") == [("discard", "4s", 2)]


def test_a_stray_tile_dropped_as_a_new_discard_lands_reports_the_discard() -> None:
    assert _events("7s 9s 9s 4s 4s", "7s 9s 4s 4s N") == [
        ("river_corrected", ["7s", "9s", "4s", "4s", "N"], None),
        ("discard", "N", 4),
    ]


def test_a_misread_inside_the_river_corrected_with_two_new_discards() -> None:
    assert _events("1m 2m 3m", "1m 5m 3m E S") == [
        ("river_corrected", ["1m", "5m", "3m", "E", "S"], None),
        ("discard", "E", 3),
        ("discard", "S", 4),
    ]


def test_a_corrected_last_tile_is_not_a_new_discard() -> None:
    assert _events("1m 2m 3m", "1m 2m 4m") == [("river_corrected", ["1m", "2m", "4m"], None)]
    assert _events("1m 2m 3m", "1m 3m 2m") == [("river_corrected", ["1m", "3m", "2m"], None)]


def test_a_stray_tile_that_goes_away_alone_adds_nothing() -> None:
    assert _events("7s 9s 9s 4s", "7s 9s 4s") == [("river_corrected", ["7s", "9s", "4s"], None)]
    assert _events("7s 9s 4s", "7s 9s 9s 4s") == [
        ("river_corrected", ["7s", "9s", "9s", "4s"], None)
    ]


def test_a_claimed_last_discard_is_taken() -> None:
    assert _events("7s 9s 4s", "7s 9s") == [("river_taken", "4s", None)]


_rivers = st.lists(st.sampled_from(["1m", "2m", "9s", "4s", "N", "C"]), max_size=14)


@given(_rivers, _rivers)
def test_appended_tiles_are_exactly_the_new_discards(old: list[str], tail: list[str]) -> None:
    events = diff(_table(" ".join(old)), _table(" ".join(old + tail)), frame=1)
    assert [(e["tile"], e["index"]) for e in events] == [
        (tile, len(old) + i) for i, tile in enumerate(tail)
    ]


@given(_rivers, _rivers)
def test_any_change_reports_discards_only_from_the_new_rivers_end(
    old: list[str], new: list[str]
) -> None:
    events = diff(_table(" ".join(old)), _table(" ".join(new)), frame=1)
    discards = [e for e in events if e["type"] == "discard"]
    indices = [int(str(e["index"])) for e in discards]
    assert indices == list(range(len(new) - len(discards), len(new)))  # a suffix, in order
    assert [e["tile"] for e in discards] == new[len(new) - len(discards) :]
    if old and new[: len(old)] != old:  # a correction reports the whole river first
        assert events[0]["type"] in ("river_corrected", "river_taken")


def test_a_second_identical_chow_is_a_new_meld() -> None:
    """Two chows of 1s2s3s, both claimed from the upper seat on a 1s: the second one laid is a
    meld too (its twin already shown does not hide it)."""
    from engine.tiles import RelativeSeat
    from vision.hand_row import MeldObservation

    chow = MeldObservation(tuple(Tile.parse(t) for t in ["1s", "2s", "3s"]), 0, RelativeSeat.UPPER)
    empty = SeatObservation((), (), ())

    def table(*melds: MeldObservation) -> TableObservation:
        return TableObservation((SeatObservation((), melds, ()), empty, empty, empty))

    (event,) = diff(table(chow), table(chow, chow), frame=3)
    assert (event["type"], event["kind"], event["claimed"]) == ("meld", "chow", "1s")
    assert diff(table(chow, chow), table(chow, chow), frame=4) == []


def test_a_discard_landing_as_the_tile_before_it_is_misread_is_still_new() -> None:
    """Reported: ... S 7s. The 7s reads as a 6s for a moment just as a 6s is discarded (the
    river's last tile "corrected"), then the 7s comes back before the 6s: against the river as
    reported, the 6s at the end is a new discard."""
    reported = _table("1p S 7s").seats[1].river
    as_reported = [(), reported, (), ()]
    first = diff(_table("1p S 7s"), _table("1p S 6s"), frame=1, reported=as_reported)
    assert [e["type"] for e in first] == ["river_corrected"]
    second = diff(_table("1p S 6s"), _table("1p S 7s 6s"), frame=2, reported=as_reported)
    assert [(e["type"], e.get("tile"), e.get("index")) for e in second] == [
        ("river_corrected", None, None),
        ("discard", "6s", 3),
    ]
    alone = diff(_table("1p S 6s"), _table("1p S 7s 6s"), frame=2)  # as published only
    assert [e["type"] for e in alone] == ["river_corrected"]


def test_a_true_correction_then_a_discard_reports_only_the_discard() -> None:
    as_reported = [(), _table("1p S 7s").seats[1].river, (), ()]
    events = diff(_table("1p S 6s"), _table("1p S 6s E"), frame=3, reported=as_reported)
    assert [(e["type"], e.get("tile")) for e in events] == [("discard", "E")]
    stray = diff(_table("1p S 7s"), _table("1p C S 7s"), frame=4, reported=as_reported)
    assert [e["type"] for e in stray] == ["river_corrected"]  # a stray inside adds nothing
