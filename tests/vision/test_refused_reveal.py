"""A winning hand the camera misread: the engine refuses it (``false_win``, the referee sees the
hand as read), and when the table is cleared the win stands unscored, on the tile it was seen
won on, so the winner, the discarder and the next dealer are right and a referee enters the
score. Observations are given to the bridge as the reader reports them; a real MCR table."""

from __future__ import annotations

from engine import actions as act
from engine.events import to_dict
from engine.table import Table
from engine.tiles import Tile
from vision.engine_bridge import ActionBridge
from vision.observed import DiscardSeen, HandRevealed

HAND = ["1m", "2m", "3m", "4s", "5s", "6s", "7p", "8p", "9p", "E", "E", "E", "5p"]  # waits on 5p
MISREAD = ["8s" if tile == "4s" else tile for tile in HAND]  # one 4s read as an 8s: no win


def _round(table: Table, bridge: ActionBridge, tiles: list[str]) -> list[dict[str, object]]:
    """Each seat discards one of ``tiles`` in turn, from seat 0."""
    out = []
    for seat, tile in enumerate(tiles):
        for action in bridge.actions(DiscardSeen(seat, Tile.parse(tile))):
            out += [to_dict(e) for e in table.apply(action)]
    return out


def _tiles(tiles: list[str]) -> tuple[Tile, ...]:
    return tuple(map(Tile.parse, tiles))


def _apply(table: Table, actions: list[act.Action]) -> list[dict[str, object]]:
    return [to_dict(e) for action in actions for e in table.apply(action)]


def _start() -> tuple[Table, ActionBridge]:
    table, bridge = Table("log", rules="mcr"), ActionBridge()
    _apply(table, bridge.start())
    return table, bridge


def test_a_misread_win_on_a_discard_stands_unscored_when_the_table_is_cleared() -> None:
    table, bridge = _start()
    _round(table, bridge, ["9m", "5p"])  # seat 1's 5p: seat 0 wins on it
    reveal = HandRevealed(0, _tiles([*MISREAD, "5p"]), sets=0)
    refused = _apply(table, bridge.actions(reveal))
    assert not [e for e in refused if e["type"] == "win_declared"]
    (alert,) = [e for e in refused if e["type"] == "violation"]
    assert alert["kind"] == "false_win"
    closing = bridge.close(table.snapshot())
    assert closing == [act.Win(seat=0, tile=closing[0].tile)] and str(closing[0].tile) == "5p"
    events = _apply(table, closing)
    (win,) = [e for e in events if e["type"] == "win_declared"]
    assert (win["seat"], win["discarder"], win["win_tile"]) == (0, 1, "5p")
    assert win["score"] is None and win["self_drawn"] is False  # the referee's to score
    (ended,) = [e for e in events if e["type"] == "hand_ended"]
    assert ended["result"] == "win" and ended["winners"] == [0]
    assert len(table.violations) == 1  # nothing more: no abandoned hand
    assert not [e for e in _apply(table, bridge.start(dealer=1)) if e["type"] == "violation"]


def test_a_misread_self_drawn_win_stands_on_the_tile_laid_apart() -> None:
    table, bridge = _start()
    _round(table, bridge, ["9m", "1s", "2s", "3s"])
    reveal = HandRevealed(
        0, _tiles([*MISREAD, "5p"]), sets=0, win_tile=Tile.parse("5p"), discard_in_river=True
    )
    refused = _apply(table, bridge.actions(reveal))
    assert [e["kind"] for e in refused if e["type"] == "violation"] == ["false_win"]
    events = _apply(table, bridge.close(table.snapshot()))
    (win,) = [e for e in events if e["type"] == "win_declared"]
    assert (win["seat"], win["win_tile"], win["self_drawn"]) == (0, "5p", True)
    assert win["score"] is None
    assert [e["winners"] for e in events if e["type"] == "hand_ended"] == [[0]]


def test_a_read_win_the_engine_took_is_not_declared_again() -> None:
    table, bridge = _start()
    _round(table, bridge, ["9m", "5p"])
    reveal = HandRevealed(0, _tiles([*HAND, "5p"]), sets=0)
    events = _apply(table, bridge.actions(reveal))
    (win,) = [e for e in events if e["type"] == "win_declared"]
    assert win["score"] is not None and not table.violations
    assert bridge.close(table.snapshot()) == []


def test_a_hand_thrown_in_after_play_is_abandoned_and_the_referee_told() -> None:
    table, bridge = _start()
    _round(table, bridge, ["9m", "1s", "2s"])
    assert bridge.close(table.snapshot()) == []  # nothing read that ends it
    assert bridge.over(table.snapshot())  # but it was played: a cleared table ends it
    events = _apply(table, bridge.start(dealer=1))
    (warning,) = [e for e in events if e["type"] == "violation"]
    assert (warning["kind"], warning["severity"]) == ("hand_abandoned", "warning")
    assert "after 3 discards" in str(warning["detail"])
    assert [e["result"] for e in events if e["type"] == "hand_ended"] == ["abandoned"]
    assert not bridge.over(table.snapshot())  # the new hand: a cleared table is its deal


def test_a_refused_hand_beside_a_discard_still_in_its_river_is_not_declared_on_it() -> None:
    """One tile short and the discard still lying in its river: won on it, or self-drawn with
    a tile unread. Refused as read, the camera cannot tell which: no result, for the referee."""
    table, bridge = _start()
    _round(table, bridge, ["9m", "5p"])
    reveal = HandRevealed(0, _tiles(MISREAD), sets=0, discard_in_river=True)
    refused = _apply(table, bridge.actions(reveal))
    assert [e["kind"] for e in refused if e["type"] == "violation"] == ["false_win"]
    assert bridge.close(table.snapshot()) == []
    events = _apply(table, bridge.start(dealer=1))
    assert [e["result"] for e in events if e["type"] == "hand_ended"] == ["abandoned"]
    assert [e["kind"] for e in events if e["type"] == "violation"] == ["hand_abandoned"]
