"""A winning hand laid down one tile short at first: the tile won on still in the river, or a
tile not laid yet. Read through the reader and the bridge into the engine (exact detections)."""

from __future__ import annotations

from engine.events import Event, to_dict
from engine.notation import parse_hand
from engine.table import Table
from engine.tiles import Tile
from tests.vision.test_face_down_kongs import UNIT, _read
from vision.engine_bridge import ActionBridge
from vision.layout import TableSpec
from vision.observed import DiscardSeen, HandRevealed, Observed, to_json
from vision.reader import TableReader
from vision.stabiliser import Stabiliser

HAND = ["1m", "2m", "3m", "4s", "5s", "6s", "7p", "8p", "9p", "E", "E", "E", "5p"]  # waits on 5p


def _play(
    first: list[str], frames: int, then: list[str]
) -> tuple[list[dict[str, object]], Table, list[Event]]:
    """Seat 1 discards 5p; seat 0 lays ``first`` for ``frames`` frames (the 5p still in the
    river), then ``then`` with the river empty."""
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=2))
    spec = TableSpec()
    spec.rivers[0] = ["9m"]
    events = _read(reader, spec)
    spec.rivers[1] = ["5p"]
    events += _read(reader, spec)
    spec.revealed[0] = first
    events += _read(reader, spec, frames)
    spec.rivers[1] = []
    spec.revealed[0] = then
    events += _read(reader, spec, 30)  # the 5p taken from the river: gone a while before read
    return ([to_json(e) for e in events], *_bridged(events))


def _tiles(tiles: list[str]) -> tuple[Tile, ...]:
    return tuple(map(Tile.parse, tiles))


def _bridged(events: list[Observed]) -> tuple[Table, list[Event]]:
    """The reader's events through a fresh bridge into a camera-only MCR table."""
    table, bridge = Table("log", rules="mcr"), ActionBridge()
    engine_events: list[Event] = []
    for event in [None, *events]:
        for action in bridge.start() if event is None else bridge.actions(event):
            engine_events += table.apply(action)
    return table, engine_events


def _wins(engine_events: list[Event]) -> list[dict[str, object]]:
    return [to_dict(e) for e in engine_events if e.type == "win_declared"]


def test_a_hand_laid_before_the_tile_won_on_waits_for_it() -> None:
    events, table, engine_events = _play(HAND, 8, [*HAND, "5p"])
    reveals = [e for e in events if e["type"] == "hand_revealed"]
    assert [len(r["tiles"]) for r in reveals] == [14]  # type: ignore[arg-type]
    assert not table.violations, table.violations
    (win,) = _wins(engine_events)
    assert win["hand"] == "123m456s789pEEE5p" and win["win_tile"] == "5p"


def test_a_hand_left_one_short_is_won_on_the_discard_not_yet_laid() -> None:
    events, table, engine_events = _play(HAND, 30, [*HAND, "5p"])
    reveals = [e for e in events if e["type"] == "hand_revealed"]
    assert [len(r["tiles"]) for r in reveals] == [13, 14]  # type: ignore[arg-type]
    assert not table.violations, table.violations
    (win,) = _wins(engine_events)  # the 5p laid later is the one won on: no second win
    assert win["hand"] == "123m456s789pEEE5p" and win["score"] is not None


def test_a_hand_with_a_tile_not_laid_yet_is_declared_again_when_whole() -> None:
    first = [t for t in HAND if t != "2m"] + ["5p"]  # the won 5p laid, the 2m not yet
    events, table, engine_events = _play(first, 30, [*HAND, "5p"])
    reveals = [e["tiles"] for e in events if e["type"] == "hand_revealed"]
    assert len(reveals[0]) == 13 and reveals[-1] == [*HAND, "5p"]  # type: ignore[arg-type]
    assert [v.kind.value for v in table.violations] == ["false_win"]  # the short hand, alerted
    (win,) = _wins(engine_events)
    assert win["hand"] == "123m456s789pEEE5p" and win["score"] is not None


def test_a_whole_hand_beside_a_discard_left_in_its_river_is_self_drawn() -> None:
    """Seat 0 draws the 5p it wins on (no one sees the draw) and lays all 14; seat 3's 5p
    stays in its river: after ``self_draw_frames`` the win is self-drawn, the tile inferred."""
    reader = TableReader(None, UNIT, Stabiliser(confirm_frames=2))
    spec = TableSpec()
    events: list[Observed] = []
    for seat, tile in enumerate(["9m", "1s", "2s", "5p"]):  # seat 3's 5p: seat 0 draws next
        spec.rivers[seat] = [tile]
        events += _read(reader, spec)
    spec.revealed[0] = [*HAND, "5p"]
    held = _read(reader, spec, reader.self_draw_frames - 4)
    assert not [e for e in map(to_json, held) if e["type"] == "hand_revealed"]  # waits on 5p
    events += held + _read(reader, spec, 10)
    (reveal,) = [e for e in map(to_json, events) if e["type"] == "hand_revealed"]
    assert reveal["discard_in_river"] is True
    table, engine_events = _bridged(events)
    assert not table.violations, table.violations
    (win,) = _wins(engine_events)
    assert win["self_drawn"] and win["win_tile_inferred"] and win["discarder"] is None
    hand = parse_hand(str(win["hand"])).concealed
    whole = sorted([*map(str, hand), str(win["win_tile"])])
    assert whole == sorted([*HAND, "5p"]) and win["score"] is not None
    assert table.scores[0] > 0 and table.scores[3] < 0 and sum(table.scores) == 0


def test_a_whole_hand_laid_before_the_discard_is_taken_is_won_on_it() -> None:
    """The 5p leaves the river a few frames after the whole hand is laid: a discard win."""
    events, table, engine_events = _play([*HAND, "5p"], 3, [*HAND, "5p"])
    (reveal,) = [e for e in events if e["type"] == "hand_revealed"]
    assert reveal["discard_in_river"] is False
    assert not table.violations, table.violations
    (win,) = _wins(engine_events)
    assert not win["self_drawn"] and win["discarder"] == 1 and win["win_tile"] == "5p"
    assert not win["win_tile_inferred"]


def test_a_self_drawn_hand_first_read_one_short_is_declared_again_self_drawn() -> None:
    """Seat 0 draws its winning 5p unseen and lays all 14, one tile hidden for a while: the
    short hand is first won on seat 3's 1s (a false win, alerted), then the whole hand, with no
    1s in it, is declared again as self-drawn and scored."""
    discards = [(0, "9m"), (1, "1s"), (2, "2s"), (3, "1s")]
    events: list[Observed] = [DiscardSeen(s, Tile.parse(t), index=0) for s, t in discards]
    short = [t for t in HAND if t != "2m"] + ["5p"]
    events.append(HandRevealed(0, _tiles(short), discard_in_river=False))
    whole = [*HAND, "5p"]
    events.append(HandRevealed(0, _tiles(whole), discard_in_river=False))
    table, engine_events = _bridged(events)
    assert [v.kind.value for v in table.violations] == ["false_win"]
    (win,) = _wins(engine_events)
    assert win["self_drawn"] and win["win_tile_inferred"] and win["score"] is not None
    assert table.scores[0] > 0 and sum(table.scores) == 0


def test_a_self_drawn_hand_first_misread_is_scored_once_read_right() -> None:
    """The whole hand is first read with a 3m as a 5m (no win: alerted), then right: the win
    is declared again on the same unseen draw (no second draw, no out_of_turn) and scored."""
    discards = [(0, "9m"), (1, "1s"), (2, "2s"), (3, "4s")]
    events: list[Observed] = [DiscardSeen(s, Tile.parse(t), index=0) for s, t in discards]
    whole = [*HAND, "5p"]
    misread = ["5m" if t == "3m" else t for t in whole]
    for tiles in (misread, whole):
        events.append(HandRevealed(0, _tiles(tiles), discard_in_river=True))
    table, engine_events = _bridged(events)
    assert [v.kind.value for v in table.violations] == ["false_win"]
    (win,) = _wins(engine_events)
    assert win["self_drawn"] and win["win_tile_inferred"] and win["score"] is not None


def _won_read_short(*reads: list[str]) -> tuple[Table, list[dict[str, object]]]:
    """Seat 1 discards 5p, seat 0 takes it and lays its hand, read as each of ``reads`` in
    turn with the 5p gone from the river."""
    events: list[Observed] = [DiscardSeen(0, Tile.parse("9m")), DiscardSeen(1, Tile.parse("5p"))]
    events += [HandRevealed(0, _tiles(read), discard_in_river=False) for read in reads]
    table, engine_events = _bridged(events)
    return table, _wins(engine_events)


def test_a_hand_read_a_tile_short_with_the_discard_laid_in_infers_the_unread_tile() -> None:
    """Wsom hand 17 of the full camera-only run: the 5p laid in, a 2m the detector missed."""
    short = [t for t in HAND if t != "2m"] + ["5p"]
    table, wins = _won_read_short(short, [*HAND, "5p"])  # then read whole: nothing new
    assert not table.violations, table.violations
    (win,) = wins
    assert win["hand_tile_inferred"] == "2m" and win["win_tile"] == "5p"
    assert win["discarder"] == 1 and not win["self_drawn"] and win["score"] is not None
    assert sorted(parse_hand(str(win["hand"])).concealed) == sorted(_tiles(HAND))
    assert table.scores[0] > 0 and table.scores[1] < 0


def test_a_hand_read_whole_unlike_the_tile_inferred_alerts_the_referee() -> None:
    """A 4s missed: 4s or 7s both make the hand; read whole later as the other one."""
    short = [t for t in HAND if t != "4s"] + ["5p"]
    _, (first,) = _won_read_short(short)
    inferred = str(first["hand_tile_inferred"])
    assert inferred in ("4s", "7s")
    other = "7s" if inferred == "4s" else "4s"
    table, wins = _won_read_short(short, [*short, other])
    assert len(wins) == 1
    (alert,) = table.violations
    assert alert.kind.value == "false_win" and f"{inferred} inferred" in alert.detail


def test_a_hand_read_short_that_no_tile_makes_a_win_is_a_false_win() -> None:
    short = ["1m", "3m", "5m", "4s", "6s", "8s", "7p", "9p", "E", "S", "W", "5p", "5p"]
    table, wins = _won_read_short(short)
    assert [v.kind.value for v in table.violations] == ["false_win"] and not wins
