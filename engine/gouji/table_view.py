"""What a page may see of a Gouji table: the public snapshot (``state``'s ``game``).

No card of any hand is in it, only how many each seat holds; the current trick, the finishing
order so far, the alliances' places and the match (docs/events.md shows one). Kept apart from
:mod:`engine.gouji.match_table`, which owns the state it reads.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.gouji.cards import SEATS
from engine.gouji.scoring import PLACE_NAMES, PLACE_SCORES, MatchScore
from engine.gouji.table import GoujiGame


class GoujiTable(Protocol):
    """What the snapshot reads of :class:`engine.gouji.match_table.GoujiTable` (a protocol,
    so this module does not import the table that imports it)."""

    game: GoujiGame | None
    game_number: int
    match: MatchScore
    trick: list[dict[str, Any]]
    trick_winner: int | None
    places: dict[int, int]
    last_game: dict[str, Any] | None


def _seats(table: GoujiTable) -> list[dict[str, Any]]:
    game = table.game
    over = game is None or game.over
    seats = []
    for seat in range(SEATS):
        place = table.places.get(seat)
        seats.append(
            {
                "seat": seat,
                "alliance": seat % 2,
                "cards_left": len(game.hands[seat]) if game is not None else 0,
                "report": game is not None and not over and game.report(seat) is not None,
                "place": place,
                "place_name": PLACE_NAMES[place - 1] if place else None,
                "revolutionary": game is not None and game.revolutionary == seat,
                "opened": game is not None and seat in game.opened,
            }
        )
    return seats


def public_snapshot(table: GoujiTable) -> dict[str, Any]:
    """The public state of ``table``: JSON-able, the same for every viewer."""
    game = table.game
    over = game is None or game.over
    places = table.places
    order = sorted(places, key=places.__getitem__)
    alliances = [0, 0]
    for seat, place in places.items():
        alliances[seat % 2] += PLACE_SCORES[place - 1]
    return {
        "rules": "gouji",
        "game_number": table.game_number,
        "phase": "waiting" if game is None else "over" if over else "playing",
        "turn": None if game is None else game.to_act,
        "seats": _seats(table),
        "trick": {
            "leader": table.trick[0]["seat"] if table.trick else None,
            "plays": [dict(play) for play in table.trick],
            "winner": table.trick_winner,
        },
        "finish_order": [
            {"seat": seat, "place": places[seat], "place_name": PLACE_NAMES[places[seat] - 1]}
            for seat in order
        ],
        "alliances": alliances,
        "match": {
            "points": list(table.match.points),
            "target": table.match.target,
            "games": table.match.games,
            "winner": table.match.winner,
        },
        "last_game": table.last_game,
    }
