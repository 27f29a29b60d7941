"""What the table asks its rule set about a win: the request, and the scorer's answer as JSON.

:func:`win_request` is built from the hand alone (the hand without the winning tile, the melds
with their sources, the win flags and winds), so the hooks can ask whether a seat *could* win
as well as the wins module whether it did.
"""

from __future__ import annotations

from typing import Any

from engine.json_forms import set_label
from engine.notation import Hand
from engine.rulesets import RuleSet, ScoreResult, WinRequest
from engine.table.seats import HandState, WinContext
from engine.tiles import Tile


def win_request(hand: HandState, win: WinContext, concealed: tuple[Tile, ...]) -> WinRequest:
    """The scoring request for ``win`` with ``concealed`` (the hand without the win tile)."""
    seat, win_tile, how = win.seat, win.tile, win.how
    state = hand.seats[seat]
    visible = hand.visible_count(win_tile) - (0 if how == "self" else 1)
    self_drawn = how == "self"
    last_tile = (hand.sea_bottom_drawn if self_drawn else hand.river_bottom) and (how != "robbing")
    extras: dict[str, Any] = {
        "seat": seat,
        "dealer": hand.dealer,
        "rivers": tuple(tuple(s.river) for s in hand.seats),
        "discards": _discards(hand, win),
        "own_discards": tuple(tile for who, tile in hand.discard_log if who == seat),
        "kong_discard": how in ("live", "override", "after_draw") and hand.discard_after_kong,
        **_blessings(hand, win),
    }
    return WinRequest(
        hand=Hand(concealed, tuple(state.melds)),
        win_tile=win_tile,
        self_drawn=self_drawn,
        seat_wind=hand.seat_wind(seat),
        prevalent_wind=hand.prevalent_wind,
        flowers=len(state.flowers),
        last_of_kind=visible == 3,
        last_tile=bool(last_tile),
        kong_replacement=self_drawn and hand.kong_replacement_drawn,
        robbing_kong=how == "robbing",
        extras=extras,
    )


def score(rules: RuleSet | None, request: WinRequest | None) -> ScoreResult | None:
    """The rule set's score of ``request`` (None without either); a scorer that fails gives an
    invalid result: a rule set must not take the table down with it."""
    if rules is None or request is None:
        return None
    try:
        return rules.score(request)
    except Exception as exc:
        return ScoreResult(total=0, valid=False, error=f"scorer failed: {exc!r}")


def score_json(result: ScoreResult) -> dict[str, Any]:
    """ScoreResult.to_json() plus, per fan, the sets or tiles that produced it."""
    out = result.to_json()
    for entry, fan in zip(out["fans"], result.fans, strict=True):
        if fan.tiles:
            entry["sets"] = [set_label(group) for group in fan.tiles]
    return out


def _discards(hand: HandState, win: WinContext) -> tuple[tuple[int, Tile], ...]:
    """The hand's discards in order, ending with the tile won on (a robbed kong's added tile
    counts as the konger's discard); Zung Jung's same-round immunity reads them."""
    log = tuple(hand.discard_log)
    if win.how == "robbing" and win.discarder is not None:
        log += ((win.discarder, win.tile),)
    return log


def _blessings(hand: HandState, win: WinContext) -> dict[str, bool]:
    """Zung Jung 9.4: East wins on the dealt 14 tiles (heaven), or another seat wins on East's
    first discard (earth); either is void once any meld (East's concealed kong) was made."""
    untouched = not any(s.melds for s in hand.seats)
    heaven = win.how == "self" and win.seat == hand.dealer and not hand.discard_log
    earth = (
        win.how != "self"
        and win.discarder == hand.dealer
        and len(hand.discard_log) == 1
        and hand.discard_log[0][0] == hand.dealer
    )
    return {"blessing_of_heaven": untouched and heaven, "blessing_of_earth": untouched and earth}
