"""The dealer of a camera-only hand after a hand that ended with no result.

A camera-only table passes the deal by the engine's rotation, which needs each hand's result.
A hand abandoned (its win or washout never read) keeps its dealer, while at the table the deal
may have passed: every later hand would then be dealt one seat off, its seat winds and dealer
payments wrong and a ``wall_exhausted`` or out-of-turn alert now and then (the full camera-only
run, national hands 12-20 after hand 10 was abandoned). Where the procedure deals the dealer 14
tiles, the dealer makes the hand's first discard with no draw: so after an abandoned hand, the
first play the camera reads, a discard by another seat, names the dealer, and the hand's start
is corrected (``Correction`` of its ``hand_started``: the engine replays the hand with that
dealer; the bridge deals counts the engine derives from the dealer, so the 14 tiles move too).
The referee sees the ``correction_applied`` with its reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from engine import actions as act
from engine.events import Event


class DealerWatch:
    """Remembers whether the hand just started follows an abandoned one, and corrects its dealer
    from the first discard read (:meth:`correction`), once."""

    def __init__(self) -> None:
        self._start: act.HandStart | None = None  # the start to correct, while unsure
        self._event_id: str | None = None

    def started(self, start: act.HandStart, events: Iterable[Event]) -> None:
        """A hand started with ``start``; ``events``: what applying it published (the hand
        before ends there, ``abandoned`` when it had no result)."""
        self._start, self._event_id = None, None
        found = list(events)
        abandoned = any(
            e.type == "hand_ended" and getattr(e, "result", None) == "abandoned" for e in found
        )
        begun = next((e for e in found if e.type == "hand_started"), None)
        if abandoned and begun is not None:
            self._start, self._event_id = start, begun.event_id

    def resumed(
        self, start: tuple[act.HandStart, list[Event]] | None, snapshot: Mapping[str, Any]
    ) -> None:
        """A restart resumed the live hand (``snapshot``); ``start``: its hand start and what
        that published, as the journal's replay gave them. Watched as at :meth:`started` while
        nothing is played yet (a restart between an abandoned hand and the first discard)."""
        if start is not None and not any_play(snapshot):
            self.started(*start)

    def correction(self, seat: int, dealer: int, first_play: bool) -> act.Correction | None:
        """The correction that makes ``seat`` the dealer, when its discard is the first play
        read in a hand that follows an abandoned one and the engine's ``dealer`` is another
        seat; None otherwise. Asked once per hand: the first play settles it either way."""
        start, event_id = self._start, self._event_id
        self._start, self._event_id = None, None
        if start is None or event_id is None or not first_play or seat == dealer:
            return None
        reason = (
            f"the camera saw seat {seat} make the first discard after an abandoned hand: "
            f"seat {seat} deals, not seat {dealer}"
        )
        return act.Correction(
            supersedes=event_id, replacement=replace(start, dealer=seat), reason=reason
        )


def any_play(snapshot: Mapping[str, Any]) -> bool:
    """The live hand has a discard, meld or kong on the table."""
    hand = snapshot.get("hand")
    seats = hand.get("seats", []) if isinstance(hand, Mapping) else []
    return any(s.get("river") or s.get("melds") or s.get("face_down_kongs") for s in seats)
