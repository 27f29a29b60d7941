"""Qujing's two face-up tail tiles: which replacement a kong may take under each reading (§2).

Picks are counted in the shared wall's replacement order (``Wall.draw_replacement(pick=...)``,
``Wall.revealed_tail()``): picks ``0 .. k-1`` are the ``k`` face-up tail tiles
(``Procedure.revealed_tail_tiles``, 2 for Qujing), pick ``k`` the face-down tile in front of them.
Taking a face-up tile makes the next tail tile face up, which the wall does by construction.

Readings (``QujingOptions.tail_reading``):

* ``any-kong`` (default): any kong takes either face-up tile as its replacement, never a face-down
  one.
* ``bloom-only``: a face-up tile may be taken only when it completes the konger's hand (kong
  bloom); otherwise the replacement is the face-down tile in front of the face-up ones.

Normal draws from the head may reach the face-up tiles at the end of the wall (§2, [I]).

>>> replacement_picks(30, completes_hand=False, options=QujingOptions())
(0, 1)
>>> replacement_picks(30, completes_hand=False, options=QujingOptions(tail_reading="bloom-only"))
(2,)
"""

from __future__ import annotations

from engine.qujing.options import QujingOptions


def replacement_picks(
    live: int, *, completes_hand: bool, options: QujingOptions
) -> tuple[int, ...]:
    """The picks a kong replacement may take with ``live`` tiles left in the wall.

    ``completes_hand`` says whether the chosen tile gives the konger a win (only the
    ``bloom-only`` reading asks; a camera table passes what the player declares).
    """
    if live <= 0:
        return ()
    k = min(options.revealed_tail_tiles, live)
    face_up = tuple(range(k))
    if options.tail_reading == "any-kong":
        return face_up
    hidden_front = (k,) if live > k else ()
    if completes_hand:
        return face_up + hidden_front
    return hidden_front or face_up


def replacement_problem(
    pick: int, live: int, *, completes_hand: bool, options: QujingOptions
) -> str | None:
    """Why taking replacement ``pick`` breaks the tail rule; None when it is allowed."""
    allowed = replacement_picks(live, completes_hand=completes_hand, options=options)
    if pick in allowed:
        return None
    if not allowed:
        return "no tile is left in the wall for a kong replacement"
    where = ", ".join(str(a) for a in allowed)
    return (
        f"kong replacement pick {pick} is not allowed under the {options.tail_reading!r}"
        f" reading (allowed picks: {where})"
    )
