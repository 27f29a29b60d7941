"""Rebuild each declared win of a Botzone record as a scorer request (test helper).

Records are read by the engine's importer (:func:`engine.botzone.parse_botzone`); this helper
only follows concealed tiles, melds and the tiles visible on the table (rivers and exposed
melds) up to the win, so the scorer can be checked against the recorded fans and score changes
without the table state machine.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine import actions as act
from engine.botzone import BotzoneGame, parse_botzone
from engine.notation import Hand
from engine.rulesets import WinRequest
from engine.tiles import Meld, MeldKind, RelativeSeat, Tile, Wind

_CLAIMS = (act.Chow, act.Pung, act.Kong, act.Win)


@dataclass
class RecordedWin:
    request: WinRequest
    winner: int
    discarder: int | None
    fans: dict[str, int]
    total: int
    scores: tuple[int, ...]


@dataclass
class _Seat:
    hand: list[Tile] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)


def recorded_wins(text: str) -> list[RecordedWin]:
    return [win for game in parse_botzone(text) if (win := _replay(game)) is not None]


def _replay(game: BotzoneGame) -> RecordedWin | None:
    seats = [_Seat() for _ in range(4)]
    river: Counter[Tile] = Counter()
    last: act.Action | None = None
    before_last: act.Action | None = None
    actions = game.actions
    for i, action in enumerate(actions):
        lost = i + 1 < len(actions) and isinstance(actions[i + 1], _CLAIMS)
        if isinstance(action, _CLAIMS[:3]) and lost:
            continue  # a claim that lost on precedence ("Ignore Player ...")
        if isinstance(action, act.Win):
            return _win(game, seats, river, action, (last, before_last))
        seat = getattr(action, "seat", None)
        if isinstance(action, act.Deal) and seat is not None and action.tiles:
            seats[seat].hand = list(action.tiles)
        elif isinstance(action, act.Draw) and seat is not None and action.tile is not None:
            seats[seat].hand.append(action.tile)
        elif isinstance(action, act.Discard):
            seats[action.seat].hand.remove(action.tile)
            river[action.tile] += 1
        elif isinstance(action, act.Chow | act.Pung | act.Kong):
            assert isinstance(last, act.Discard)
            _claim(seats[action.seat], action, last, river)
        elif isinstance(action, act.ConcealedKong):
            for _ in range(4):
                seats[action.seat].hand.remove(action.tile)
            seats[action.seat].melds.append(Meld(MeldKind.CONCEALED_KONG, (action.tile,) * 4))
        elif isinstance(action, act.AddedKong):
            me = seats[action.seat]
            me.hand.remove(action.tile)
            k = next(
                i
                for i, m in enumerate(me.melds)
                if m.kind is MeldKind.PUNG and m.first == action.tile
            )
            me.melds[k] = Meld(MeldKind.KONG, (action.tile,) * 4, me.melds[k].source, action.tile)
        before_last, last = last, action
    return None


def _claim(me: _Seat, action: act.Action, discard: act.Discard, river: Counter[Tile]) -> None:
    claimed, seat = discard.tile, getattr(action, "seat", 0)
    source = RelativeSeat.between(seat, discard.seat)
    river[claimed] -= 1
    if isinstance(action, act.Chow):
        for t in action.tiles:
            if t != claimed:
                me.hand.remove(t)
        me.melds.append(Meld(MeldKind.CHOW, tuple(action.tiles), source, claimed))
        return
    size = 3 if isinstance(action, act.Pung) else 4
    for _ in range(size - 1):
        me.hand.remove(claimed)
    kind = MeldKind.PUNG if size == 3 else MeldKind.KONG
    me.melds.append(Meld(kind, (claimed,) * size, source, claimed))


def _win(
    game: BotzoneGame,
    seats: list[_Seat],
    river: Counter[Tile],
    win: act.Win,
    previous: tuple[act.Action | None, act.Action | None],
) -> RecordedWin:
    last, before_last = previous
    assert win.tile is not None and last is not None
    me, tile = seats[win.seat], win.tile
    self_drawn = isinstance(last, act.Draw) and last.seat == win.seat
    concealed = list(me.hand)
    if self_drawn:
        concealed.remove(tile)
    visible = river[tile] - (0 if self_drawn else 1)
    visible += sum(m.tiles.count(tile) for s in seats for m in s.melds if not m.is_concealed)
    after_kong = isinstance(before_last, act.Kong | act.ConcealedKong | act.AddedKong)
    request = WinRequest(
        hand=Hand(tuple(concealed), tuple(me.melds)),
        win_tile=tile,
        self_drawn=self_drawn,
        seat_wind=Wind(win.seat),
        prevalent_wind=game.prevalent_wind,
        last_of_kind=visible == 3,
        kong_replacement=self_drawn and after_kong,
        robbing_kong=isinstance(last, act.AddedKong),
    )
    discarder = None if self_drawn else getattr(last, "seat", None)
    expected = game.expected
    return RecordedWin(
        request,
        win.seat,
        discarder,
        dict(expected.fans),
        expected.total or 0,
        expected.score or (0, 0, 0, 0),
    )
