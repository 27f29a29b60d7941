"""A camera that starts mid-hand: what was already reported is not news.

When ``tilesight run`` restarts (or a camera stream is reopened) the engine already holds the
hand so far, rebuilt from its journal. A fresh reader would take everything on the table for new
discards, melds and flowers (each river read twice); a fresh bridge would start the hand again.
:func:`prime_reader` gives the reader the engine's public snapshot as what it has published and
reported; :func:`seen_state` reads that snapshot as the table a camera would see. The first
frames then bring only what changed while no one was watching (play went on during the restart),
and those are reported as usual.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.json_forms import meld_from_json, tile_from_json, tiles_from_json
from engine.tiles import Meld, MeldKind, RelativeSeat, Tile
from vision.hand_row import MeldObservation
from vision.observation import SeatObservation, TableObservation

if TYPE_CHECKING:
    from vision.reader import TableReader


@dataclass(frozen=True)
class SeenHand:
    """A live hand as the engine holds it, in the terms a camera reads."""

    observation: TableObservation
    melds: tuple[tuple[Meld, ...], ...]  # per seat, exposed melds and concealed kongs
    turn: int  # the seat to play next
    begun: bool  # that seat's turn has begun (it drew or claimed): it discards next
    live_discard: tuple[int, Tile] | None


def live_hand(snapshot: Mapping[str, Any]) -> bool:
    """The engine holds a hand in play (not over, not yet dealt)."""
    hand = snapshot.get("hand")
    return isinstance(hand, Mapping) and hand.get("phase") in ("draw", "discard")


def seen_state(snapshot: Mapping[str, Any]) -> SeenHand:
    """The engine's public ``snapshot`` of a live hand, as the table a camera sees."""
    hand = snapshot["hand"]
    seats, melds = [], []
    for seat in hand["seats"]:
        river = tuple(t for row in seat["river"] for t in tiles_from_json(row, "river"))
        shown = tuple(meld_from_json(m["meld"]) for m in seat["melds"])
        exposed = tuple(_observed(m) for m in shown if m.kind is not MeldKind.CONCEALED_KONG)
        kongs = tuple(m.first for m in shown if m.kind is MeldKind.CONCEALED_KONG)
        flowers = tiles_from_json(seat["flowers"], "flowers")
        down = int(seat.get("face_down_kongs", 0))
        seats.append(SeatObservation(river, exposed, (), kongs, down, flowers=flowers))
        melds.append(shown)
    live = hand.get("live_discard")
    discard = (int(live["seat"]), tile_from_json(live["tile"])) if live else None
    return SeenHand(
        TableObservation(tuple(seats)),
        tuple(melds),
        int(hand["turn"]),
        hand["phase"] == "discard" and not _owed_a_tile(hand["seats"][int(hand["turn"])]),
        discard,
    )


def prime_reader(reader: TableReader, snapshot: Mapping[str, Any]) -> bool:
    """Make a fresh reader start from the engine's live hand: its rivers, melds, kongs and
    flowers published and reported, the seat to play expected next. False (nothing changed)
    when the engine holds no hand in play."""
    if not live_hand(snapshot):
        return False
    seen = seen_state(snapshot)
    reader.prime(seen.observation, seen.turn, seen.live_discard)
    return True


def _owed_a_tile(seat: Mapping[str, Any]) -> bool:
    """The seat to discard holds a tile short (its kong's replacement not drawn yet, as when a
    process was killed just after the kong): its turn has not begun, the replacement comes
    before its discard. Each meld or kong counts three."""
    count = seat.get("concealed_count")
    if not isinstance(count, int):
        return False
    sets = len(seat.get("melds") or []) + int(seat.get("face_down_kongs") or 0)
    return count + 3 * sets < 14


def _observed(meld: Meld) -> MeldObservation:
    """A meld laid as the renderer lays one: the claimed tile turned on its source's side."""
    source = meld.source or RelativeSeat.UPPER
    index = {RelativeSeat.UPPER: 0, RelativeSeat.OPPOSITE: 1}.get(source, len(meld.tiles) - 1)
    return MeldObservation(meld.tiles, index, source)
