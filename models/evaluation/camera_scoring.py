"""Evaluation part 3c: wins scored from the camera alone.

Each simulated hand is played on a truth table (the simulator's procedure, every tile known)
and rendered; at its end the winner lays its hand face up (a discard won on leaves its river).
Everything the reader published for the hand goes through :class:`vision.engine_bridge.ActionBridge`
into a camera-only table (the truth's procedure and dice, the same rules), which never sees a
draw or a concealed tile. Its win is compared with the truth's: the winner, self-drawn or whose
discard, the fans, the total and the four score changes. Every violation the camera-only table
raises is a false alert (the simulator plays only legal hands).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from engine import actions as act
from engine.events import to_dict
from engine.json_forms import (
    hand_from_json,
    tile_from_json,
    tile_to_json,
    tiles_to_json,
    wind_from_json,
)
from engine.procedures import find_procedure
from engine.simulate.actions import demo_hands
from engine.table import Table
from engine.tiles import Wind
from models.drawn.visible_table import VisibleTable
from vision.calibration import Calibration
from vision.engine_bridge import ActionBridge
from vision.faces import face
from vision.layout import RIVER_COLUMNS, TableSpec, layout
from vision.observed import Observed
from vision.reader import TableReader
from vision.stabiliser import Stabiliser, TableDetection

Event = Mapping[str, object]
UNIT = Calibration(((0.0, 0.0), (1024.0, 0.0), (1024.0, 1024.0), (0.0, 1024.0)))


@dataclass
class ScoredHand:
    """One hand's win as the truth scored it and as the camera-only table did."""

    hand: int
    truth: dict[str, object] | None
    camera: dict[str, object] | None
    alerts: list[str] = field(default_factory=list)  # violations on the camera-only table

    @property
    def same(self) -> bool:
        return self.truth == self.camera

    def line(self) -> str:
        if self.same:
            what = (
                "no win" if self.truth is None else f"seat {self.truth['seat']} {_how(self.truth)}"
            )
            head = f"same win ({what}, {self.truth and self.truth['total']} points)"
        else:
            head = f"differs: truth {self.truth}, camera {self.camera}"
        alerts = f"; alerts: {'; '.join(self.alerts)}" if self.alerts else ""
        return f"hand {self.hand}: {head}{alerts}"


def revealed_tiles(win: Event) -> list[str]:
    """The tiles a winner lays face up: its concealed tiles and the winning tile."""
    hand = hand_from_json(win["hand"])
    return [*tiles_to_json(hand.concealed), tile_to_json(tile_from_json(win["win_tile"]))]


def laid_down(
    win: Event, self_drawn_apart: bool = False
) -> tuple[int, list[str], int | None, str | None]:
    """(winner, tiles laid face up, the seat whose river loses the discard won on, if any, the
    winning tile laid apart, if any: a self-drawn one when ``self_drawn_apart``, as national
    rules ask: 单摆)."""
    discarder = win.get("discarder")
    taken = int(str(discarder)) if discarder is not None and not win.get("robbing_kong") else None
    apart = str(win["win_tile"]) if self_drawn_apart and win.get("self_drawn") else None
    return int(str(win["seat"])), revealed_tiles(win), taken, apart


def win_summary(events: Iterable[Event]) -> dict[str, object] | None:
    """What a score keeper records of a hand's win (None: no win scored)."""
    events = list(events)
    win = next((e for e in events if e["type"] == "win_declared"), None)
    if win is None:
        return None
    scored = next((e for e in events if e["type"] == "win_scored"), win)  # a face-down kong
    score = scored.get("score")
    if not isinstance(score, Mapping):
        return {"seat": win["seat"], "self_drawn": win["self_drawn"], "unscored": True}
    fans = score.get("fans")
    names = sorted(str(f.get("name")) for f in fans) if isinstance(fans, list) else []
    return {
        "seat": win["seat"],
        "self_drawn": win["self_drawn"],
        "discarder": win["discarder"],
        "fans": names,
        "total": score.get("total"),
        "deltas": scored.get("deltas"),
    }


def camera_table(
    rules: str,
    dealer: int,
    reader_events: Iterable[Observed],
    prevalent: Wind | None = None,
    *,
    procedure: str = "log",
    dice: tuple[int, ...] = (),
) -> tuple[Table, list]:
    """The reader's events of one hand through the bridge into a fresh camera-only table
    under ``procedure`` (its wall broken by ``dice``, as the shuffling table rolled them);
    ``prevalent``: the round's wind (a service's table keeps it from hand to hand)."""
    table = Table(procedure, rules=rules)
    bridge = ActionBridge(procedure)
    out = []
    start, *deals = bridge.start(dealer=dealer)
    start = replace(start, dice=dice)
    if prevalent is not None:
        start = replace(start, prevalent_wind=prevalent)
    for action in (start, *deals):
        out += table.apply(action)
    for event in reader_events:
        for action in bridge.actions(event):
            out += table.apply(action)
    return table, [to_dict(e) for e in out]


def score_hand(
    number: int,
    rules: str,
    dealer: int,
    truth_events: Iterable[Event],
    reader_events: list[Observed],
    *,
    procedure: str = "log",
) -> ScoredHand:
    """One hand's win from the camera (a table under ``procedure``, the truth's dice) beside
    the truth's."""
    truth_events = list(truth_events)
    started = next((e for e in truth_events if e["type"] == "hand_started"), None)
    prevalent = wind_from_json(started["prevalent_wind"]) if started is not None else None
    dice = tuple(int(d) for d in started["dice"]) if started is not None else ()  # type: ignore[union-attr]
    table, events = camera_table(
        rules, dealer, reader_events, prevalent, procedure=procedure, dice=dice
    )
    alerts = [f"{v.kind.value} (seat {v.seat}): {v.detail}" for v in table.violations]
    return ScoredHand(number, win_summary(truth_events), win_summary(events), alerts)


SELF_DRAWN_APART = frozenset({"national"})  # procedures whose rules ask for 单摆 on a self-draw


def truth_table(procedure: str) -> tuple[Table, str, bool]:
    """The truth's table for ``procedure`` (its own rules, else MCR), the rules' name, and
    whether a self-drawn winning tile is laid apart (national rules: 单摆; WSOM asks it only
    of Nine Gates, and its Zung Jung scoring does not depend on the winning tile)."""
    own_rules = find_procedure(procedure).default_rules is not None
    table = Table(procedure) if own_rules else Table(procedure, rules="mcr")
    rules = table.rules.name if table.rules is not None else "mcr"
    return table, rules, procedure in SELF_DRAWN_APART


def exact_scored_hands(
    seed: int,
    hands: int,
    frames: int = 4,
    procedure: str = "wsom",
    *,
    camera_procedure: str | None = None,
    hide: int | None = None,
    hide_won_on: bool = False,
) -> list[ScoredHand]:
    """The simulator's hands laid out as exact detections (every tile where it lies, no model),
    ``frames`` frames per visible change, read, bridged and scored on a camera-only table under
    ``camera_procedure`` (default: the truth's ``procedure``, as a venue configures it): the
    reader's, the bridge's and the engine's share of camera scoring, apart from the detector.
    ``hide``: in each hand the camera never reads that discard (counted from 0; the first
    from there that the next seat's draw follows, so not one claimed or won on); with
    ``hide_won_on`` the discard a win is made on instead (taken at once into the hand)."""
    truth, rules, apart = truth_table(procedure)
    out = []
    for hand in demo_hands(procedure, seed, hands):
        table = VisibleTable()
        reader = TableReader(None, UNIT, Stabiliser(confirm_frames=2))
        truth_events: list[dict[str, object]] = []
        events: list[Observed] = []
        hidden: set[tuple[int, int]] = set()
        for index, action in enumerate(hand.actions):
            applied = [to_dict(e) for e in truth.apply(action)]
            truth_events += applied
            win = next((e for e in applied if e["type"] == "win_declared"), None)
            if win is not None:
                table.reveal_win(*laid_down(win, apart))
                events += exact_frames(reader, table.spec, frames, frozenset(hidden))
            hides = hide is not None and _hidden_here(hand.actions, index, hide, hide_won_on)
            if hides and not hidden:
                seat = int(getattr(action, "seat", 0))
                hidden.add((seat, len(table.spec.rivers[seat])))
            if table.apply(action):
                events += exact_frames(reader, table.spec, frames, frozenset(hidden))
        final = reader.self_draw_frames + 10
        events += exact_frames(reader, table.spec, final, frozenset(hidden))
        camera = camera_procedure or procedure
        out.append(
            score_hand(hand.number, rules, hand.dealer, truth_events, events, procedure=camera)
        )
    return out


def _hidden_here(actions: tuple[act.Action, ...], index: int, skip: int, won_on: bool) -> bool:
    """``actions[index]`` is a discard, at least the ``skip``-th of the hand, that the next
    seat's draw follows (not claimed, not won on), or with ``won_on`` one a win is made on."""
    action, after = actions[index], actions[index + 1 : index + 2]
    follows = act.Win if won_on else act.Draw
    if not isinstance(action, act.Discard) or not after or not isinstance(after[0], follows):
        return False
    return sum(isinstance(a, act.Discard) for a in actions[:index]) >= skip


def exact_frames(
    reader: TableReader,
    spec: TableSpec,
    frames: int,
    hidden: frozenset[tuple[int, int]] = frozenset(),
) -> list[Observed]:
    """``frames`` frames of ``spec`` read as exact detections: every tile where it lies, and
    an exact felt oracle (bare felt wherever no tile lies). ``hidden``: river places (seat,
    index) whose tile the camera never reads (no detection, and no felt shows there)."""
    spots = layout(spec)
    seen = [
        TableDetection(face(s.name), *s.centre, sideways=s.sideways)
        for s in spots
        if s.slot is None or (s.seat, s.slot[0] * RIVER_COLUMNS + s.slot[1]) not in hidden
    ]
    occupied = [s.centre for s in spots]

    def empty_at(x: float, y: float) -> bool:
        return all(abs(x - cx) > 0.02 or abs(y - cy) > 0.02 for cx, cy in occupied)

    events: list[Observed] = []
    for _ in range(frames):
        events += reader.process_table(seen, empty_at)
    return events


def _how(win: Mapping[str, object]) -> str:
    return "self-drawn" if win["self_drawn"] else f"on seat {win['discarder']}'s discard"
