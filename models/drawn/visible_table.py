"""What a camera over the table sees of a simulated hand: the engine's actions laid out.

:class:`VisibleTable` keeps a :class:`vision.layout.TableSpec` (rivers, melds, flowers set
aside, revealed hands) in step with the simulator's actions, and the public events the reader
should report (the truth the perception check compares with). Draws and concealed tiles change
nothing a camera sees; a win is laid down with :meth:`VisibleTable.reveal_win`.
"""

from __future__ import annotations

from engine import actions as act
from vision.layout import MeldSpec, TableSpec

Key = tuple[str, int, str, str]  # ("discard"|"concealed_kong"|"flower", seat, tile, "") or meld
SIDEWAYS = {3: 0, 2: 1}  # discarder relative to claimer -> turned tile (else the last position)


class VisibleTable:
    """The table as the camera sees it; ``truth`` lists the public events in play order."""

    def __init__(self, face_down_kongs: bool = False) -> None:
        """``face_down_kongs``: concealed kongs are laid all face down (national rules), else
        with their two end tiles down."""
        self.face_down_kongs = face_down_kongs
        self.spec = TableSpec()
        self.truth: list[Key] = []
        self.last_discard: tuple[int, str] | None = None
        self.down: list[list[tuple[MeldSpec, str]]] = [[] for _ in range(4)]  # face-down kongs

    def apply(self, action: act.Action) -> bool:
        """Lay out one action; True when the table a camera sees changed."""
        spec = self.spec
        if isinstance(action, act.Discard):
            spec.rivers[action.seat].append(str(action.tile))
            self.last_discard = (action.seat, str(action.tile))
            self.truth.append(("discard", action.seat, str(action.tile), ""))
            return True
        if isinstance(action, act.Chow | act.Pung | act.Kong) and self.last_discard:
            return self._claim(action, *self.last_discard)
        if isinstance(action, act.AddedKong):
            for meld in spec.melds[action.seat]:
                if len(meld.names) == 3 and meld.names[0] == meld.names[1] == str(action.tile):
                    at = 0 if meld.sideways_index == len(meld.names) - 1 else len(meld.names)
                    meld.names.insert(at, str(action.tile))
                    meld.sideways_index += 1 if at == 0 else 0
                    self.truth.append(("meld", action.seat, "kong", str(action.tile)))
                    return True
        if isinstance(action, act.Flower):  # set aside face up, at the left of the hand row
            spec.flowers[action.seat].append(str(action.tile))
            self.truth.append(("flower", action.seat, str(action.tile), ""))
            return True
        if isinstance(action, act.ConcealedKong):  # laid with its end tiles or all face down
            tile = str(action.tile)
            down = self.face_down_kongs or action.tile is None
            names = ["back"] * 4 if down else ["back", tile, tile, "back"]
            spec.melds[action.seat].append(MeldSpec(names, -1))
            if down and action.tile is not None:
                self.down[action.seat].append((spec.melds[action.seat][-1], tile))
            spec.concealed[action.seat] = max(spec.concealed[action.seat] - 3, 0)
            kind = "face_down_kong" if down else "concealed_kong"
            self.truth.append((kind, action.seat, "?" if down else tile, ""))
            return True
        return False  # draws, wins: nothing the reader compares

    def reveal_win(
        self,
        seat: int,
        tiles: list[str],
        discarder: int | None,
        apart: str | None = None,
        *,
        show_kongs: bool = False,
    ) -> None:
        """The winner lays its concealed tiles face up, the winning tile among them; a discard
        won on (``discarder``) is taken from its river at the same time. ``apart``: the
        winning tile (one of ``tiles``) laid apart at the hand's right (a self-drawn tile, 单摆);
        ``show_kongs``: its kongs laid face down are turned face up, as the rules ask."""
        for meld, tile in self.down[seat] if show_kongs else []:
            meld.names[:] = [tile] * 4
        if discarder is not None and self.spec.rivers[discarder]:
            self.spec.rivers[discarder].pop()
        hand = list(tiles)
        if apart is not None:
            hand.remove(apart)
        self.spec.revealed[seat] = hand
        self.spec.win_apart[seat] = apart
        self.spec.concealed[seat] = 0

    def _claim(self, action: act.Chow | act.Pung | act.Kong, discarder: int, tile: str) -> bool:
        spec = self.spec
        self.last_discard = None
        if isinstance(action, act.Chow):
            names, kind = sorted(str(t) for t in action.tiles), "chow"
            names.remove(tile)
        else:
            kind = "pung" if isinstance(action, act.Pung) else "kong"
            names = [tile] * (2 if kind == "pung" else 3)
        index = SIDEWAYS.get((discarder - action.seat) % 4, len(names))
        names.insert(index, tile)
        spec.rivers[discarder].pop()
        spec.melds[action.seat].append(MeldSpec(names, index))
        spec.concealed[action.seat] = max(spec.concealed[action.seat] - len(names) + 1, 0)
        self.truth.append(("meld", action.seat, kind, tile))
        return True
