"""Wins on what no camera read: a self-drawn win's unseen draw, a win on an unseen discard, a
tile of the hand read one short. Each takes a reading the rule set scores
(:mod:`engine.win_tile_choice`) and says so on ``win_declared``; a referee may correct it."""

from __future__ import annotations

from engine.notation import Hand
from engine.rulesets import RuleSet, ScoreResult, WinRequest
from engine.table.seats import HandState, WinContext
from engine.table.win_request import score, win_request
from engine.tiles import Tile
from engine.win_tile_choice import best_win_tile, unread_tile


def whole(sets: int, declared: Hand) -> bool:
    """``declared`` holds the winning tile too: 14 tiles with the seat's sets."""
    return len(declared.concealed) + 3 * sets == 14


def unseen_draw(
    rules: RuleSet | None, hand: HandState, seat: int, declared: Hand
) -> tuple[Tile, Hand]:
    """The tile of a self-drawn win whose draw was not seen: the best-scoring reading."""

    def reading(tile: Tile, rest: tuple[Tile, ...]) -> ScoreResult | None:
        return score(rules, win_request(hand, WinContext(seat, tile, "self", None), rest))

    tile, rest = best_win_tile(declared.concealed, reading)
    return tile, Hand(rest, declared.melds)


def unseen_discard_win(
    rules: RuleSet | None, hand: HandState, seat: int, declared: Hand | None
) -> tuple[tuple[int, Tile], Hand] | None:
    """A whole hand declared on the last discard when no camera read that discard: the
    winning tile is the legal reading that scores the least, and it joins the discarder's
    river and log as if read, to be taken from there. None otherwise."""
    discarder = hand.unseen_discard
    if discarder is None or discarder == seat or declared is None:
        return None
    if not whole(hand.seats[seat].sets, declared):
        return None
    river = hand.seats[discarder].river

    def reading(tile: Tile, rest: tuple[Tile, ...]) -> ScoreResult | None:
        river.append(tile)  # the discard lay there: it counts as seen (last of its kind)
        try:
            context = WinContext(seat, tile, "live", discarder)
            return score(rules, win_request(hand, context, rest))
        finally:
            river.pop()

    tile, rest = best_win_tile(declared.concealed, reading, least=True)
    river.append(tile)
    hand.discard_log.append((discarder, tile))
    hand.unseen_discard = None
    return (discarder, tile), Hand(rest, declared.melds)


def unread_completion(
    rules: RuleSet | None, hand: HandState, win: WinContext, known: tuple[Tile, ...]
) -> tuple[tuple[WinRequest, ScoreResult], Tile] | None:
    """A hand read one tile short with the winning tile already laid among it: that copy out,
    the tile no camera read in (the least-scoring legal win); None when none is."""
    if win.tile not in known:
        return None
    rest = list(known)
    rest.remove(win.tile)

    def reading(tiles: tuple[Tile, ...]) -> ScoreResult | None:
        return score(rules, win_request(hand, win, tiles))

    unread = unread_tile(tuple(rest), win.tile, reading)
    if unread is None:
        return None
    request = win_request(hand, win, (*rest, unread))
    result = score(rules, request)
    return ((request, result), unread) if result is not None else None
