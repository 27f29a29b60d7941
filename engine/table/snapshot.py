"""JSON-able views of a table: the public snapshot (for overlays, the retained ``state`` topic)
and the private one (concealed hands and the wall order, for referees only), read from the
table's shared state (:class:`TableContext`) and its :class:`Scoreboard`."""

from __future__ import annotations

from typing import Any

from engine.notation import format_meld, format_tiles
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
                "wind": hand.seat_wind(index).letter,
                "river": seat.river_rows(),
                "melds": [
                    {
                        "meld": format_meld(m),
                        "kind": m.kind.value,
                        "from_seat": (index + m.source) % 4 if m.source is not None else None,
                    }
                    for m in seat.melds
                ],
                "face_down_kongs": seat.face_down_kongs,
                "flowers": [str(f) for f in seat.flowers],
                "concealed_count": seat.concealed_count,
                "xianggong": seat.xianggong,
            }
        )
    live = hand.live_discard
    out["hand"] = {
        "number": hand.number,
        "dealer": hand.dealer,
        "prevalent_wind": hand.prevalent_wind.letter,
        "phase": hand.phase.value,
        "turn": hand.turn,
        "live_discard": {"seat": live[0], "tile": str(live[1])} if live else None,
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
            {"concealed": format_tiles(seat.concealed_tiles()), "unknown": seat.unknown}
            for seat in hand.seats
        ],
        "wall": table.wall.snapshot(private=True),
    }
