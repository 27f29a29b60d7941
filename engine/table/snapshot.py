"""JSON-able views of a table: the public snapshot (for overlays, the retained ``state`` topic)
and the private one (concealed hands and the wall order, for referees only), read from the
table's shared state (:class:`TableContext`) and its :class:`Scoreboard`. Tiles, runs, melds
and winds in the forms of :mod:`engine.json_forms` (winds by letter in the public one)."""

from __future__ import annotations

from typing import Any

from engine.json_forms import meld_to_json, tile_to_json, tiles_to_json, wind_letter
from engine.table.core import TableContext
from engine.table.scoreboard import Scoreboard


def public_snapshot(table: TableContext, scoreboard: Scoreboard) -> dict[str, Any]:
    hand = table.hand
    out: dict[str, Any] = {
        "table": table.table_id,
        "epoch": table.epoch,
        "seq": table.seq,
        "procedure": table.procedure.name,
        "rules": table.rules.name if table.rules is not None else None,
        "scores": list(scoreboard.scores),
        "hands_played": scoreboard.hands_played,
        "next_dealer": scoreboard.next_dealer,
        "hand": None,
    }
    if hand is None:
        return out
    seats = []
    for index, seat in enumerate(hand.seats):
        seats.append(
            {
                "seat": index,
                "wind": wind_letter(hand.seat_wind(index)),
                "river": seat.river_rows(),
                "melds": [
                    {
                        "meld": meld_to_json(m),
                        "kind": m.kind.value,
                        "from_seat": (index + m.source) % 4 if m.source is not None else None,
                    }
                    for m in seat.melds
                ],
                "face_down_kongs": seat.face_down_kongs,
                "flowers": tiles_to_json(seat.flowers),
                "concealed_count": seat.concealed_count,
                "xianggong": seat.xianggong,
            }
        )
    live = hand.live_discard
    out["hand"] = {
        "number": hand.number,
        "dealer": hand.dealer,
        "prevalent_wind": wind_letter(hand.prevalent_wind),
        "phase": hand.phase.value,
        "turn": hand.turn,
        "live_discard": {"seat": live[0], "tile": tile_to_json(live[1])} if live else None,
        "river_bottom": hand.river_bottom,
        "winners": list(hand.winners),
        "seats": seats,
        "wall": table.wall.snapshot(),
    }
    return out


def private_snapshot(table: TableContext) -> dict[str, Any]:
    hand = table.hand
    if hand is None:
        return {"table": table.table_id, "hands": None, "wall": table.wall.snapshot(private=True)}
    return {
        "table": table.table_id,
        "hand_number": hand.number,
        "hands": [
            {"concealed": tiles_to_json(seat.concealed_tiles()), "unknown": seat.unknown}
            for seat in hand.seats
        ],
        "wall": table.wall.snapshot(private=True),
    }
