"""One procedure's hands through one ``tilesight run`` process, as at a venue: its config, the
camera stream's timeline per hand, the process killed (SIGKILL) mid-hand and restarted on the
same outbox, a hand with no ``hand_ended`` shown the swept table, and each hand judged."""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bench.camera_run import SIZE, TABLE, TOURNAMENT
from bench.camera_run.judge import HandResult, Kill, hand_events, judge, stream_checks
from bench.camera_run.plan import HandPlan, plan_hands, render_hand
from bench.camera_run.stream import CameraStream
from bench.camera_run.subscriber import Subscriber

_SCRIPT = Path(sys.executable).with_name("tilesight")
TILESIGHT = str(_SCRIPT) if _SCRIPT.exists() else "tilesight"


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
                shown = dict(self.stream.first_sent)  # the swept table below loads anew
                if not ended and swept is not None:  # a washout, or a win refused as read,
                    ended = self.see_swept(plan, swept)  # ends on the swept table
                results.append(
                    self.judge(plan, kill, ended, log.read_text(errors="replace"), shown)
                )
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

    def judge(
        self, plan: HandPlan, kill: Kill | None, ended: bool, log: str, shown: dict[int, float]
    ) -> HandResult:
        """Hand ``plan`` judged from its events; ``shown``: when each of its states was first
        written to the camera (kept before a swept table reloaded the stream: a washout's
        changes were all reported as having no event)."""
        timed = hand_events(self.subscriber.events(), plan.number)
        return judge(plan, timed, shown, kill=kill, ended=ended, log=log)

    def stream_checks(self, plans: list[HandPlan]) -> list[str]:
        """What the whole run's MQTT stream must hold; returns the failures."""
        events = [e for _, _, e in self.subscriber.events()]
        return stream_checks(events, plans, self.workdir / "outbox.sqlite", self.processes)
