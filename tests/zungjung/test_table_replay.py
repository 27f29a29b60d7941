"""A replayed ``wsom`` hand through engine.table: Zung Jung is the default rule set, and on a
discard win same-round immunity decides who pays (from the table's own discard log)."""

from __future__ import annotations

from engine.actions import Action, Deal, Discard, Draw, HandStart, Win
from engine.events import Event
from engine.notation import parse_tile, parse_tiles
from engine.table import Table
from engine.zungjung import ZungJung


def _play(table: Table, actions: list[Action]) -> list[Event]:
    events: list[Event] = []
    for action in actions:
        events.extend(table.apply(action))
    return events


def _hand(turns: list[tuple[int, str, str]], win_tile: str = "3p") -> list[Action]:
    """Seat 3 (North) waits on 3p with 111m 999m 11s 999s 33p. Seat 0 (dealer) opens with E;
    then each turn is (seat, drawn tile, discarded tile); seat 3 wins on the last discard."""
    t = parse_tile
    actions: list[Action] = [
        HandStart(dealer=0, dice=(3, 4)),
        Deal(seat=0, tiles=parse_tiles("124567899p1234sE")),
        Deal(seat=1, tiles=parse_tiles("2345678m2345678s")[:13]),
        Deal(seat=2, tiles=parse_tiles("456789p5678sSSS")),
        Deal(seat=3, tiles=parse_tiles("111m999m11s999s33p")),
        Discard(seat=0, tile=t("E")),
    ]
    for seat, drawn, thrown in turns:
        actions += [Draw(seat=seat, tile=t(drawn)), Discard(seat=seat, tile=t(thrown))]
    return [*actions, Win(seat=3, tile=t(win_tile))]


OPENING = [(1, "N", "N"), (2, "W", "W"), (3, "C", "C")]  # seat 3's discard opens the window


def test_wsom_table_scores_with_zung_jung_by_default() -> None:
    assert isinstance(Table("wsom").rules, ZungJung)


def _win(table: Table, turns: list[tuple[int, str, str]]) -> Event:
    events = _play(table, _hand(turns))
    assert not [e for e in events if e.type == "violation"]
    return next(e for e in events if e.type == "win_declared")


def test_follower_is_immune_and_first_discarder_pays() -> None:
    table = Table("wsom")
    turns = [*OPENING, (0, "3p", "3p"), (1, "P", "2m"), (2, "3p", "3p")]
    win = _win(table, turns)
    assert win.score is not None and win.score["total"] == 65  # type: ignore[attr-defined]
    payments = win.score["payments"]  # type: ignore[attr-defined]
    assert payments["responsible"] == 0 and payments["immune"] == [2]
    assert payments["responsible_pays"] == 145
    # seat 2 threw the tile that won but only followed seat 0: it pays the par share
    assert win.deltas == (-145, -25, -25, 195)  # type: ignore[attr-defined]
    assert table.scores == [-145, -25, -25, 195]


def test_the_discarder_pays_when_nobody_threw_the_tile_before() -> None:
    win = _win(Table("wsom"), [*OPENING, (0, "F", "F"), (1, "P", "2m"), (2, "3p", "3p")])
    assert win.deltas == (-25, -25, -145, 195)  # type: ignore[attr-defined]


def test_a_drop_before_the_winners_last_discard_does_not_count() -> None:
    turns = [(1, "3p", "3p"), (2, "W", "W"), (3, "C", "C"), (0, "F", "F"), (1, "P", "2m")]
    win = _win(Table("wsom"), [*turns, (2, "3p", "3p")])
    assert win.deltas == (-25, -25, -145, 195)  # type: ignore[attr-defined]


def test_nobody_pays_more_when_the_winner_threw_the_tile_last() -> None:
    turns = [(1, "N", "N"), (2, "W", "W"), (3, "3p", "3p"), (0, "F", "F"), (1, "P", "2m")]
    win = _win(Table("wsom"), [*turns, (2, "3p", "3p")])
    assert win.score["payments"]["responsible"] is None  # type: ignore[attr-defined]
    assert win.deltas == (-65, -65, -65, 195)  # type: ignore[attr-defined]


def test_blessing_of_heaven_and_of_earth_come_from_the_table() -> None:
    t = parse_tile
    deal = [
        HandStart(dealer=0, dice=(3, 4)),
        Deal(seat=0, tiles=parse_tiles("123s456s234m567p99p")),
        Deal(seat=1, tiles=parse_tiles("2345678m2345678s")[:13]),
        Deal(seat=2, tiles=parse_tiles("456789p5678sSSS")),
        Deal(seat=3, tiles=parse_tiles("111m999m11s999s33p")),
    ]
    heaven = _play(Table("wsom"), [*deal, Win(seat=0, tile=t("9p"))])
    win = next(e for e in heaven if e.type == "win_declared")
    fans = {f["id"] for f in win.score["fans"]}  # type: ignore[attr-defined]
    assert win.score["total"] == 165 and "9.4.1" in fans  # type: ignore[attr-defined]

    earth_deal = [*deal[:1], Deal(seat=0, tiles=parse_tiles("124567899p1234s3p")), *deal[2:]]
    earth = _play(
        Table("wsom"), [*earth_deal, Discard(seat=0, tile=t("3p")), Win(seat=3, tile=t("3p"))]
    )
    win = next(e for e in earth if e.type == "win_declared")
    fans = {f["id"] for f in win.score["fans"]}  # type: ignore[attr-defined]
    assert "9.4.2" in fans and win.score["total"] == 65 + 155  # type: ignore[attr-defined]
    assert win.deltas == (-(3 * 220 - 50), -25, -25, 660)  # type: ignore[attr-defined]
