"""Plays seen by a card camera as the Gouji table's actions, passes inferred.

A camera sees a play land in front of a seat (:class:`~vision.card_seats.SeenPlay`) and a trick
gathered (:class:`~vision.card_seats.TrickCleared`); it cannot see a pass. :func:`next_action`
gives the one action the game needs next for what was seen, given the game as it stands: while
seats the game waits on come before the seat that played, each of them passed (a
:class:`GoujiPass` flagged ``inferred``); then the play itself. A gathered trick means every
seat still waited on passed. A play by a seat the game does not wait on (a misread zone, an
illegal play) is handed over as it is: the engine records the violation. Call it again after
applying each action until it gives None.

>>> from engine.gouji.notation import parse_cards
>>> from engine.gouji.table import GoujiGame
>>> from vision.card_seats import SeenPlay
>>> hands = [parse_cards("3s 4s 5s 6s")] * 6
>>> game = GoujiGame(hands, leader=0)
>>> seen = SeenPlay(0, ("3s",), 1)
>>> next_action(seen, game, done=False)
GoujiPlay(at=None, seat=0, cards='3s')
>>> _ = game.apply(Play(0, parse_cards("3s")))
>>> next_action(SeenPlay(2, ("5s",), 5), game, done=False)
GoujiPass(at=None, seat=1, inferred=True)
"""

from __future__ import annotations

from engine.actions import Action
from engine.gouji.events import Pass, Play
from engine.gouji.notation import parse_cards
from engine.gouji.table import GoujiGame
from engine.gouji.table_events import GoujiPass, GoujiPlay
from vision.card_seats import SeenPlay, TrickCleared

__all__ = ["MAX_PASSES", "actions_for", "next_action"]

#: At most this many passes are inferred for one thing seen (six seats).
MAX_PASSES = 6


def next_action(
    seen: SeenPlay | TrickCleared, game: GoujiGame | None, *, done: bool
) -> Action | None:
    """The next action ``seen`` asks of ``game``; ``done``: its play was handed over already."""
    if done:
        return None
    live = game is not None and not game.over and game.current is not None
    waiting = game.queue if game is not None and live else []
    if isinstance(seen, TrickCleared):
        return GoujiPass(seat=waiting[0], inferred=True) if waiting else None
    if seen.seat in waiting and waiting[0] != seen.seat:
        return GoujiPass(seat=waiting[0], inferred=True)
    return GoujiPlay(seat=seen.seat, cards=" ".join(seen.cards))


def actions_for(seen: SeenPlay | TrickCleared, game: GoujiGame) -> list[Action]:
    """All the actions ``seen`` asks of ``game``, applied to ``game`` as they are worked out
    (for a game held here; a service's table is fed one :func:`next_action` at a time)."""
    out: list[Action] = []
    done = False
    for _ in range(MAX_PASSES + 1):
        action = next_action(seen, game, done=done)
        if action is None:
            break
        out.append(action)
        if isinstance(action, GoujiPass):
            game.apply(Pass(action.seat))
        else:
            assert isinstance(action, GoujiPlay)
            game.apply(Play(action.seat, parse_cards(action.cards)))
            done = True
    return out
