"""Who may answer a play, in which order (digest §5.7, §7).

After an ordinary play everybody still holding cards gets a turn, counter-clockwise (seat + 1).
After a 够级 play the target — the player's 对头 — answers first; if he passes, the others may
burn (烧) it in the order ``burn_priority`` sets (seed Art. 9: the 够级 player's alliance before
the others, each side in playing order). A burn keeps the target: he may beat the burner (解烧)
before the others counter-burn (反烧). Only the 对头 may answer a 通牌 (Art. 13). With the 对头
out (无头), or once 头科 and 二科 are out, 够级 gives no priority.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from engine.gouji.cards import SEATS
from engine.gouji.options import GoujiOptions


def opposite(seat: int) -> int:
    """The 对头: the opponent straight across, three seats on."""
    return (seat + 3) % SEATS


def alliance(seat: int) -> int:
    """Alliance 0 holds seats 0, 2, 4; alliance 1 seats 1, 3, 5."""
    return seat % 2


def playing_order_after(seat: int, among: Collection[int]) -> list[int]:
    """Seats of ``among`` in turn order after ``seat`` (``seat`` itself last if included)."""
    return [s for s in ((seat + k) % SEATS for k in range(1, SEATS + 1)) if s in among]


@dataclass(frozen=True, slots=True)
class Duel:
    """A 够级 attack in the current trick: ``aggressor`` played at ``target`` (his 对头)."""

    aggressor: int
    target: int


@dataclass(frozen=True, slots=True)
class Responses:
    """Seats entitled to answer, first first, and the duel in force after the play."""

    order: tuple[int, ...]
    duel: Duel | None


def response_order(
    player: int,
    *,
    gouji: bool,
    tongpai: bool,
    duel: Duel | None,
    active: Collection[int],
    finished: Sequence[int],
    passed: Collection[int],
    opened: Collection[int],
    options: GoujiOptions,
) -> Responses:
    """The queue of answerers after ``player``'s play (which may have been a burn)."""
    others = playing_order_after(player, set(active) - {player})
    if tongpai and options.tongpai_only_opposite:
        target = opposite(player)
        return Responses((target,) if target in others else (), None)
    burn = duel is not None and player not in (duel.aggressor, duel.target)
    plain = not gouji or (options.plain_order_after_two_out and len(finished) >= 2)
    keeps_duel = not plain and duel is not None and burn
    new_duel = duel if keeps_duel and duel is not None else Duel(player, opposite(player))
    if plain or new_duel.target not in others:
        return Responses(tuple(others), None)
    order = [new_duel.target]
    if options.burning:
        needs_open = options.kaidian and options.burn_needs_open
        candidates = [
            seat
            for seat in others
            if seat != new_duel.target
            and not (options.no_burn_after_pass and seat in passed)
            and not (needs_open and seat not in opened)
        ]
        order += _by_priority(candidates, new_duel, options)
    return Responses(tuple(order), new_duel)


def _by_priority(candidates: list[int], duel: Duel, options: GoujiOptions) -> list[int]:
    if options.burn_priority == "playing-order":
        return candidates
    side = alliance(duel.aggressor if options.burn_priority == "gouji-alliance" else duel.target)
    first = [seat for seat in candidates if alliance(seat) == side]
    return first + [seat for seat in candidates if alliance(seat) != side]
