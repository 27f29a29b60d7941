"""The retained ``state`` message of a table, built from the engine's public snapshot."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tilesight.table_engine import GameEngine

STATE_SCHEMA = "tilesight.state/1"


def state_payload(
    engine: GameEngine,
    *,
    tournament: str,
    table: str,
    links: dict[str, str],
    link_detail: dict[str, str] | None = None,
    turn_since: float | None,
    discard_limit_s: float | None,
) -> dict[str, Any]:
    """The retained ``state`` message: enough for an overlay opened mid-hand to draw everything.

    ``game`` is the engine's public snapshot (mahjong: rivers, melds, flowers, wall counts with
    the reserved tiles, turn, scores; Gouji: ``engine.gouji.match_table.GoujiTable.snapshot``);
    ``timer`` lets a page run the discard clock locally.
    """
    epoch, seq = engine.position
    game = engine.snapshot()
    hand = game.get("hand") or game  # a mahjong hand's turn; a Gouji game's is at the top
    return {
        "schema": STATE_SCHEMA,
        "tournament": tournament,
        "table": table,
        "epoch": epoch,
        "seq": seq,
        "updated": time.time(),
        "links": dict(links),
        "link_detail": dict(link_detail or {}),
        "timer": {
            "turn": hand.get("turn"),
            "since": turn_since,
            "discard_limit_s": discard_limit_s,
        },
        "game": game,
    }
