"""A tiny script language for table tests (one action per line), the helpers that run a script
on a :class:`~engine.table.Table` and pick out its violations, and a standard deal."""

from __future__ import annotations

from engine import actions as act
from engine.events import Event
from engine.notation import parse_tile, parse_tiles
from engine.table import Table


def script(text: str) -> list[act.Action]:
    """A tiny script language for tests: one action per line.

    ``start [dealer]``, ``deal SEAT TILES|?N``, ``SEAT draw [TILE|?]``, ``SEAT replace [TILE]``,
    ``SEAT discard T``, ``SEAT chow TTT``, ``SEAT pung|kong``, ``SEAT ckong T|?``, ``SEAT show T``,
    ``SEAT akong T``, ``SEAT flower T``, ``SEAT win [T]``, ``washout``.
    """
    out: list[act.Action] = []
    for line in text.strip().splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "start":
            out.append(act.HandStart(dealer=int(words[1]) if len(words) > 1 else 0))
        elif words[0] == "deal":
            seat, tiles = int(words[1]), "".join(words[2:])
            if tiles.startswith("?"):
                out.append(act.Deal(seat=seat, count=int(tiles[1:])))
            else:
                out.append(act.Deal(seat=seat, tiles=parse_tiles(tiles)))
        elif words[0] == "washout":
            out.append(act.Washout())
        else:
            seat, verb, arg = int(words[0]), words[1], (words[2] if len(words) > 2 else None)
            tile = parse_tile(arg) if arg and arg != "?" and verb != "chow" else None
            out.append(_verb(seat, verb, tile, arg))
    return out


def _verb(seat: int, verb: str, tile: act.Tile | None, arg: str | None) -> act.Action:
    if verb == "draw":
        return act.Draw(seat=seat, tile=tile)
    if verb == "replace":
        return act.Draw(seat=seat, tile=tile, replacement=True)
    if verb == "discard":
        assert tile is not None
        return act.Discard(seat=seat, tile=tile)
    if verb == "chow":
        assert arg is not None
        return act.Chow(seat=seat, tiles=parse_tiles(arg))
    if verb in ("pung", "kong"):
        return (act.Pung if verb == "pung" else act.Kong)(seat=seat, tile=tile)
    if verb == "ckong":  # ``ckong ?``: laid face down
        return act.ConcealedKong(seat=seat, tile=tile)
    assert tile is not None or verb == "win"
    if verb == "show":
        assert tile is not None
        return act.ShowKong(seat=seat, tile=tile)
    if verb == "akong":
        assert tile is not None
        return act.AddedKong(seat=seat, tile=tile)
    if verb == "flower":
        assert tile is not None
        return act.Flower(seat=seat, tile=tile)
    return act.Win(seat=seat, tile=tile)


def run(text: str, table: Table | None = None) -> tuple[Table, list[Event]]:
    table = table or Table("log")
    events = [e for a in script(text) for e in table.apply(a)]
    return table, events


def kinds(events: list[Event]) -> list[str]:
    return [str(getattr(e, "kind", "")) for e in events if e.type == "violation"]


DEAL = """
start
deal 0 123456789s EESS
deal 1 123456789m 123p 5p
deal 2 111222333444p N
deal 3 55667788m 99s WWC
"""
