"""Camera-only tables through the real ``tilesight run`` (issue 43): complete simulated hands
watched by a live camera stream, a real Mosquitto, kill -9 mid-hand, frame-to-event latency.

    PYTHONPATH=. .venv/bin/python bench/bench_camera_run.py --hands 2 --seed 1
    PYTHONPATH=. .venv/bin/python bench/bench_camera_run.py --hands 1 --seed 1 --kills 2
    PYTHONPATH=. .venv/bin/python bench/bench_camera_run.py --hands 1 --seed 1 --kills 2 \
        --stable-frames 2
    PYTHONPATH=. .venv/bin/python bench/bench_camera_run.py --limiter

For each procedure (``--procedure``, default wsom and national) the simulator plays ``--hands``
hands (``engine.simulate.actions.demo_hands``, seed ``--seed``); every visible change (a discard, a
claim, a kong, a flower set aside, the winner's hand laid face up, a self-drawn winning tile
apart and face-down kongs turned up, as ``tilesight demo --camera-only`` lays them) is rendered
at 1920x1080 (``models.drawn.camera.render_frame``, one fixed overhead camera per table) and served
as a live MJPEG stream over HTTP (multipart/x-mixed-replace, what an IP camera serves), each
state ``--state-s`` seconds at ``--stream-fps`` frames a second. ``tilesight run`` reads it as
its camera (``fps = --fps`` in its config: the reader's holds are set from it) with the real
detector, and publishes to a private Mosquitto; a subscriber here records every event and when
it arrived. No shuffling table is configured, so nothing but the camera feeds the engine.

One ``tilesight run`` process plays all hands of a procedure, as at a venue: it deals the first
hand when it starts; once a hand is over (its ``hand_ended`` arrived; a washout, or a win refused
as read, ends only when the table is seen swept, :meth:`Runner.see_swept`) the camera shows the
table swept (walls built, nothing dealt: bare felt where the hands and rivers lay) for ``--clear-s``
seconds and then the deal, and the process starts the next hand when it sees the table cleared
(``table_cleared``, ``CameraFeed.table_cleared``; dealer from the engine's ``next_dealer``), on
the same epoch and seq stream. It is stopped (SIGTERM) after the last hand.

``--kills K``: in K hands (chosen at random with the seed) the process is killed (SIGKILL) when
the stream reaches a random frame between 25 % and 75 % of the hand's changes; the table moves
on by one visible change while no process watches, and a new process is started on the same
outbox; the stream goes on from where the table is, and the new process plays the hands after.

Checked per hand: false alerts (``violation`` events on ``private/events/violation``; the
simulator plays only legal hands), discards missed or invented against the truth (seat and
tile; a discard inferred with no tile counts as missed), the win against the truth's
(``models.evaluation.camera_scoring.win_summary``: winner, self-drawn or discarder, fans, total,
payments). Per procedure: seq 1..max with no gap or duplicate, unique event ids, one epoch,
one ``hand_started`` per hand, no ``abandoned`` hand, everything stored was received; after a
kill, the log says the hand resumed. Latency: from the first frame of each visible change
written to the camera socket to the arrival of its event at the subscriber (same clock), each
change matched in play order to the first unused event of its type and seat after it.
Exits 1 when any check fails. ``--stable-frames``: the config's ``[detector] stable_frames``
(unset: its default, 3). ``--limiter``: only how many frames a second the camera worker's rate
limiter keeps of a live stream. Outboxes, configs, each hand's log and every event received
(``events.jsonl``, with its arrival time) stay in ``--workdir``; the process's log is
``run.log`` per procedure. ``--limiter`` compares the worker's ``FrameLimiter`` with the limiter
it replaced (the next frame due one period after the frame kept).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine import actions as act
from engine.events import to_dict
from engine.table import Table

SIZE = (1920, 1080)  # the demo's design point: river tiles ~40 px
TOURNAMENT, TABLE = "bench", "T01"
_SCRIPT = Path(sys.executable).with_name("tilesight")
TILESIGHT = str(_SCRIPT) if _SCRIPT.exists() else "tilesight"
Event = dict[str, Any]


# ── the simulated hands, as a camera sees them ────────────────────────────────────────────────


@dataclass(frozen=True)
class Change:
    """One visible change: the table state that first shows it, and the event it should bring."""

    state: int
    kind: str  # discard, claim, kong, flower, win
    seat: int
    event: str  # the engine event type it should cause


@dataclass
class HandPlan:
    number: int
    dealer: int
    specs: list[Any]  # vision.layout.TableSpec per state; the deal (after the first hand,
    # the table swept before it), then one state per change
    changes: list[Change]
    truth: list[Event]  # the truth table's events of the hand
    discards: list[tuple[int, str]]
    jpegs: list[bytes] = field(default_factory=list)


def _change(action: act.Action, state: int) -> Change:
    seat = int(getattr(action, "seat", -1))
    if isinstance(action, act.Discard):
        return Change(state, "discard", seat, "tile_discarded")
    if isinstance(action, act.Chow | act.Pung):
        return Change(state, "claim", seat, "meld_claimed")
    if isinstance(action, act.Kong | act.AddedKong | act.ConcealedKong):
        return Change(state, "kong", seat, "kong_declared")
    if isinstance(action, act.Flower):
        return Change(state, "flower", seat, "flower_replaced")
    raise ValueError(f"no visible change expected of {action!r}")


def plan_hands(procedure: str, seed: int, hands: int, rules: str | None) -> list[HandPlan]:
    """The simulator's hands, each as the table states a camera sees and the truth's events
    (one truth table for the game, as ``tilesight demo --camera-only`` keeps it)."""
    from engine.simulate.actions import demo_hands
    from models.drawn.visible_table import VisibleTable
    from models.evaluation.camera_scoring import laid_down
    from vision.layout import TableSpec

    truth = Table(procedure, rules=rules)
    plans = []
    for hand in demo_hands(procedure, seed, hands):
        table = VisibleTable(face_down_kongs=procedure == "national")
        specs, changes, events, discards = [copy.deepcopy(table.spec)], [], [], []
        if plans:  # first the table swept after the hand before: walls built, no hand dealt
            specs.insert(0, TableSpec(concealed=[0] * 4))
        for action in hand.actions:
            applied = [to_dict(e) for e in truth.apply(action)]
            events += applied
            if isinstance(action, act.Discard):
                discards.append((action.seat, str(action.tile)))
            win = next((e for e in applied if e["type"] == "win_declared"), None)
            if win is not None:  # the winner lays its hand face up, kongs turned up
                table.reveal_win(*laid_down(win, self_drawn_apart=True), show_kongs=True)
                specs.append(copy.deepcopy(table.spec))
                changes.append(Change(len(specs) - 1, "win", int(win["seat"]), "win_declared"))
            if table.apply(action):
                specs.append(copy.deepcopy(table.spec))
                changes.append(_change(action, len(specs) - 1))
        plans.append(HandPlan(hand.number, hand.dealer, specs, changes, events, discards))
    return plans


def render_hand(plan: HandPlan, corners: np.ndarray, table_seed: int) -> tuple[float, ...]:
    """Each state rendered once (``plan.jpegs``, JPEG quality 90); returns the table's corners
    in the frame (the calibration). The deal is state 0 of the hand's seeds (as when each hand
    had a process of its own: the same frames), the swept table before it seed 999."""
    from models.art.faces import load_faces
    from models.drawn.camera import render_frame

    faces = {name: [image] for name, image in load_faces().items()}
    found: tuple[float, ...] = ()
    plan.jpegs = []
    swept = len(plan.specs) - len(plan.changes) - 1
    for index, spec in enumerate(plan.specs):
        frame = render_frame(
            spec,
            faces,
            np.random.default_rng(plan.number * 1000 + (index - swept) % 1000),
            frame_size=SIZE,
            arms=0,
            corners=corners,
            distortion=0.0,
            table_seed=table_seed,
        )
        found = tuple(float(v) for v in np.asarray(frame.table_corners).ravel())
        ok, data = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        plan.jpegs.append(data.tobytes())
    return found


# ── the camera: a live MJPEG stream ───────────────────────────────────────────────────────────


class CameraStream:
    """An overhead IP camera serving the table over HTTP as MJPEG, ``fps`` frames a second.

    The table plays on only while a camera client reads it: the position (``cursor``, a frame
    of the hand's timeline) advances with each frame sent; the last state repeats (the camera
    keeps watching). Records when each state's first frame was written to a client.
    """

    def __init__(self, fps: float) -> None:
        self.fps = fps
        self._cond = threading.Condition()
        self.timeline: list[int] = []  # the state each frame shows
        self.jpegs: list[bytes] = []
        self.cursor = 0
        self.first_sent: dict[int, float] = {}
        self.connections: list[float] = []  # when each client connected
        self.client: int | None = None  # the serving connection's number
        self.max_lag = 0.0  # how far the stream fell behind its frame clock (a slow reader)
        self.frames_sent = 0
        stream = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                stream.serve(self.wfile.write)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/camera.mjpg"

    def load(self, jpegs: list[bytes], durations: list[int], *, detach: bool = True) -> None:
        """A new timeline; ``detach``: a client still attached (a process stopping) reads no
        more, else it reads on into the new timeline (the next hand at the same table)."""
        with self._cond:
            if detach:
                self.client = None
            self.jpegs = jpegs
            self.timeline = [s for s, n in enumerate(durations) for _ in range(n)]
            self.cursor = 0
            self.first_sent = {}

    def serve(self, write: Callable[[bytes], Any]) -> None:
        with self._cond:
            self.connections.append(time.monotonic())
            me = len(self.connections)
            self.client = me
        start, sent = time.monotonic(), 0
        try:
            while True:
                due = start + sent / self.fps
                time.sleep(max(0.0, due - time.monotonic()))
                with self._cond:
                    if self.client != me:
                        return
                    state = self.timeline[self.cursor]
                    now = time.monotonic()
                    self.first_sent.setdefault(state, now)
                    self.max_lag = max(self.max_lag, now - due)
                    self.cursor = min(self.cursor + 1, len(self.timeline) - 1)
                    self.frames_sent += 1
                    data = self.jpegs[state]
                    self._cond.notify_all()
                head = f"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: {len(data)}"
                write(head.encode() + b"\r\n\r\n" + data + b"\r\n")
                sent += 1
        except OSError:  # the process went away
            return
        finally:
            with self._cond:
                if self.client == me:
                    self.client = None
                self._cond.notify_all()

    def wait(self, predicate: Callable[[], bool], timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(predicate, timeout)

    def at_end(self) -> bool:
        return self.cursor >= len(self.timeline) - 1

    def skip_to_next_state(self) -> int:
        """While no one watches, the table moves on to its next state; returns that state."""
        with self._cond:
            state = self.timeline[self.cursor]
            while self.cursor < len(self.timeline) - 1 and self.timeline[self.cursor] == state:
                self.cursor += 1
            return self.timeline[self.cursor]


# ── the subscriber ────────────────────────────────────────────────────────────────────────────


class Subscriber:
    """Every event of the table (public and referee-only), with its arrival time."""

    def __init__(self, url: str) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        from tilesight.config import parse_mqtt_url

        self.endpoint = parse_mqtt_url(url)
        self.received: list[tuple[float, str, Event]] = []
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id="bench-camera-run", protocol=mqtt.MQTTv5
        )
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *_: self._ready.set()

    def _on_message(self, _client: Any, _userdata: Any, message: Any) -> None:
        arrived = time.monotonic()
        with self._lock:
            self.received.append((arrived, message.topic, json.loads(message.payload)))

    def __enter__(self) -> Subscriber:
        base = f"tilesight/v1/{TOURNAMENT}/{TABLE}"
        self.client.connect(self.endpoint.host, self.endpoint.port)
        self.client.loop_start()
        for topic in (f"{base}/events/#", f"{base}/private/events/#"):
            self._ready.clear()
            self.client.subscribe(topic, qos=1)
            if not self._ready.wait(10):
                raise TimeoutError(f"no SUBACK for {topic}")
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def events(self) -> list[tuple[float, str, Event]]:
        with self._lock:
            return list(self.received)

    def hand_ended(self, number: int) -> bool:
        return any(
            e["type"] == "hand_ended" and e.get("hand_number") == number
            for _, _, e in self.events()
        )


# ── one procedure's hands through tilesight run ───────────────────────────────────────────────


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


@dataclass
class Runner:
    procedure: str
    rules: str | None
    args: argparse.Namespace
    broker_url: str
    stream: CameraStream
    subscriber: Subscriber
    workdir: Path
    kills: set[int]
    rng: random.Random
    processes: list[tuple[int, int]] = field(default_factory=list)  # (hand, exit code)
    live: subprocess.Popen[bytes] | None = None

    def config(self, calibration: Path) -> Path:
        path = self.workdir / "table.toml"
        rules = f'rules = "{self.rules}"\n' if self.rules else ""
        stable = self.args.stable_frames
        detector = f"[detector]\nstable_frames = {stable}\n" if stable else ""
        path.write_text(
            f'tournament = "{TOURNAMENT}"\ntable = "{TABLE}"\nprocedure = "{self.procedure}"\n'
            f'{rules}log_level = "INFO"\n'
            f'[mqtt]\nurl = "{self.broker_url}"\nwill_delay_s = 0\n'
            f'[outbox]\npath = "{self.workdir / "outbox.sqlite"}"\n'
            f'[calibration]\npath = "{calibration}"\n{detector}'
            f'[[cameras]]\nsource = "{self.stream.url}"\nfps = {self.args.fps}\n'
        )
        return path

    def start(self, config: Path, log: Path) -> subprocess.Popen[bytes]:
        with log.open("ab") as out:
            self.live = subprocess.Popen(
                [TILESIGHT, "run", "--config", str(config)], stdout=out, stderr=subprocess.STDOUT
            )
        return self.live

    def durations(self, plan: HandPlan) -> list[int]:
        """Frames per state: the table swept ``--clear-s`` (after the first hand: the process
        starts the next hand on seeing it cleared), the deal ``--lead-s``, each change
        ``--state-s``."""
        per = max(1, round(self.args.state_s * self.args.stream_fps))
        lead = max(1, round(self.args.lead_s * self.args.stream_fps))
        clear = max(1, round(self.args.clear_s * self.args.stream_fps))
        swept = len(plan.specs) - len(plan.changes) - 1  # a state before the deal, or none
        return [*[clear] * swept, lead, *[per] * len(plan.changes)]

    def play(self, plan: HandPlan, config: Path, log: Path) -> tuple[Kill | None, bool]:
        """One hand, watched by the process (started for the first; restarted when killed),
        until its hand_ended and ``--grace-s`` more."""
        first = self.live is None
        durations = self.durations(plan)
        self.stream.load(plan.jpegs, durations, detach=first)
        connected = len(self.stream.connections)
        process = self.start(config, log) if self.live is None else self.live
        kill = None
        if plan.number in self.kills:
            process, kill = self.kill_and_restart(plan, durations, process, config, log)
        waited = self.stream.wait(
            lambda: self.stream.at_end() or process.poll() is not None, self.args.hand_timeout
        )
        if not waited or process.poll() is not None:
            raise RuntimeError(f"hand {plan.number}: the stream did not reach its end ({log})")
        deadline = time.monotonic() + self.args.tail_s
        while time.monotonic() < deadline and not self.subscriber.hand_ended(plan.number):
            time.sleep(0.05)
        ended = self.subscriber.hand_ended(plan.number)
        time.sleep(self.args.grace_s)  # a kong shown after the win, a rescored hand_ended
        if first and len(self.stream.connections) <= connected:
            raise RuntimeError(f"hand {plan.number}: the process never read the camera ({log})")
        return kill, ended

    def see_swept(self, plan: HandPlan, swept: bytes) -> bool:
        """A hand with no ``hand_ended`` yet ends when the table is seen cleared (vision/
        hand_end.py): a washout (no camera sees one; its wall is spent), or a win the engine
        refused as read (it stands unscored): the swept table, ``--clear-s``, then ``--tail-s``
        at most for its ``hand_ended``. The process starts the next hand on the same sight."""
        clear = max(1, round(self.args.clear_s * self.args.stream_fps))
        self.stream.load([swept], [clear], detach=False)
        deadline = time.monotonic() + self.args.clear_s + self.args.tail_s
        while time.monotonic() < deadline and not self.subscriber.hand_ended(plan.number):
            time.sleep(0.05)
        return self.subscriber.hand_ended(plan.number)

    def stop(self, hand: int) -> None:
        """SIGTERM the process (after the last hand played, or one that could not be)."""
        if self.live is not None and self.live.poll() is None:
            self.live.send_signal(signal.SIGTERM)
            self.processes.append((hand, self.live.wait(timeout=60)))

    def kill_and_restart(
        self,
        plan: HandPlan,
        durations: list[int],
        process: subprocess.Popen[bytes],
        config: Path,
        log: Path,
    ) -> tuple[subprocess.Popen[bytes], Kill]:
        changes = len(durations) - 1
        state = self.rng.randint(max(1, changes // 4), max(1, 3 * changes // 4))
        frame = sum(durations[:state]) + self.rng.randrange(durations[state])
        if not self.stream.wait(
            lambda: self.stream.cursor >= frame or process.poll() is not None,
            self.args.hand_timeout,
        ):
            raise RuntimeError(f"hand {plan.number}: the stream never reached frame {frame}")
        killed_at = time.monotonic()
        process.send_signal(signal.SIGKILL)
        self.processes.append((plan.number, process.wait()))
        self.stream.wait(lambda: self.stream.client is None, 10)
        shown = self.stream.timeline[self.stream.cursor]
        moved = self.stream.skip_to_next_state()  # a change made while no one watched
        connections = len(self.stream.connections)
        restarted = self.start(config, log)
        self.stream.wait(lambda: len(self.stream.connections) > connections, 120)
        kill = Kill(plan.number, shown, moved, time.monotonic() - killed_at)
        return restarted, kill

    def run(self) -> tuple[list[HandResult], list[str]]:
        from models.evaluation.perception_check import installed_camera
        from vision.calibration import Calibration

        self.workdir.mkdir(parents=True, exist_ok=True)
        plans = plan_hands(self.procedure, self.args.seed, self.args.hands, self.rules)
        camera_rng = np.random.default_rng(self.args.seed)
        corners = installed_camera(*SIZE, camera_rng)  # one camera installed over the table
        table_seed = int(camera_rng.integers(1 << 30))
        calibration = self.workdir / "calibration.json"
        config = self.config(calibration)
        log = self.workdir / "run.log"
        for plan in plans:  # all before the process starts: rendering takes the CPUs
            started = time.monotonic()
            found = render_hand(plan, corners, table_seed)
            if not calibration.exists():
                points = tuple(zip(found[::2], found[1::2], strict=True))
                calibration.write_text(Calibration(points).to_json())
            print(
                f"  {self.procedure} hand {plan.number}: {len(plan.changes)} changes, "
                f"rendered in {time.monotonic() - started:.0f} s",
                flush=True,
            )
        results, failures = [], []
        swept = next((p.jpegs[0] for p in plans[1:]), None)  # the table swept between hands
        try:
            for plan in plans:
                started = time.monotonic()
                kill, ended = self.play(plan, config, log)
                if not ended and swept is not None:  # a washout, or a win refused as read,
                    ended = self.see_swept(plan, swept)  # ends on the swept table
                results.append(self.judge(plan, kill, ended, log.read_text(errors="replace")))
                print(
                    f"  {self.procedure} hand {plan.number}: played in "
                    f"{time.monotonic() - started:.0f} s",
                    flush=True,
                )
                if not ended:
                    raise RuntimeError(
                        f"hand {plan.number} never ended: a hand in play with tiles left in its "
                        "wall is not ended by a cleared table, so the hands after it are not "
                        "played"
                    )
            self.stop(plans[-1].number)
        except RuntimeError as exc:  # a hand that could not be played: the hands after it neither
            failures.append(str(exc))
        finally:
            if self.live is not None and self.live.poll() is None:
                self.live.kill()
                self.live.wait()
            with (self.workdir / "events.jsonl").open("w") as out:
                for arrived, topic, event in self.subscriber.events():
                    out.write(json.dumps({"arrived": arrived, "topic": topic, **event}) + "\n")
        return results, failures + self.stream_checks(plans[: len(results)])

    def hand_events(self, number: int) -> list[tuple[float, Event]]:
        """The events of hand ``number``: those after its hand_started in seq order."""
        events = sorted(((t, e) for t, _, e in self.subscriber.events()), key=lambda p: p[1]["seq"])
        out, current = [], None
        for arrived, event in events:
            if event["type"] == "hand_started":
                current = event["hand_number"]
            if current == number:
                out.append((arrived, event))
        return out

    def judge(self, plan: HandPlan, kill: Kill | None, ended: bool, log: str) -> HandResult:
        from models.evaluation.camera_scoring import win_summary

        timed = self.hand_events(plan.number)
        events = [e for _, e in timed]
        published = [(e["seat"], e["tile"]) for e in events if e["type"] == "tile_discarded"]
        read = [(s, t) for s, t in published if t is not None]
        common = Counter(plan.discards) & Counter(read)
        started = next((e for e in events if e["type"] == "hand_started"), {})
        if kill is not None:
            kill.resumed = f"hand {plan.number} resumes" in log
        latencies, unmatched = self.latencies(plan, timed)
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
            latencies=latencies,
            unmatched=unmatched,
            kill=kill,
            ended=ended,
            log=log,
        )

    def latencies(
        self, plan: HandPlan, timed: list[tuple[float, Event]]
    ) -> tuple[dict[str, list[float]], list[str]]:
        """Per kind of change: its event's arrival less its first frame's writing, each change
        matched in play order to the first unused event of its type and seat after it."""
        first = self.stream.first_sent
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

    def stream_checks(self, plans: list[HandPlan]) -> list[str]:
        """What the whole run's MQTT stream must hold; returns the failures."""
        from tilesight.outbox import Outbox

        events = [e for _, _, e in self.subscriber.events()]
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
        if starts != Counter(p.number for p in plans):
            problems.append(f"hand_started per hand: {dict(starts)}")
        problems += [
            f"hand {e['hand_number']} abandoned"
            for e in events
            if e["type"] == "hand_ended" and e.get("result") == "abandoned"
        ]
        outbox = Outbox(str(self.workdir / "outbox.sqlite"))
        try:
            last = outbox.last_position(TABLE)
        finally:
            outbox.close()
        if last is None or last[1] != max(seqs, default=0):
            problems.append(f"outbox holds up to {last}, received up to seq {max(seqs, default=0)}")
        problems += [
            f"hand {h}: exit code {code}" for h, code in self.processes if code not in (0, -9)
        ]
        return problems


# ── the report ────────────────────────────────────────────────────────────────────────────────


def _quantiles(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"n={len(ordered)} p50 {statistics.median(ordered):.2f} s, p95 {p95:.2f} s, "
        f"max {ordered[-1]:.2f} s"
    )


def hand_line(procedure: str, result: HandResult) -> str:
    win = (
        "same win"
        if result.same_win
        else f"WIN DIFFERS: truth {result.truth_win}, camera {result.camera_win}"
    )
    if result.same_win and result.truth_win is not None:
        how = (
            "self-drawn"
            if result.truth_win["self_drawn"]
            else f"on seat {result.truth_win['discarder']}'s discard"
        )
        win += f" (seat {result.truth_win['seat']} {how}, {result.truth_win.get('total')} points)"
    parts = [
        f"{procedure} hand {result.number}: {result.changes} changes",
        f"{len(result.alerts)} false alerts",
        f"{result.published} tile_discarded for {result.truth_discards} discards: "
        f"{len(result.missed)} missed, {len(result.invented)} invented, "
        f"{result.unread} inferred unread",
        win,
    ]
    if result.dealer[0] != result.dealer[1]:
        parts.append(f"DEALER: simulator {result.dealer[0]}, engine {result.dealer[1]}")
    if not result.ended:
        parts.append("NO hand_ended before the stop")
    if result.kill is not None:
        k = result.kill
        parts.append(
            f"killed at state {k.state}, table moved to {k.moved_to} while down, camera read "
            f"again {k.reconnect_s:.1f} s after the kill, "
            + ("'resumes' logged" if k.resumed else "NOT RESUMED")
        )
    detail = [*result.alerts, *(f"missed {m}" for m in result.missed)]
    detail += [f"invented {i}" for i in result.invented]
    detail += [f"no event for the {u}" for u in result.unmatched]
    return "; ".join(parts) + "".join(f"\n    {d}" for d in detail)


def report(results: dict[str, list[HandResult]], problems: dict[str, list[str]]) -> list[str]:
    lines = []
    kinds: dict[str, list[float]] = {}
    for procedure, hands in results.items():
        lines += [hand_line(procedure, h) for h in hands]
        lines += [f"{procedure} STREAM PROBLEM: {p}" for p in problems[procedure]]
        for hand in hands:
            for kind, values in hand.latencies.items():
                kinds.setdefault(kind, []).extend(values)
    every = [h for hands in results.values() for h in hands]
    kills = [h.kill for h in every if h.kill is not None]
    lines.append(
        f"total: {len(every)} hands, {sum(h.same_win for h in every)} wins as the truth, "
        f"{sum(len(h.alerts) for h in every)} false alerts, "
        f"{sum(len(h.missed) for h in every)} discards missed, "
        f"{sum(len(h.invented) for h in every)} invented, "
        f"{sum(h.unread for h in every)} inferred unread, "
        f"{sum(len(h.unmatched) for h in every)} changes with no event; "
        f"kills {len(kills)}, resumed {sum(k.resumed for k in kills)}; "
        f"stream problems {sum(len(p) for p in problems.values())}"
    )
    lines.append("latency, first frame of a change written -> its event at the subscriber:")
    for kind in ("discard", "claim", "kong", "flower", "win"):
        if kind in kinds:
            lines.append(f"  {kind}: {_quantiles(kinds[kind])}")
    lines.append(f"  all: {_quantiles([v for vs in kinds.values() for v in vs])}")
    return lines


class _OldLimiter:
    """The limiter ``CameraFeed.worker`` had: the next frame due one period after the kept one."""

    def __init__(self, fps: float) -> None:
        self.period, self.due = 1.0 / fps, 0.0

    def keep(self, now: float) -> bool:
        if now < self.due:
            return False
        self.due = now + self.period
        return True


def limiter_check(seconds: float = 6.0) -> list[str]:
    """Frames a second the camera worker's rate limiter keeps of a live stream: the loop of
    ``CameraFeed.worker`` with its ``FrameLimiter`` (and, for comparison, the limiter it
    replaced), the reading replaced by a sleep, fed by :class:`CameraStream` through
    ``vision.capture.frames``."""
    from tilesight.camera_feed import FrameLimiter
    from vision.capture import Source, frames

    ok, data = cv2.imencode(".jpg", np.zeros((720, 1152, 3), np.uint8))
    assert ok
    lines = []
    for camera_fps, fps, work_s in ((10, 10, 0.03), (10, 10, 0.07), (20, 10, 0.07), (30, 10, 0.03)):
        rates = []
        for limiter in (_OldLimiter(fps), FrameLimiter(fps)):
            stream = CameraStream(camera_fps)
            stream.load([data.tobytes()], [1 << 20])
            kept = 0
            began = time.monotonic()
            for _number, _image in frames(Source(stream.url)):
                if time.monotonic() - began > seconds:
                    break
                if not limiter.keep(time.monotonic()):
                    continue  # as camera_feed.py: drop frames beyond the rate
                kept += 1
                time.sleep(work_s)  # the detector and reader
            stream.load([data.tobytes()], [1])  # detach the client
            stream.server.shutdown()
            rates.append(kept / seconds)
        lines.append(
            f"camera {camera_fps} frames/s, config fps {fps}, {work_s * 1000:.0f} ms a frame: "
            f"{rates[1]:.1f} frames/s processed (the old limiter: {rates[0]:.1f})"
        )
    return lines


def _kill_hands(args: argparse.Namespace) -> dict[str, set[int]]:
    every = [(p, n) for p in args.procedure for n in range(1, args.hands + 1)]
    if args.kills > len(every):
        raise SystemExit(f"--kills {args.kills}: only {len(every)} hands")
    chosen = random.Random(args.seed).sample(every, args.kills)
    return {p: {n for q, n in chosen if q == p} for p in args.procedure}


def _rules(procedure: str) -> str | None:
    from engine.procedures import find_procedure

    return None if find_procedure(procedure).default_rules else "mcr"  # as camera_scoring


def _play_all(
    args: argparse.Namespace, stream: CameraStream, workdir: Path
) -> tuple[dict[str, list[HandResult]], dict[str, list[str]]]:
    from tilesight.demo.broker import MosquittoBroker

    kills = _kill_hands(args)
    results: dict[str, list[HandResult]] = {}
    problems: dict[str, list[str]] = {}
    with MosquittoBroker() as broker:
        for procedure in args.procedure:
            with Subscriber(broker.url) as subscriber:
                runner = Runner(
                    procedure,
                    _rules(procedure),
                    args,
                    broker.url,
                    stream,
                    subscriber,
                    workdir / procedure,
                    kills[procedure],
                    random.Random(f"{args.seed}-{procedure}"),
                )
                results[procedure], problems[procedure] = runner.run()
    return results, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2, help="hands per procedure")
    parser.add_argument("--procedure", nargs="+", default=["wsom", "national"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kills", type=int, default=0, help="hands killed -9 mid-hand")
    parser.add_argument("--fps", type=float, default=10.0, help="the camera's fps in the config")
    parser.add_argument(
        "--stable-frames", type=int, help="[detector] stable_frames (default: the config's, 3)"
    )
    parser.add_argument("--stream-fps", type=float, default=20.0, help="frames the camera sends")
    parser.add_argument("--state-s", type=float, default=1.0, help="seconds each change shows")
    parser.add_argument("--lead-s", type=float, default=1.0, help="seconds the deal shows")
    parser.add_argument(
        "--clear-s",
        type=float,
        default=5.0,
        help="seconds the table shows swept before each hand after the first",
    )
    parser.add_argument("--tail-s", type=float, default=20.0, help="wait for hand_ended at most")
    parser.add_argument(
        "--grace-s", type=float, default=2.0, help="after hand_ended, then the next hand or stop"
    )
    parser.add_argument("--hand-timeout", type=float, default=400.0)
    parser.add_argument("--workdir", type=Path, help="outboxes, configs and logs (default: tmp)")
    parser.add_argument("--json", type=Path, help="write the per-hand results here")
    parser.add_argument(
        "--limiter", action="store_true", help="only measure the camera worker's frame limiter"
    )
    args = parser.parse_args()
    if args.limiter:
        print("\n".join(limiter_check()))
        return
    import tempfile

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="bench-camera-run-"))
    stream = CameraStream(args.stream_fps)
    began = time.monotonic()
    results, problems = _play_all(args, stream, workdir)
    print("\n".join(report(results, problems)))
    print(
        f"workdir {workdir}; stream fell behind its clock by at most {stream.max_lag:.2f} s; "
        f"{stream.frames_sent} frames sent; {time.monotonic() - began:.0f} s in all"
    )
    if args.json:
        rows = [
            {k: v for k, v in vars(h).items() if k != "log"} | {"procedure": p}
            for p, hands in results.items()
            for h in hands
        ]
        args.json.write_text(json.dumps(rows, indent=1, default=vars))
    failed = any(problems.values()) or any(
        h.alerts or h.missed or h.invented or not h.same_win or (h.kill and not h.kill.resumed)
        for hands in results.values()
        for h in hands
    )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
