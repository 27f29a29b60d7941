"""Just enough of the Botzone game-record format to rebuild each declared win for the scorer.

Replays the draws, discards and claims of one game, tracking concealed tiles, melds and the
tiles visible on the table (rivers and exposed melds), and turns the ``Hu`` line into a
:class:`~engine.rulesets.WinRequest` plus the recorded fans and score changes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.notation import Hand, parse_botzone_tile
from engine.rulesets import WinRequest
from engine.tiles import Meld, MeldKind, RelativeSeat, Tile, Wind


@dataclass
class RecordedWin:
    request: WinRequest
    winner: int
    discarder: int | None
    fans: dict[str, int]
    total: int
    scores: tuple[int, int, int, int]


@dataclass
class _Seat:
    hand: list[Tile] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)


def recorded_wins(text: str) -> list[RecordedWin]:
    return [w for block in text.strip().split("\n\n") if (w := _replay(block)) is not None]


def _replay(block: str) -> RecordedWin | None:
    lines = [ln.split() for ln in block.strip().splitlines()]
    prevalent = Wind(int(next(ln[1] for ln in lines if ln[0] == "Wind")))
    seats = [_Seat() for _ in range(4)]
    river: Counter[Tile] = Counter()
    last: tuple[int, str, Tile] | None = None  # (seat, verb, tile) of the latest action
    kong_draw = False
    win: RecordedWin | None = None
    fans: dict[str, int] = {}
    total = 0
    for ln in lines:
        if ln[0] == "Fan":
            total = int(ln[1])
            for part in ln[2].split("+"):
                name, count = part.split("*")
                fans[name] = int(count)
        elif ln[0] == "Score" and win is not None:
            win.scores = (int(ln[1]), int(ln[2]), int(ln[3]), int(ln[4]))
        if ln[0] != "Player":
            continue
        seat, verb = int(ln[1]), ln[2]
        me = seats[seat]
        tiles = [
            parse_botzone_tile(code) for code in ln[3:] if len(code) == 2 and code[1].isdigit()
        ]
        if verb == "Deal":
            me.hand = tiles[:13]
            continue
        tile = tiles[0]
        if verb == "Draw":
            kong_draw = (
                last is not None and last[0] == seat and last[1] in ("Gang", "AnGang", "BuGang")
            )
            me.hand.append(tile)
        elif verb == "Play":
            me.hand.remove(tile)
            river[tile] += 1
        elif verb in ("Chi", "Peng", "Gang"):
            assert last is not None
            claimed, source = last[2], RelativeSeat.between(seat, last[0])
            river[claimed] -= 1
            if verb == "Chi":
                run = tuple(t for t in (tile.shifted(-1), tile, tile.shifted(1)) if t is not None)
                for t in run:
                    if t != claimed:
                        me.hand.remove(t)
                me.melds.append(Meld(MeldKind.CHOW, run, source, claimed))
            else:
                size = 3 if verb == "Peng" else 4
                for _ in range(size - 1):
                    me.hand.remove(claimed)
                kind = MeldKind.PUNG if verb == "Peng" else MeldKind.KONG
                me.melds.append(Meld(kind, (claimed,) * size, source, claimed))
        elif verb == "AnGang":
            for _ in range(4):
                me.hand.remove(tile)
            me.melds.append(Meld(MeldKind.CONCEALED_KONG, (tile,) * 4))
        elif verb == "BuGang":
            me.hand.remove(tile)
            k = next(
                i for i, m in enumerate(me.melds) if m.kind is MeldKind.PUNG and m.first == tile
            )
            old = me.melds[k]
            me.melds[k] = Meld(MeldKind.KONG, (tile,) * 4, old.source, old.claimed)
        elif verb == "Hu":
            assert last is not None
            self_drawn = last[0] == seat and last[1] == "Draw"
            concealed = list(me.hand)
            if self_drawn:
                concealed.remove(tile)
            visible = river[tile] - (0 if self_drawn else 1)
            for other in seats:
                visible += sum(m.tiles.count(tile) for m in other.melds if not m.is_concealed)
            request = WinRequest(
                hand=Hand(tuple(concealed), tuple(me.melds)),
                win_tile=tile,
                self_drawn=self_drawn,
                seat_wind=Wind(seat),
                prevalent_wind=prevalent,
                last_of_kind=visible == 3,
                kong_replacement=self_drawn and kong_draw,
                robbing_kong=last[1] == "BuGang",
            )
            discarder = None if self_drawn else last[0]
            win = RecordedWin(request, seat, discarder, fans, 0, (0, 0, 0, 0))
        last = (seat, verb, tile)
    if win is not None:
        win.total = total
    return win
