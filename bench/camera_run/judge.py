"""Each hand judged against the truth (discards missed or invented, false alerts, the win, the
latency of each visible change) and the whole run's MQTT stream checked (seq 1..max, one
epoch, unique event ids, one ``hand_started`` per hand, nothing abandoned, the outbox caught up).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.camera_run import TABLE, Event
from bench.camera_run.plan import HandPlan


@dataclass
class Kill:
    hand: int
    state: int  # the state the stream showed when the process was killed
    moved_to: int  # the state the table moved on to while no process watched
    reconnect_s: float = 0.0  # SIGKILL -> the new process reads the camera
    resumed: bool = False  # its log says the hand resumes


@dataclass
class HandResult:
    number: int
    dealer: tuple[int, int | None]  # the simulator's, the engine's
    changes: int
    missed: list[tuple[int, str]]
    invented: list[tuple[int, str]]
    unread: int  # discards inferred with no tile
    published: int  # tile_discarded events of the hand (truth: len(discards) of its plan)
    truth_discards: int
    alerts: list[str]
    truth_win: dict[str, object] | None
    camera_win: dict[str, object] | None
    latencies: dict[str, list[float]]
    unmatched: list[str]  # visible changes whose event never came
    kill: Kill | None = None
    ended: bool = True  # hand_ended arrived before the process was stopped
    log: str = ""

    @property
    def same_win(self) -> bool:
        return self.truth_win == self.camera_win


def hand_events(received: list[tuple[float, str, Event]], number: int) -> list[tuple[float, Event]]:
    """The events of hand ``number``: those after its hand_started in seq order."""
    events = sorted(((t, e) for t, _, e in received), key=lambda p: p[1]["seq"])
    out, current = [], None
    for arrived, event in events:
        if event["type"] == "hand_started":
            current = event["hand_number"]
        if current == number:
            out.append((arrived, event))
    return out


def judge(
    plan: HandPlan,
    timed: list[tuple[float, Event]],
    first_sent: dict[int, float],
    *,
    kill: Kill | None,
    ended: bool,
    log: str,
) -> HandResult:
    """Hand ``plan`` judged from its events ``timed`` (arrival, event) and when each state's
    first frame was written (``first_sent``)."""
    from models.evaluation.camera_scoring import win_summary

    events = [e for _, e in timed]
    published = [(e["seat"], e["tile"]) for e in events if e["type"] == "tile_discarded"]
    read = [(s, t) for s, t in published if t is not None]
    common = Counter(plan.discards) & Counter(read)
    started = next((e for e in events if e["type"] == "hand_started"), {})
    if kill is not None:
        kill.resumed = f"hand {plan.number} resumes" in log
    latencies_by_kind, unmatched = latencies(plan, timed, first_sent)
    return HandResult(
        number=plan.number,
        dealer=(plan.dealer, started.get("dealer")),
        changes=len(plan.changes),
        missed=list((Counter(plan.discards) - common).elements()),
        invented=list((Counter(read) - common).elements()),
        unread=len(published) - len(read),
        published=len(published),
        truth_discards=len(plan.discards),
        alerts=[
            f"{e['kind']} (seat {e['seat']}): {e['detail']}"
            for e in events
            if e["type"] == "violation"
        ],
        truth_win=win_summary(plan.truth),
        camera_win=win_summary(events),
        latencies=latencies_by_kind,
        unmatched=unmatched,
        kill=kill,
        ended=ended,
        log=log,
    )


def latencies(
    plan: HandPlan, timed: list[tuple[float, Event]], first: dict[int, float]
) -> tuple[dict[str, list[float]], list[str]]:
    """Per kind of change: its event's arrival less its first frame's writing, each change
    matched in play order to the first unused event of its type and seat after it."""
    used: set[int] = set()
    out: dict[str, list[float]] = {}
    unmatched = []
    for change in plan.changes:
        shown = first.get(change.state)
        found = next(
            (
                (index, arrived)
                for index, (arrived, event) in enumerate(timed)
                if index not in used
                and event["type"] == change.event
                and event.get("seat") == change.seat
                and shown is not None
                and arrived >= shown
            ),
            None,
        )
        if found is None or shown is None:
            unmatched.append(f"{change.kind} of seat {change.seat} (state {change.state})")
            continue
        used.add(found[0])
        out.setdefault(change.kind, []).append(found[1] - shown)
    return out, unmatched


def stream_checks(
    events: list[Event], plans: list[HandPlan], outbox_path: Path, processes: list[tuple[int, int]]
) -> list[str]:
    """What the whole run's MQTT stream (``events``) must hold, with the outbox at
    ``outbox_path`` and each process's (hand, exit code); returns the failures."""
    from tilesight.outbox import Outbox

    seqs = [e["seq"] for e in events]
    problems = []
    if sorted(seqs) != list(range(1, max(seqs, default=0) + 1)):
        dupes = [s for s, n in Counter(seqs).items() if n > 1]
        gaps = sorted(set(range(1, max(seqs, default=0) + 1)) - set(seqs))
        problems.append(f"seq not 1..{max(seqs, default=0)}: duplicates {dupes}, gaps {gaps}")
    if len({e["event_id"] for e in events}) != len(events):
        problems.append("duplicate event_id")
    if len({e["epoch"] for e in events}) != 1:
        problems.append(f"epochs {sorted({e['epoch'] for e in events})}")
    starts = Counter(e["hand_number"] for e in events if e["type"] == "hand_started")
    after = max((p.number for p in plans), default=0) + 1
    if starts.get(after) == 1 and _nothing_played_in(events, after):
        del starts[after]  # a washout last hand ends on the swept table, which starts the next
    if starts != Counter(p.number for p in plans):
        problems.append(f"hand_started per hand: {dict(starts)}")
    problems += [
        f"hand {e['hand_number']} abandoned"
        for e in events
        if e["type"] == "hand_ended" and e.get("result") == "abandoned"
    ]
    outbox = Outbox(str(outbox_path))
    try:
        last = outbox.last_position(TABLE)
    finally:
        outbox.close()
    if last is None or last[1] != max(seqs, default=0):
        problems.append(f"outbox holds up to {last}, received up to seq {max(seqs, default=0)}")
    problems += [f"hand {h}: exit code {code}" for h, code in processes if code not in (0, -9)]
    return problems


def _nothing_played_in(events: list[dict], hand: int) -> bool:
    """Only ``hand``'s start and deal were published (the process was stopped before play)."""
    begun = next(
        (
            i
            for i, e in enumerate(events)
            if e["type"] == "hand_started" and e["hand_number"] == hand
        ),
        None,
    )
    quiet = {"hand_started", "tiles_dealt", "state", "hand_ended", "table_status"}
    return begun is not None and all(e["type"] in quiet for e in events[begun + 1 :])
